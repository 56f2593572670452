import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '../domain/errors.ts';
import { roleAtLeast } from '../domain/org-roles.ts';
import { CRITICALITIES, type Criticality, DEPENDENCY_KINDS, type DependencyKind } from '../domain/team-services.ts';
import type { UserViewer } from '../services/context.ts';
import type { DependencyInput, ServiceView } from '../services/team-services/services-service.ts';
import { type ServiceFormValues, serviceFormValues } from './pages/service-form.ts';
import { commaList, formField, formPage, ID_ROUTE, PAGE_ROUTE, type PageHelpers } from './page-forms.ts';
import { type ServicesPageData, servicesPage } from './pages/services.ts';

// The services page (docs/services.md; docs/web.md "Team"): plain forms posting to these
// routes, which call the same use cases as the REST API. A refused form shows the page
// again with the reason and the refusal's status; a done one redirects (303).

const DONE: Record<string, string> = { added: 'Service added.', updated: 'Service saved.', deleted: 'Service deleted.' };

const STATUS: Partial<Record<string, number>> = {
  invalid_parameter: 400,
  not_found: 404,
  conflict: 409,
  limit_exceeded: 403,
  role_required: 403,
};

type Body = Record<string, unknown> | null | undefined;

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
    out.push({ vendor: vendor.toLowerCase(), kind: (kind || 'hard') as DependencyKind, components: commaList(components), regions: commaList(regions) });
  }
  return out;
}

/** The form's fields as posted (a refused form is shown again with them). */
function postedValues(body: Body): ServiceFormValues {
  return {
    name: formField(body, 'name', 200),
    ownerRouteId: formField(body, 'ownerRouteId', 64),
    criticality: formField(body, 'criticality', 20),
    tags: formField(body, 'tags', 1000),
    dependencies: formField(body, 'dependencies', 20000),
  };
}

/** The use cases' input from the form: every field, so an edit replaces the service's values. */
function serviceInput(body: Body) {
  const v = postedValues(body);
  return {
    name: v.name.trim(),
    ownerRouteId: v.ownerRouteId || null,
    criticality: (CRITICALITIES as readonly string[]).includes(v.criticality) ? (v.criticality as Criticality) : 'medium',
    tags: commaList(v.tags),
    dependencies: dependenciesOf(v.dependencies),
  };
}

const EDIT_ID = /^[A-Za-z0-9_-]{1,64}$/;
const PAGE_PATH = '/team/services';
const EDIT_PATH = '/team/services/:id';

export async function servicePageRoutes(app: FastifyInstance, h: PageHelpers) {
  const { teamServices, impact, orgs, alertRoutes } = app.services;

  /**
   * Which form the page shows filled: the edit form of `?edit=` (stored values) or of a
   * refused edit (posted values), the add form of a refused add (posted values).
   */
  function formsOf(request: FastifyRequest, services: ServiceView[], status: number): Pick<ServicesPageData, 'adding' | 'editing'> | null {
    const refused = request.method === 'POST' && status >= 400 ? request.routeOptions.url : null;
    if (refused === EDIT_PATH) {
      const id = (request.params as { id: string }).id;
      const stored = services.find((s) => s.id === id);
      return stored ? { editing: { id, storedName: stored.name, values: postedValues(request.body as Body) } } : {};
    }
    if (refused === PAGE_PATH) return { adding: postedValues(request.body as Body) };
    const edit = (request.query as { edit?: unknown }).edit;
    if (request.method !== 'GET' || typeof edit !== 'string') return {};
    const stored = EDIT_ID.test(edit) ? services.find((s) => s.id === edit) : undefined;
    // Another organisation's service, or none: not found, like the API.
    return stored ? { editing: { id: stored.id, storedName: stored.name, values: serviceFormValues(stored) } } : null;
  }

  async function show(request: FastifyRequest, reply: FastifyReply, v: UserViewer, notice?: ServicesPageData['notice'], status = 200) {
    const canEdit = roleAtLeast(v.role, 'editor');
    const [org, services, now, routes] = await Promise.all([
      orgs.get(v, v.orgId),
      teamServices.list(v, v.orgId),
      impact.now(v, v.orgId),
      canEdit ? alertRoutes.list(v, v.orgId) : [],
    ]);
    const forms = formsOf(request, services, status);
    if (forms === null) [notice, status] = [{ kind: 'error', text: 'No such service in this organisation.' }, 404];
    const ctx = h.context(request, reply);
    const page = servicesPage({
      orgName: org.name,
      services,
      impact: now.services,
      canEdit,
      csrf: ctx.csrfToken,
      notice,
      routes: routes.map((r) => ({ id: r.id, name: r.name })),
      ...forms,
    });
    return h.send(reply.code(status), ctx, { ...page, status });
  }

  const forms = formPage<NonNullable<ServicesPageData['notice']>>(app, { path: PAGE_PATH, done: DONE, refusals: STATUS, show });
  forms.page();
  forms.action(PAGE_PATH, PAGE_ROUTE, async (v, request) => {
    await teamServices.create(v, v.orgId, serviceInput(request.body as Body));
    return 'added';
  });
  forms.action(EDIT_PATH, ID_ROUTE, async (v, request) => {
    await teamServices.update(v, v.orgId, (request.params as { id: string }).id, serviceInput(request.body as Body));
    return 'updated';
  });
  forms.action('/team/services/:id/delete', ID_ROUTE, async (v, request) => {
    await teamServices.remove(v, v.orgId, (request.params as { id: string }).id);
    return 'deleted';
  });
}
