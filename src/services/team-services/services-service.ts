import { randomUUID } from 'node:crypto';
import type { Clock } from '../../domain/clock.ts';
import { DomainError, notFound } from '../../domain/errors.ts';
import { regionByCode } from '../../domain/regions.ts';
import { checkService, type Criticality, type Dependency, type DependencyKind, MAX_SERVICES, type Problem, type Service } from '../../domain/team-services.ts';
import type { AlertRoutesRepository } from '../../store/repositories/alert-routes-repository.ts';
import type { ServicesRepository } from '../../store/repositories/services-repository.ts';
import type { StatusRepository } from '../../store/repositories/status-repository.ts';
import { audienceFor } from '../access/audience.ts';
import type { CatalogService } from '../vendors/catalog-service.ts';
import { ownerOrg, type Viewer } from '../context.ts';
import type { AuditService } from '../orgs/audit-service.ts';
import type { OrgsService } from '../orgs/orgs-service.ts';

// An organisation's own services and the vendors they depend on (docs/services.md): members
// read them, editors create, change and delete them. A dependency's vendor must be one the
// organisation can see, its components components that vendor reports (stored by id, shown
// with their current name), its regions regions of the vocabulary (stored as codes); the
// owner route an alert route of the same organisation. Every change is audited.

export interface DependencyInput {
  vendor: string;
  kind?: DependencyKind;
  /** Component ids, or a component's exact name (stored as its id). */
  components?: string[];
  regions?: string[];
}

export interface ServiceInput {
  name: string;
  ownerRouteId?: string | null;
  criticality?: Criticality;
  tags?: string[];
  dependencies?: DependencyInput[];
}

export type ServiceChangeInput = Partial<ServiceInput>;

export interface DependencyView {
  vendor: string;
  kind: DependencyKind;
  /** `name` null: the vendor no longer reports that component. */
  components: { id: string; name: string | null }[];
  regions: { code: string; cloud: string; name: string }[];
}

export interface ServiceView {
  id: string;
  name: string;
  ownerRouteId: string | null;
  criticality: Criticality;
  tags: string[];
  dependencies: DependencyView[];
  createdAt: string;
  updatedAt: string;
}

export type ComponentNames = Map<string, Map<string, string>>;

export function serviceView(s: Service, names: ComponentNames): ServiceView {
  return {
    id: s.id,
    name: s.name,
    ownerRouteId: s.ownerRouteId,
    criticality: s.criticality,
    tags: s.tags,
    dependencies: s.dependencies.map((d) => ({
      vendor: d.vendor,
      kind: d.kind,
      components: d.components.map((id) => ({ id, name: names.get(d.vendor)?.get(id) ?? null })),
      regions: d.regions.map((code) => {
        const r = regionByCode(code);
        return { code, cloud: r?.cloud ?? 'unknown', name: r?.name ?? code };
      }),
    })),
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
  };
}

const vendorsOf = (services: Service[]) => [...new Set(services.flatMap((s) => s.dependencies.map((d) => d.vendor)))];

const refuse = (problems: Problem[]) => {
  if (!problems.length) return;
  const first = problems[0]!;
  const message =
    problems.length === 1 ? `Invalid parameter '${first.field}': ${first.why}` : `Invalid service: ${problems.map((p) => `'${p.field}' ${p.why}`).join('; ')}`;
  throw new DomainError('invalid_parameter', message, { parameter: first.field, fields: problems.map((p) => p.field) });
};

