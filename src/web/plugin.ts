import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '../domain/errors.ts';
import { SLUG_PATTERN } from '../http/schemas/common.ts';
import { Assets } from './assets.ts';
import { ensureCsrfToken } from './csrf.ts';
import { vendorPageData } from './data.ts';
import type { Html } from './html.ts';
import { API_BASE, layout, type Page, type PageContext } from './layout.ts';
import { errorPage, notFoundPage } from './pages/errors.ts';
import { overviewMain, overviewPage, parseOverviewFilter } from './pages/overview.ts';
import { vendorMain, vendorPage } from './pages/vendor.ts';
import { setSecurityHeaders } from './security.ts';

// The web application: server-rendered pages at /, static assets at /assets/,
// and HTML partials at /partials/ that the live module swaps in when the event
// stream reports a change. Registered without fastify-plugin, so its hooks and
// error handler apply to these routes only (the API keeps its JSON errors).

const SLUG = new RegExp(SLUG_PATTERN);
const hide = { schema: { hide: true } };

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
    now: services.clock.now(),
    viewer: request.viewer,
    account: null,
    csrfToken: ensureCsrfToken(request, reply),
    assets,
    path: request.url.split('?')[0]!,
  });

  const send = (reply: FastifyReply, ctx: PageContext, page: Page) =>
    reply
      .code(page.status ?? 200)
      .header('Content-Type', 'text/html; charset=utf-8')
      // Pages show per-viewer data (plan windows, the account): never stored by shared caches.
      .header('Cache-Control', 'private, no-cache')
      .header('Vary', 'Cookie')
      .send(layout(ctx, page).value);

  // Until the event stream route exists the live module polls the partials instead.
  const streamPath = `${API_BASE}/incidents/stream`;
  let streamAvailable: boolean | null = null;
  const hasStream = () => (streamAvailable ??= app.hasRoute({ method: 'GET', url: streamPath }));

  const sendPartial = (reply: FastifyReply, body: Html) =>
    reply.header('Content-Type', 'text/html; charset=utf-8').header('Cache-Control', 'no-store').send(body.value);

  app.setErrorHandler((err: FastifyError, request, reply) => {
    const ctx = context(request, reply);
    if (err instanceof DomainError && err.code === 'not_found') return send(reply, ctx, notFoundPage(err.message));
    if (err instanceof DomainError && err.code === 'invalid_parameter') return send(reply, ctx, errorPage(400, 'Bad request', err.message));
    if (err.validation) return send(reply, ctx, errorPage(400, 'Bad request', 'The address has an invalid parameter.'));
    request.log.error({ err }, 'page failed');
    return send(reply, ctx, errorPage(500, 'Something went wrong', 'The page could not be shown. Try again in a moment.'));
  });

  // Assets: only files present at start-up; versioned URLs are immutable.
  app.get<{ Params: { '*': string }; Querystring: { v?: string } }>('/assets/*', hide, async (request, reply) => {
    const asset = assets.get(request.params['*']);
    if (!asset) return reply.code(404).type('text/plain; charset=utf-8').send('Not found');
    reply.header('Content-Type', asset.type).header('ETag', asset.etag);
    reply.header('Cache-Control', request.query.v === asset.hash ? 'public, max-age=31536000, immutable' : 'public, no-cache');
    if (request.headers['if-none-match'] === asset.etag) return reply.code(304).send();
    return reply.send(asset.body);
  });

  app.get('/', hide, async (request, reply) => {
    const ctx = context(request, reply);
    const filter = parseOverviewFilter(request.query as Record<string, unknown>);
    return send(reply, ctx, overviewPage(await services.overview.overview(), ctx, filter, hasStream()));
  });

  app.get('/partials/overview', hide, async (request, reply) => {
    const ctx = context(request, reply);
    const filter = parseOverviewFilter(request.query as Record<string, unknown>);
    return sendPartial(reply, overviewMain(await services.overview.overview(), ctx, filter));
  });

  const pageNumber = (q: unknown) => {
    const raw = (q as { page?: unknown }).page;
    const n = typeof raw === 'string' && /^[1-9][0-9]{0,3}$/.test(raw) ? Number(raw) : 1;
    return n;
  };

  app.get<{ Params: { vendor: string } }>('/vendors/:vendor', hide, async (request, reply) => {
    const ctx = context(request, reply);
    const slug = request.params.vendor;
    if (!SLUG.test(slug)) return send(reply, ctx, notFoundPage('There is no vendor with that name.'));
    const data = await vendorPageData(services, slug, request.viewer, pageNumber(request.query));
    return send(reply, ctx, vendorPage(data, ctx, hasStream()));
  });

  app.get<{ Params: { vendor: string } }>('/partials/vendors/:vendor', hide, async (request, reply) => {
    const ctx = context(request, reply);
    const slug = request.params.vendor;
    if (!SLUG.test(slug)) return reply.code(404).send('Not found');
    const data = await vendorPageData(services, slug, request.viewer, pageNumber(request.query));
    return sendPartial(reply, vendorMain(data, ctx));
  });
}
