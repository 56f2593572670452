import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '../domain/errors.ts';
import { roleAtLeast } from '../domain/org-roles.ts';
import { CRITICALITIES, type Criticality, DEPENDENCY_KINDS, type DependencyKind } from '../domain/team-services.ts';
import type { UserViewer } from '../services/context.ts';
import type { DependencyInput } from '../services/team-services/services-service.ts';
import type { Page, PageContext } from './layout.ts';
import { formField, signedInMember } from './page-forms.ts';
import { type ServicesPageData, servicesPage } from './pages/services.ts';

// The services page (docs/services.md; docs/web.md "Team"): plain forms posting to these
// routes, which call the same use cases as the REST API. A refused form shows the page
// again with the reason and the refusal's status; a done one redirects (303).

const DONE: Record<string, string> = { added: 'Service added.', deleted: 'Service deleted.' };

const STATUS: Partial<Record<string, number>> = {
  invalid_parameter: 400,
  not_found: 404,
  conflict: 409,
  limit_exceeded: 403,
  role_required: 403,
};

type Body = Record<string, unknown> | null | undefined;
const list = (value: string) =>
  value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/** The dependencies textarea: one `vendor | kind | components | regions` per line. */
export function dependenciesOf(text: string): DependencyInput[] {
  const out: DependencyInput[] = [];
  for (const [i, raw] of text.split(/\r?\n/).entries()) {
    const line = raw.trim();
    if (!line) continue;
    const [vendor = '', kind = '', components = '', regions = ''] = line.split('|').map((s) => s.trim());
    if (!vendor) throw new DomainError('invalid_parameter', `Dependencies, line ${i + 1}: name a vendor first`, { parameter: 'dependencies' });
    if (kind && !(DEPENDENCY_KINDS as readonly string[]).includes(kind)) {
      throw new DomainError('invalid_parameter', `Dependencies, line ${i + 1}: the kind is hard or soft`, { parameter: 'dependencies' });
    }
    out.push({ vendor: vendor.toLowerCase(), kind: (kind || 'hard') as DependencyKind, components: list(components), regions: list(regions) });
  }
  return out;
}

export async function servicePageRoutes(
  app: FastifyInstance,
  h: { context: (r: FastifyRequest, reply: FastifyReply) => PageContext; send: (reply: FastifyReply, ctx: PageContext, page: Page) => FastifyReply },
) {
  const { teamServices, impact, orgs } = app.services;
  const PAGE = { schema: { hide: true }, config: { auth: 'optional' as const } };
  const ID = { ...PAGE, schema: { hide: true, params: { type: 'object', properties: { id: { type: 'string', maxLength: 64 } }, required: ['id'] } } };

  async function show(request: FastifyRequest, reply: FastifyReply, v: UserViewer, notice?: ServicesPageData['notice'], status = 200) {
    const [org, services, now] = await Promise.all([orgs.get(v, v.orgId), teamServices.list(v, v.orgId), impact.now(v, v.orgId)]);
    const ctx = h.context(request, reply);
    const page = servicesPage({ orgName: org.name, services, impact: now.services, canEdit: roleAtLeast(v.role, 'editor'), csrf: ctx.csrfToken, notice });
    return h.send(reply.code(status), ctx, { ...page, status });
  }

  function action(path: string, opts: typeof PAGE | typeof ID, run: (v: UserViewer, request: FastifyRequest) => Promise<string>) {
    app.post(path, opts, async (request, reply) => {
      const v = signedInMember(request, reply);
      if (!v) return reply;
      try {
        const done = await run(v, request);
        return reply.redirect(`/team/services?done=${done}`, 303);
      } catch (err) {
        if (!(err instanceof DomainError) || !STATUS[err.code]) throw err;
        return show(request, reply, v, { kind: 'error', text: err.message }, STATUS[err.code]);
      }
    });
  }

  app.get('/team/services', PAGE, async (request, reply) => {
    const v = signedInMember(request, reply);
    if (!v) return reply;
    const done = (request.query as { done?: unknown }).done;
    return show(request, reply, v, typeof done === 'string' && DONE[done] ? { kind: 'ok', text: DONE[done] } : undefined);
  });

  action('/team/services', PAGE, async (v, request) => {
    const body = request.body as Body;
    const criticality = formField(body, 'criticality', 20);
    await teamServices.create(v, v.orgId, {
      name: formField(body, 'name', 200).trim(),
      criticality: (CRITICALITIES as readonly string[]).includes(criticality) ? (criticality as Criticality) : 'medium',
      tags: list(formField(body, 'tags', 1000)),
      dependencies: dependenciesOf(formField(body, 'dependencies', 20000)),
    });
    return 'added';
  });
  action('/team/services/:id/delete', ID, async (v, request) => {
    await teamServices.remove(v, v.orgId, (request.params as { id: string }).id);
    return 'deleted';
  });
}
