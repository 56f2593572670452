import type { Kysely, Transaction } from 'kysely';
import type { Criticality, Dependency, DependencyKind, Service } from '../../domain/team-services.ts';
import type { Database, ServiceDependenciesTable, ServicesTable } from '../schema.ts';
import { chunks, ID_CHUNK } from './delivery-rows.ts';
import { fromJson, toJson } from './json.ts';
import { inTransaction } from './in-transaction.ts';

// An organisation's services and their dependencies (docs/services.md "Model"). Every
// method takes the organisation id, so no call reaches another organisation's rows.
// Creating runs under the organisation's row lock, so concurrent creations never pass the
// cap; dependencies are replaced as a whole with the service in one transaction.

export type CreateOutcome = { status: 'created'; service: Service } | { status: 'full' } | { status: 'name_taken' };
export type UpdateOutcome = { status: 'updated'; service: Service } | { status: 'not_found' } | { status: 'name_taken' };

export interface ServiceChange {
  name?: string;
  ownerRouteId?: string | null;
  criticality?: Criticality;
  tags?: string[];
  dependencies?: Dependency[];
}

const toDependency = (r: ServiceDependenciesTable): Dependency => ({
  vendor: r.vendor,
  kind: r.kind as DependencyKind,
  components: fromJson<string[]>(r.components, []),
  regions: fromJson<string[]>(r.regions, []),
});