export function servicesService(d: {
  services: ServicesRepository;
  routes: Pick<AlertRoutesRepository, 'get'>;
  status: Pick<StatusRepository, 'componentNames'>;
  catalog: Pick<CatalogService, 'requireAll'>;
  orgs: Pick<OrgsService, 'actingIn'>;
  audit: Pick<AuditService, 'record'>;
  clock: Clock;
  /** The organisation's services changed: its cached record answers must be keyed anew (docs/services.md "Records: affectedServices"). */
  onChange?: (orgId: string) => void;
}) {
  const missing = () => notFound('No such service');
  const taken = (name: string) => new DomainError('conflict', `The organisation already has a service named '${name}'`, { parameter: 'name' });

  /** Dependencies as given, checked and in their normal form (component names read as ids). */
  async function dependenciesOf(v: Viewer, given: DependencyInput[]): Promise<{ deps: Dependency[]; names: ComponentNames }> {
    const shaped = given.map((x) => ({ vendor: x.vendor, kind: x.kind ?? 'hard', components: x.components ?? [], regions: x.regions ?? [] }));
    const checked = checkService({ dependencies: shaped });
    refuse(checked.problems);
    const deps = checked.dependencies!;
    await d.catalog.requireAll(
      deps.map((x) => x.vendor),
      audienceFor(v),
    );
    const names = await d.status.componentNames(deps.filter((x) => x.components.length).map((x) => x.vendor));
    const problems: Problem[] = [];
    deps.forEach((dep, i) => {
      const known = names.get(dep.vendor) ?? new Map<string, string>();
      const ids: string[] = [];
      for (const c of dep.components) {
        let id: string | undefined = known.has(c) ? c : undefined;
        if (id === undefined) {
          const byName = [...known].filter(([, name]) => name.toLowerCase() === c.toLowerCase());
          if (byName.length === 1) id = byName[0]![0];
        }
        if (id === undefined) problems.push({ field: `dependencies[${i}].components`, why: `'${c.slice(0, 80)}' is not a component ${dep.vendor} reports` });
        else if (!ids.includes(id)) ids.push(id);
      }
      dep.components = ids;
    });
    refuse(problems);
    return { deps, names };
  }

  async function checkOwnerRoute(orgId: string, id: string | null | undefined) {
    if (id === undefined || id === null) return;
    if (!(await d.routes.get(orgId, id))) refuse([{ field: 'ownerRouteId', why: 'no such alert route in this organisation' }]);
  }

  async function viewOf(s: Service, names?: ComponentNames): Promise<ServiceView> {
    return serviceView(s, names ?? (await d.status.componentNames(vendorsOf([s]))));
  }

  const audited = (s: Service) => ({ name: s.name, ownerRouteId: s.ownerRouteId, criticality: s.criticality, tags: s.tags, dependencies: s.dependencies });

  async function editable(viewer: Viewer, orgId: string) {
    const v = await d.orgs.actingIn(viewer, orgId);
    return { v, owner: ownerOrg(v, 'editor') };
  }

  return {
    async list(viewer: Viewer, orgId: string): Promise<ServiceView[]> {
      const v = await d.orgs.actingIn(viewer, orgId);
      const services = await d.services.list(ownerOrg(v));
      const names = await d.status.componentNames(vendorsOf(services));
      return services.map((s) => serviceView(s, names));
    },

    async get(viewer: Viewer, orgId: string, id: string): Promise<ServiceView> {
      const v = await d.orgs.actingIn(viewer, orgId);
      const s = await d.services.get(ownerOrg(v), id);
      if (!s) throw missing();
      return viewOf(s);
    },

    async create(viewer: Viewer, orgId: string, input: ServiceInput): Promise<ServiceView> {
      const { v, owner } = await editable(viewer, orgId);
      const checked = checkService({ name: input.name, tags: input.tags ?? [] });
      refuse(checked.problems);
      const { deps, names } = await dependenciesOf(v, input.dependencies ?? []);
      await checkOwnerRoute(owner, input.ownerRouteId);
      const r = await d.services.create(
        {
          id: `svc_${randomUUID().replace(/-/g, '')}`,
          orgId: owner,
          name: input.name,
          ownerRouteId: input.ownerRouteId ?? null,
          criticality: input.criticality ?? 'medium',
          tags: checked.tags!,
          dependencies: deps,
          now: d.clock.now(),
        },
        MAX_SERVICES,
      );
      if (r.status === 'full') throw new DomainError('limit_exceeded', `An organisation holds at most ${MAX_SERVICES} services`, { limit: MAX_SERVICES });
      if (r.status === 'name_taken') throw taken(input.name);
      d.onChange?.(owner);
      await d.audit.record(owner, v, 'service.created', `service:${r.service.id}`, { after: audited(r.service) });
      return viewOf(r.service, names);
    },

    async update(viewer: Viewer, orgId: string, id: string, input: ServiceChangeInput): Promise<ServiceView> {
      const { v, owner } = await editable(viewer, orgId);
      const before = await d.services.get(owner, id);
      if (!before) throw missing();
      const checked = checkService({ name: input.name, tags: input.tags });
      refuse(checked.problems);
      const deps = input.dependencies === undefined ? undefined : (await dependenciesOf(v, input.dependencies)).deps;
      await checkOwnerRoute(owner, input.ownerRouteId);
      const r = await d.services.update(
        owner,
        id,
        { name: input.name, ownerRouteId: input.ownerRouteId, criticality: input.criticality, tags: checked.tags, dependencies: deps },
        d.clock.now(),
      );
      if (r.status === 'not_found') throw missing();
      if (r.status === 'name_taken') throw taken(input.name!);
      d.onChange?.(owner);
      await d.audit.record(owner, v, 'service.updated', `service:${id}`, { before: audited(before), after: audited(r.service) });
      return viewOf(r.service);
    },

    async remove(viewer: Viewer, orgId: string, id: string): Promise<void> {
      const { v, owner } = await editable(viewer, orgId);
      const before = await d.services.get(owner, id);
      if (!before || !(await d.services.delete(owner, id))) throw missing();
      d.onChange?.(owner);
      await d.audit.record(owner, v, 'service.deleted', `service:${id}`, { before: audited(before) });
    },
  };
}

export type ServicesService = ReturnType<typeof servicesService>;
