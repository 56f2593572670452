import { createHash } from 'node:crypto';
import { statusPagesList, statusPagesSection } from './pages/account-status-pages.ts';
import { audienceFor } from '../services/access/audience.ts';
import type { UserViewer } from '../services/context.ts';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError, type ErrorCode } from '../domain/errors.ts';
import { ACCOUNT_PREFIX, API_PREFIX, SLUG_PATTERN } from '../http/index.ts';
import { MIN_PASSWORD_LENGTH } from '../services/access/password-policy.ts';
import { Assets } from './assets.ts';
import { ensureCsrfToken } from './csrf.ts';
import { vendorPageData } from './data.ts';
import type { Html } from './html.ts';
import { layout, type Page, type PageContext } from './layout.ts';
import { accountPage, keysTable } from './pages/account.ts';
import { connectionsSection, feedSection, inboxSection, notificationsSection, watchlistSection } from './pages/account-prefs.ts';
import { localPath, loginPage, signupPage } from './pages/auth.ts';
import { confirmEmailPage, emailConfirmedPage } from './pages/confirm-email.ts';
import { errorPage, notFoundPage } from './pages/errors.ts';
import { overviewMain, overviewPage, parseOverviewFilter } from './pages/overview.ts';
import { vendorMain, vendorPage } from './pages/vendor.ts';
import { comparePage, parseCompareVendors } from './pages/compare.ts';
import { parseSearchQuery, searchPage } from './pages/search.ts';
import { setSecurityHeaders } from './security.ts';
import { boardPageRoutes } from './board-pages.ts';
import { teamPageRoutes } from './team-pages.ts';
import { alertRoutePageRoutes } from './alert-route-pages.ts';
import { servicePageRoutes } from './service-pages.ts';
import { probePageRoutes } from './probe-pages.ts';
import { scimPageRoutes } from './scim-pages.ts';
import { earlyWarningPageRoutes } from './early-warning-pages.ts';
import { ssoPageRoutes } from './sso-pages.ts';
import { boardsList, boardsSection } from './pages/account-boards.ts';

// The web application: server-rendered pages at /, static assets at /assets/,
// and HTML partials at /partials/ that the page modules swap in (live updates,
// lists after a change). Registered without fastify-plugin, so its hooks and
// error handler apply to these routes only (the API keeps its JSON errors).
// Pages authenticate like the API ('optional': the web session when there is
// one, else anonymous) and call the same services.

const SLUG = new RegExp(SLUG_PATTERN);
/** Page routes: hidden from the API description, session recognised when present. */
const PAGE = { schema: { hide: true }, config: { auth: 'optional' as const } };

export interface WebOptions {
  assets?: Assets;
}