const toService = (r: ServicesTable, deps: ServiceDependenciesTable[]): Service => ({
  id: r.id,
  orgId: r.org_id,
  name: r.name,
  ownerRouteId: r.owner_route_id,
  criticality: r.criticality as Criticality,
  tags: fromJson<string[]>(r.tags, []),
  dependencies: deps.sort((a, b) => a.position - b.position).map(toDependency),
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export function servicesRepository(db: Kysely<Database>) {
  const nameTaken = async (q: Kysely<Database>, orgId: string, name: string, except: string | null) => {
    let query = q.selectFrom('services').select('id').where('org_id', '=', orgId).where('name', '=', name);
    if (except) query = query.where('id', '!=', except);
    return !!(await query.executeTakeFirst());
  };
  const writeDependencies = async (trx: Transaction<Database>, orgId: string, serviceId: string, deps: Dependency[]) => {
    await trx.deleteFrom('service_dependencies').where('service_id', '=', serviceId).execute();
    if (!deps.length) return;
    await trx
      .insertInto('service_dependencies')
      .values(
        deps.map((d, position) => ({
          service_id: serviceId,
          position,
          org_id: orgId,
          vendor: d.vendor,
          kind: d.kind,
          components: toJson(d.components),
          regions: toJson(d.regions),
        })),
      )
      .execute();
  };
  const read = async (q: Kysely<Database>, orgId: string, id: string): Promise<Service | null> => {
    const r = await q.selectFrom('services').selectAll().where('org_id', '=', orgId).where('id', '=', id).executeTakeFirst();
    if (!r) return null;
    const deps = await q.selectFrom('service_dependencies').selectAll().where('service_id', '=', id).execute();
    return toService(r, deps);
  };

  return {
    /** Every service of the organisation with its dependencies: two queries, whatever the count. */
    async list(orgId: string): Promise<Service[]> {
      const rows = await db.selectFrom('services').selectAll().where('org_id', '=', orgId).orderBy('name').execute();
      const deps = await db.selectFrom('service_dependencies').selectAll().where('org_id', '=', orgId).execute();
      const byService = new Map<string, ServiceDependenciesTable[]>();
      for (const d of deps) {
        const list = byService.get(d.service_id) ?? [];
        list.push(d);
        byService.set(d.service_id, list);
      }
      return rows.map((r) => toService(r, byService.get(r.id) ?? []));
    },

    /**
     * The services of the organisation that depend on one of `vendors`, each with those
     * dependencies only (what the impact of these vendors' records needs): the indexed
     * (org_id, vendor) rows, then their services, whatever the organisation's size.
     */
    async dependingOn(orgId: string, vendors: string[]): Promise<Pick<Service, 'id' | 'name' | 'criticality' | 'dependencies'>[]> {
      if (!vendors.length) return [];
      const deps: ServiceDependenciesTable[] = [];
      for (const part of chunks(vendors, ID_CHUNK)) {
        deps.push(...(await db.selectFrom('service_dependencies').selectAll().where('org_id', '=', orgId).where('vendor', 'in', part).execute()));
      }
      if (!deps.length) return [];
      const byService = new Map<string, ServiceDependenciesTable[]>();
      for (const d of deps) {
        const list = byService.get(d.service_id) ?? [];
        list.push(d);
        byService.set(d.service_id, list);
      }
      const out: Pick<Service, 'id' | 'name' | 'criticality' | 'dependencies'>[] = [];
      for (const part of chunks([...byService.keys()], ID_CHUNK)) {
        const rows = await db.selectFrom('services').select(['id', 'name', 'criticality']).where('org_id', '=', orgId).where('id', 'in', part).execute();
        for (const r of rows) {
          out.push({
            id: r.id,
            name: r.name,
            criticality: r.criticality as Criticality,
            dependencies: byService
              .get(r.id)!
              .sort((a, b) => a.position - b.position)
              .map(toDependency),
          });
        }
      }
      return out;
    },

    /**
     * For the alert dispatcher: per organisation of `orgIds`, its services depending on one
     * of `vendors` (with those dependencies only), and which of `orgIds` have any service.
     * Each organisation's rows stay under its own key (docs/alert-routes.md "Affected services in alerts").
     */
    async forAlerts(
      orgIds: string[],
      vendors: string[],
    ): Promise<{ withServices: Set<string>; byOrg: Map<string, Pick<Service, 'id' | 'name' | 'criticality' | 'ownerRouteId' | 'dependencies'>[]> }> {
      const withServices = new Set<string>();
      const byOrg = new Map<string, Pick<Service, 'id' | 'name' | 'criticality' | 'ownerRouteId' | 'dependencies'>[]>();
      if (!orgIds.length) return { withServices, byOrg };
      for (const part of chunks(orgIds, ID_CHUNK)) {
        const rows = await db.selectFrom('services').select('org_id').distinct().where('org_id', 'in', part).execute();
        for (const r of rows) withServices.add(r.org_id);
      }
      const orgs = [...withServices];
      if (!orgs.length || !vendors.length) return { withServices, byOrg };
      const deps: ServiceDependenciesTable[] = [];
      for (const o of chunks(orgs, ID_CHUNK)) {
        for (const v of chunks(vendors, ID_CHUNK)) {
          deps.push(...(await db.selectFrom('service_dependencies').selectAll().where('org_id', 'in', o).where('vendor', 'in', v).execute()));
        }
      }
      const byService = new Map<string, ServiceDependenciesTable[]>();
      for (const d of deps) {
        const list = byService.get(d.service_id) ?? [];
        list.push(d);
        byService.set(d.service_id, list);
      }
      for (const part of chunks([...byService.keys()], ID_CHUNK)) {
        const rows = await db.selectFrom('services').select(['id', 'org_id', 'name', 'criticality', 'owner_route_id']).where('id', 'in', part).execute();
        for (const r of rows) {
          const dependencies = byService
            .get(r.id)!
            .filter((d) => d.org_id === r.org_id)
            .sort((a, b) => a.position - b.position)
            .map(toDependency);
          const list = byOrg.get(r.org_id) ?? [];
          list.push({ id: r.id, name: r.name, criticality: r.criticality as Criticality, ownerRouteId: r.owner_route_id, dependencies });
          byOrg.set(r.org_id, list);
        }
      }
      return { withServices, byOrg };
    },

    /**
     * Critical services with an owner route, across organisations, with their dependencies on
     * `vendors` (the reminders of docs/alert-routes.md "Reminders for critical services").
     * Each service keeps its own organisation; its owner route is checked to be of it.
     */
    async criticalOwned(vendors: string[]): Promise<Pick<Service, 'id' | 'orgId' | 'name' | 'criticality' | 'ownerRouteId' | 'dependencies'>[]> {
      if (!vendors.length) return [];
      const rows = await db
        .selectFrom('services')
        .select(['id', 'org_id', 'name', 'criticality', 'owner_route_id'])
        .where('criticality', '=', 'critical')
        .where('owner_route_id', 'is not', null)
        .limit(10_000)
        .execute();
      const out: Pick<Service, 'id' | 'orgId' | 'name' | 'criticality' | 'ownerRouteId' | 'dependencies'>[] = [];
      for (const part of chunks(rows, ID_CHUNK)) {
        const deps = await db
          .selectFrom('service_dependencies')
          .selectAll()
          .where(
            'service_id',
            'in',
            part.map((r) => r.id),
          )
          .where('vendor', 'in', vendors)
          .execute();
        for (const r of part) {
          const mine = deps.filter((d) => d.service_id === r.id && d.org_id === r.org_id).sort((a, b) => a.position - b.position);
          if (!mine.length) continue;
          out.push({
            id: r.id,
            orgId: r.org_id,
            name: r.name,
            criticality: r.criticality as Criticality,
            ownerRouteId: r.owner_route_id,
            dependencies: mine.map(toDependency),
          });
        }
      }
      return out;
    },

    async count(orgId: string): Promise<number> {
      const { n } = await db
        .selectFrom('services')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('org_id', '=', orgId)
        .executeTakeFirstOrThrow();
      return Number(n);
    },

    get: (orgId: string, id: string) => read(db, orgId, id),

    async create(s: Omit<Service, 'createdAt' | 'updatedAt'> & { now: Date }, cap: number): Promise<CreateOutcome> {
      const at = s.now.toISOString();
      return inTransaction(db, async (trx): Promise<CreateOutcome> => {
        await trx
          .updateTable('organisations')
          .set((eb) => ({ updated_at: eb.ref('updated_at') }))
          .where('id', '=', s.orgId)
          .execute();
        const { n } = await trx
          .selectFrom('services')
          .select((eb) => eb.fn.countAll<number | string>().as('n'))
          .where('org_id', '=', s.orgId)
          .executeTakeFirstOrThrow();
        if (Number(n) >= cap) return { status: 'full' };
        if (await nameTaken(trx, s.orgId, s.name, null)) return { status: 'name_taken' };
        await trx
          .insertInto('services')
          .values({
            id: s.id,
            org_id: s.orgId,
            name: s.name,
            owner_route_id: s.ownerRouteId,
            criticality: s.criticality,
            tags: toJson(s.tags),
            created_at: at,
            updated_at: at,
          })
          .execute();
        await writeDependencies(trx, s.orgId, s.id, s.dependencies);
        return { status: 'created', service: (await read(trx, s.orgId, s.id))! };
      });
    },

    async update(orgId: string, id: string, change: ServiceChange, now: Date): Promise<UpdateOutcome> {
      return inTransaction(db, async (trx): Promise<UpdateOutcome> => {
        const found = await trx.selectFrom('services').select('id').where('org_id', '=', orgId).where('id', '=', id).executeTakeFirst();
        if (!found) return { status: 'not_found' };
        if (change.name !== undefined && (await nameTaken(trx, orgId, change.name, id))) return { status: 'name_taken' };
        await trx
          .updateTable('services')
          .set({
            updated_at: now.toISOString(),
            ...(change.name !== undefined ? { name: change.name } : {}),
            ...(change.ownerRouteId !== undefined ? { owner_route_id: change.ownerRouteId } : {}),
            ...(change.criticality !== undefined ? { criticality: change.criticality } : {}),
            ...(change.tags !== undefined ? { tags: toJson(change.tags) } : {}),
          })
          .where('org_id', '=', orgId)
          .where('id', '=', id)
          .execute();
        if (change.dependencies) await writeDependencies(trx, orgId, id, change.dependencies);
        return { status: 'updated', service: (await read(trx, orgId, id))! };
      });
    },

    async delete(orgId: string, id: string): Promise<boolean> {
      const r = await db.deleteFrom('services').where('org_id', '=', orgId).where('id', '=', id).executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    },

    /**
     * A version of the organisation's services, or null when it has none: their count and
     * latest change. Cached answers that carry `affectedServices` are keyed by it.
     */
    async version(orgId: string): Promise<string | null> {
      const r = await db
        .selectFrom('services')
        .select((eb) => [eb.fn.countAll<number | string>().as('n'), eb.fn.max('updated_at').as('at')])
        .where('org_id', '=', orgId)
        .executeTakeFirst();
      const n = Number(r?.n ?? 0);
      return n ? `${n}@${r!.at}` : null;
    },

    /** Whether the organisation has any service (the record answers add `affectedServices` only then). */
    async any(orgId: string): Promise<boolean> {
      return !!(await db.selectFrom('services').select('id').where('org_id', '=', orgId).limit(1).executeTakeFirst());
    },
  };
}

export type ServicesRepository = ReturnType<typeof servicesRepository>;
