import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '../domain/errors.ts';
import { TRANSPARENCY_ORDERS, type TransparencyOrder } from '../domain/early-warning-transparency.ts';
import { roleAtLeast } from '../domain/org-roles.ts';
import { audienceFor } from '../services/access/audience.ts';
import type { UserViewer } from '../services/context.ts';
import type { Page, PageContext } from './layout.ts';
import { formField, signedInMember } from './page-forms.ts';
import { type EarlyWarningPageData, earlyWarningPage, rankingPage } from './pages/early-warning.ts';

// The team's early-warning pages (docs/early-warning.md; docs/web.md "Team"): plain forms
// over the same use cases as `/api/v1/orgs/{id}/signals`, `/reports` and `/signal-secret`.
// A refused form shows the page again with the reason and its status; a new signing
// secret is shown once, on the answer to the form that made it.

const STATUS: Partial<Record<string, number>> = {
  invalid_parameter: 400,
  not_found: 404,
  conflict: 409,
  rate_limit_exceeded: 429,
  role_required: 403,
};
const DONE: Record<string, string> = {
  reported: 'Report recorded.',
  opened: 'Report recorded: it opened a signal.',
  dismissed: 'Signal dismissed as a false alarm.',
};
/** Vendor ids as the catalog spells them; anything else is refused before a use case sees it. */
const SLUG = /^[a-z0-9][a-z0-9-]{0,99}$/;

export async function earlyWarningPageRoutes(
  app: FastifyInstance,
  h: { context: (r: FastifyRequest, reply: FastifyReply) => PageContext; send: (reply: FastifyReply, ctx: PageContext, page: Page) => FastifyReply },
) {
  const { earlyWarning, orgs, catalog } = app.services;
  const PAGE = { schema: { hide: true }, config: { auth: 'optional' as const } };
  const ID = { ...PAGE, schema: { hide: true, params: { type: 'object', properties: { id: { type: 'string', maxLength: 64 } }, required: ['id'] } } };

  const vendorsFor = async (v: UserViewer) =>
    (await catalog.list(audienceFor(v))).map((p) => ({ slug: p.id, name: p.name })).sort((a, b) => a.name.localeCompare(b.name));

  async function show(request: FastifyRequest, reply: FastifyReply, v: UserViewer, notice?: EarlyWarningPageData['notice'], status = 200) {
    const ctx = h.context(request, reply);
    const isAdmin = roleAtLeast(v.role, 'admin');
    const [org, signals, vendors, secret] = await Promise.all([
      orgs.get(v, v.orgId),
      earlyWarning.signals.list(v, v.orgId, { limit: 50 }),
      vendorsFor(v),
      isAdmin ? earlyWarning.inbound.secretStatus(v, v.orgId) : null,
    ]);
    const page = earlyWarningPage({
      orgName: org.name,
      signals,
      vendors,
      canEdit: roleAtLeast(v.role, 'editor'),
      secret,
      csrf: ctx.csrfToken,
      now: ctx.now,
      notice,
    });
    return h.send(reply.code(status), ctx, { ...page, status });
  }

  function action(
    path: string,
    opts: typeof PAGE | typeof ID,
    run: (v: UserViewer, request: FastifyRequest) => Promise<EarlyWarningPageData['notice'] | keyof typeof DONE>,
  ) {
    app.post(path, opts, async (request, reply) => {
      const v = signedInMember(request, reply);
      if (!v) return reply;
      try {
        const done = await run(v, request);
        if (typeof done === 'string') return reply.redirect(`/team/early-warning?done=${done}`, 303);
        return show(request, reply, v, done, 201);
      } catch (err) {
        if (!(err instanceof DomainError) || !STATUS[err.code]) throw err;
        const retry = (err.details as { retryAfter?: unknown } | undefined)?.retryAfter;
        if (err.code === 'rate_limit_exceeded' && typeof retry === 'number') reply.header('retry-after', String(retry));
        return show(request, reply, v, { kind: 'error', text: err.message }, STATUS[err.code]);
      }
    });
  }

  app.get('/team/early-warning', PAGE, async (request, reply) => {
    const v = signedInMember(request, reply);
    if (!v) return reply;
    const done = (request.query as { done?: unknown }).done;
    return show(request, reply, v, typeof done === 'string' && DONE[done] ? { kind: 'ok', text: DONE[done] } : undefined);
  });

  action('/team/early-warning/report', PAGE, async (v, request) => {
    const vendor = formField(request.body, 'vendor', 101).trim().toLowerCase();
    if (!SLUG.test(vendor)) throw new DomainError('invalid_parameter', 'Name a vendor by its id, e.g. github');
    const summary = formField(request.body, 'summary', 500).trim();
    const r = await earlyWarning.signals.report(v, v.orgId, { vendor, ...(summary ? { summary } : {}) });
    return r.signal ? 'opened' : 'reported';
  });

  action('/team/early-warning/signals/:id/dismiss', ID, async (v, request) => {
    const reason = formField(request.body, 'reason', 500).trim();
    await earlyWarning.signals.dismiss(v, v.orgId, (request.params as { id: string }).id, reason || undefined);
    return 'dismissed';
  });

  action('/team/early-warning/secret', PAGE, async (v) => {
    const made = await earlyWarning.inbound.rotateSecret(v, v.orgId);
    return { kind: 'ok', text: 'New signing secret made; any older one no longer signs.', secret: made.secret };
  });

  app.get('/team/early-warning/transparency', PAGE, async (request, reply) => {
    const v = signedInMember(request, reply);
    if (!v) return reply;
    const asked = (request.query as { order?: unknown }).order;
    const order: TransparencyOrder = (TRANSPARENCY_ORDERS as readonly unknown[]).includes(asked) ? (asked as TransparencyOrder) : 'lead';
    const [org, answer, vendors] = await Promise.all([orgs.get(v, v.orgId), earlyWarning.transparency.forOrg(v, v.orgId, { order }), vendorsFor(v)]);
    const ctx = h.context(request, reply);
    return h.send(reply, ctx, rankingPage({ orgName: org.name, order, vendors: answer.vendors, names: new Map(vendors.map((x) => [x.slug, x.name])) }));
  });
}