export async function webPlugin(app: FastifyInstance, opts: WebOptions = {}) {
  const assets = opts.assets ?? new Assets();
  const services = app.services;

  app.addHook('onRequest', async (_request, reply) => {
    setSecurityHeaders(reply);
  });

  const context = (request: FastifyRequest, reply: FastifyReply): PageContext => ({
    now: app.clock.now(),
    viewer: request.viewer,
    account: request.viewer.authKind === 'session' ? { plan: request.viewer.plan } : null,
    csrfToken: ensureCsrfToken(request, reply),
    assets,
    path: request.url.split('?')[0]!,
    demo: app.config.demo,
  });

  const send = (reply: FastifyReply, ctx: PageContext, page: Page) =>
    reply
      .code(page.status ?? 200)
      .header('Content-Type', 'text/html; charset=utf-8')
      // Pages show per-viewer data (plan windows, the account): never stored by shared caches.
      .header('Cache-Control', 'private, no-cache')
      .header('Vary', 'Cookie')
      .send(layout(ctx, page).value);

  // A live page asks for its partial on every change it hears of: an unchanged partial is a
  // 304 without a body (the browser revalidates its copy by ETag), a changed one goes out
  // compressed (docs/web.md, "Live updates").
  const sendPartial = (reply: FastifyReply, body: Html) => {
    const etag = `W/"${createHash('sha1').update(body.value).digest('base64url')}"`;
    reply.header('Content-Type', 'text/html; charset=utf-8').header('Cache-Control', 'private, no-cache').header('ETag', etag);
    const inm = reply.request.headers['if-none-match'];
    if (inm?.split(',').some((t) => t.trim() === etag)) return reply.code(304).send();
    return reply.send(body.value);
  };

  /** Pages of the account area: the session's user, or a redirect to the login page. */
  const signedIn = (request: FastifyRequest, reply: FastifyReply): string | null => {
    const v = request.viewer;
    if (v.authKind === 'session' && v.userId) return v.userId;
    reply.redirect(`/login?next=${encodeURIComponent(request.url)}`, 303);
    return null;
  };

  // Until the event stream route exists the live module polls the partials instead.
  const streamPath = `${API_PREFIX}/incidents/stream`;
  let streamAvailable: boolean | null = null;
  const hasStream = () => (streamAvailable ??= app.hasRoute({ method: 'GET', url: streamPath }));

  const REFUSED = new Set<ErrorCode>([
    'origin_not_allowed',
    'csrf_token_invalid',
    'session_required',
    'sso_required',
    'plan_required',
    'role_required',
    'limit_exceeded',
    'direct_api_not_allowed',
  ]);
  app.setErrorHandler((err: FastifyError, request, reply) => {
    const ctx = context(request, reply);
    if (err instanceof DomainError) {
      if (err.code === 'not_found') return send(reply, ctx, notFoundPage(err.message));
      if (err.code === 'invalid_parameter') return send(reply, ctx, errorPage(400, 'Bad request', err.message));
      // A credential that does not work (e.g. a stale API key header) on a page: say so plainly.
      if (err.code === 'unauthorized') return send(reply, ctx, errorPage(401, 'Not signed in', err.message));
      if (err.code === 'rate_limit_exceeded') return send(reply, ctx, errorPage(429, 'Too many requests', err.message));
      if (err.code === 'unavailable') return send(reply, ctx, errorPage(503, 'Temporarily unavailable', err.message));
      // A refused form (CSRF token, Origin, plan or permission) is the visitor's problem, not a fault.
      if (REFUSED.has(err.code)) return send(reply, ctx, errorPage(403, 'Not allowed', err.message));
      if (err.code === 'conflict') return send(reply, ctx, errorPage(409, 'Not possible right now', err.message));
    }
    if (err.validation) return send(reply, ctx, errorPage(400, 'Bad request', 'The address has an invalid parameter.'));
    request.log.error({ err }, 'page failed');
    return send(reply, ctx, errorPage(500, 'Something went wrong', 'The page could not be shown. Try again in a moment.'));
  });

  // Assets: only files present at start-up; versioned URLs are immutable.
  app.get<{ Params: { '*': string }; Querystring: { v?: string } }>('/assets/*', { schema: { hide: true } }, async (request, reply) => {
    const asset = assets.get(request.params['*']);
    if (!asset) return reply.code(404).type('text/plain; charset=utf-8').send('Not found');
    reply.header('Content-Type', asset.type).header('ETag', asset.etag);
    reply.header('Cache-Control', request.query.v === asset.hash ? 'public, max-age=31536000, immutable' : 'public, no-cache');
    if (request.headers['if-none-match'] === asset.etag) return reply.code(304).send();
    return reply.send(asset.body);
  });

  // ------------------------------------------------------------ public pages
  /** The signed-in viewer's watchlist (for marks and the filter), null for visitors. */
  const watchlistOf = async (request: FastifyRequest) => (request.viewer.orgId ? new Set((await services.watchlist.get(request.viewer)).vendors) : null);

  app.get('/', PAGE, async (request, reply) => {
    const ctx = context(request, reply);
    const filter = parseOverviewFilter(request.query as Record<string, unknown>);
    const [overview, watchlist, ours] = await Promise.all([
      services.overview.overview(audienceFor(request.viewer)),
      watchlistOf(request),
      services.impact.ours(request.viewer),
    ]);
    return send(reply, ctx, overviewPage(overview, ctx, filter, watchlist, hasStream(), ours));
  });

  app.get('/partials/overview', PAGE, async (request, reply) => {
    const ctx = context(request, reply);
    const filter = parseOverviewFilter(request.query as Record<string, unknown>);
    const [overview, watchlist, ours] = await Promise.all([
      services.overview.overview(audienceFor(request.viewer)),
      watchlistOf(request),
      services.impact.ours(request.viewer),
    ]);
    return sendPartial(reply, overviewMain(overview, ctx, filter, watchlist, ours));
  });

  const pageNumber = (q: unknown) => {
    const raw = (q as { page?: unknown }).page;
    return typeof raw === 'string' && /^[1-9][0-9]{0,3}$/.test(raw) ? Number(raw) : 1;
  };

  // The vendor list is the overview.
  app.get('/vendors', { schema: { hide: true } }, async (_request, reply) => reply.redirect('/', 301));

  app.get<{ Params: { vendor: string } }>('/vendors/:vendor', PAGE, async (request, reply) => {
    const ctx = context(request, reply);
    const slug = request.params.vendor;
    if (!SLUG.test(slug)) return send(reply, ctx, notFoundPage('There is no vendor with that name.'));
    const data = await vendorPageData(services, slug, request.viewer, pageNumber(request.query));
    return send(reply, ctx, vendorPage(data, ctx, hasStream()));
  });

  app.get<{ Params: { vendor: string } }>('/partials/vendors/:vendor', PAGE, async (request, reply) => {
    const ctx = context(request, reply);
    const slug = request.params.vendor;
    if (!SLUG.test(slug)) return reply.code(404).send('Not found');
    const data = await vendorPageData(services, slug, request.viewer, pageNumber(request.query));
    return sendPartial(reply, vendorMain(data, ctx));
  });

  // Public status boards (docs/boards.md).
  await app.register(boardPageRoutes, { assets });
  await teamPageRoutes(app, { context, send });
  await alertRoutePageRoutes(app, { context, send });
  await servicePageRoutes(app, { context, send });
  await probePageRoutes(app, { context, send });
  await scimPageRoutes(app, { context, send });
  await earlyWarningPageRoutes(app, { context, send });
  await ssoPageRoutes(app, { context, send });

  // ------------------------------------------------------- search, compare
  app.get('/search', PAGE, async (request, reply) => {
    const ctx = context(request, reply);
    const q = parseSearchQuery(request.query as Record<string, unknown>);
    if (q.vendor && !SLUG.test(q.vendor)) return send(reply, ctx, errorPage(400, 'Bad request', 'That is not a vendor name.'));
    const [result, vendors] = await Promise.all([services.search.search(q, request.viewer), services.catalog.list(audienceFor(request.viewer))]);
    const options = vendors.map((v) => ({ slug: v.id, name: v.name })).sort((a, b) => a.name.localeCompare(b.name));
    return send(reply, ctx, searchPage(q, result, ctx, services.search.impacts, options));
  });

  app.get('/compare', PAGE, async (request, reply) => {
    const ctx = context(request, reply);
    const named = parseCompareVendors(request.query as Record<string, unknown>);
    if (named?.some((s) => !SLUG.test(s))) return send(reply, ctx, errorPage(400, 'Bad request', 'The address names something that is not a vendor.'));
    const watched = named ? null : await watchlistOf(request);
    const slugs = named ?? [...(watched ?? [])];
    const source = named ? 'query' : slugs.length ? 'watchlist' : 'none';
    const signedIn = request.viewer.authKind === 'session';
    if (!slugs.length) {
      return send(reply, ctx, comparePage({ vendors: [], dataWindow: services.stats.windowFor(request.viewer), source, signedIn }));
    }
    const [{ items, dataWindow }, names] = await Promise.all([
      services.stats.favorites(slugs, undefined, request.viewer),
      services.catalog.list(audienceFor(request.viewer)),
    ]);
    const nameOf = new Map(names.map((v) => [v.id, v.name]));
    const vendors = items.map((s) => ({ slug: s.vendor, name: nameOf.get(s.vendor) ?? s.vendor, stats: s }));
    return send(reply, ctx, comparePage({ vendors, dataWindow, source, signedIn }));
  });

  // ---------------------------------------------------------- signup / login
  // E-mail confirmation links (docs/alerts.md "Proven addresses"): the token is the credential.
  const tokenOf = (v: unknown) => {
    const t = (v as { token?: unknown } | undefined)?.token;
    return typeof t === 'string' && t.length <= 200 ? t : '';
  };
  app.get('/confirm-email', PAGE, async (request, reply) => {
    const ctx = context(request, reply);
    // The site's `same-origin` policy keeps the token out of Referer headers to other sites;
    // `no-referrer` would make Chromium post the form with `Origin: null`, which is refused.
    return send(reply, ctx, confirmEmailPage(tokenOf(request.query), ctx.csrfToken));
  });
  app.post('/confirm-email', PAGE, async (request, reply) => {
    const ctx = context(request, reply);
    return send(reply, ctx, emailConfirmedPage(await services.preferences.confirmEmail(tokenOf(request.body))));
  });

  app.get('/signup', PAGE, async (request, reply) => {
    const next = localPath((request.query as { next?: unknown }).next, '/account?welcome=1');
    if (request.viewer.authKind === 'session') return reply.redirect(localPath(next), 303);
    return send(reply, context(request, reply), signupPage(next, MIN_PASSWORD_LENGTH));
  });

  app.get('/login', PAGE, async (request, reply) => {
    const next = localPath((request.query as { next?: unknown }).next);
    if (request.viewer.authKind === 'session') return reply.redirect(next, 303);
    const ctx = context(request, reply);
    return send(reply, ctx, loginPage(next, ctx.csrfToken));
  });

  // ------------------------------------------------------------ account area
  app.get('/account', PAGE, async (request, reply) => {
    const userId = signedIn(request, reply);
    if (!userId) return reply;
    const ctx = context(request, reply);
    const viewer = request.viewer;
    const [summary, keys, watchlist, vendors, prefs, boards, statusPages] = await Promise.all([
      services.accounts.summary(viewer as UserViewer),
      services.keys.list(viewer as UserViewer),
      services.watchlist.get(viewer),
      services.catalog.list(audienceFor(request.viewer)),
      services.preferences.get(viewer),
      services.boards.list(viewer),
      services.customPages.list(viewer),
    ]);
    const welcome = (request.query as { welcome?: unknown }).welcome === '1';
    const extraSections = [
      inboxSection(),
      watchlistSection(
        watchlist,
        vendors,
        typeof (request.query as { find?: unknown }).find === 'string' ? (request.query as { find: string }).find.slice(0, 100) : '',
      ),
      boardsSection(boards),
      statusPagesSection(statusPages),
      notificationsSection(prefs.preferences, summary.account.email, { slackInstall: app.services.slackInstall.available() }),
      feedSection(prefs.preferences, app.config.publicUrl ?? `${request.protocol}://${request.host}`),
      connectionsSection(),
    ];
    return send(reply, ctx, accountPage({ summary, keys, keyMinPlan: app.config.apiKeyMinPlan, apiBase: ACCOUNT_PREFIX, welcome, extraSections }, ctx));
  });

  app.get('/partials/account/boards', PAGE, async (request, reply) => {
    const v = request.viewer;
    if (v.authKind !== 'session' || !v.userId) return reply.code(401).send('');
    return sendPartial(reply, boardsList(await services.boards.list(v)));
  });

  app.get('/partials/account/status-pages', PAGE, async (request, reply) => {
    const v = request.viewer;
    if (v.authKind !== 'session' || !v.userId) return reply.code(401).send('');
    return sendPartial(reply, statusPagesList(await services.customPages.list(v)));
  });

  app.get('/partials/account/keys', PAGE, async (request, reply) => {
    const v = request.viewer;
    if (v.authKind !== 'session' || !v.userId) return reply.code(401).send('');
    return sendPartial(reply, keysTable(await services.keys.list(v as UserViewer), app.clock.now()));
  });
}
