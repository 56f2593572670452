import type { Kysely } from 'kysely';
import { type AlertRoute, defaultRouteFilters, type RouteDestination, type RouteFilters } from '../../domain/alert-routes.ts';
import { DomainError } from '../../domain/errors.ts';
import type { SecretBox } from '../../domain/secret-box.ts';
import type { AlertRoutesTable, Database } from '../schema.ts';
import { chunks, ID_CHUNK } from './delivery-rows.ts';
import { fromJson, toJson } from './json.ts';
import { inTransaction } from './in-transaction.ts';
import { openOrUnavailable, resealColumn } from './sealed-values.ts';

// Alert routes (docs/alert-routes.md). The destination is sealed on write and opened on
// read here, like every channel secret (docs/security.md "Channel secrets"). Methods an
// API call reaches take the organisation id; the dispatcher and the delivery worker read
// across organisations (every enabled route, routes by id). Creating runs under the
// organisation's row lock, so concurrent creations never pass the cap.

export type CreateOutcome = { status: 'created'; route: AlertRoute } | { status: 'full' } | { status: 'name_taken' };
export type UpdateOutcome = { status: 'updated'; route: AlertRoute } | { status: 'not_found' } | { status: 'name_taken' };

export interface RouteChange {
  name?: string;
  enabled?: boolean;
  destination?: RouteDestination;
  filters?: RouteFilters;
}

/** Routes as the workers read them: those that open, and those sealed with a key this instance lacks. */
export interface OpenedRoutes {
  routes: AlertRoute[];
  /** The routes that could not be opened, with their organisation. */
  unreadable: { id: string; orgId: string }[];
}

export function alertRoutesRepository(db: Kysely<Database>, box: SecretBox) {
  // A destination no key of this instance opens: the API answers 503 with the reason, and the
  // workers hold the organisation's alerts (`openAll`).
  const destinationOf = (sealed: string): RouteDestination =>
    JSON.parse(openOrUnavailable(box, sealed, 'An alert route of this organisation is')) as RouteDestination;
  const toRoute = (r: AlertRoutesTable): AlertRoute => ({
    id: r.id,
    orgId: r.org_id,
    name: r.name,
    enabled: Boolean(r.enabled),
    destination: destinationOf(r.destination),
    filters: { ...defaultRouteFilters(), ...fromJson<Partial<RouteFilters>>(r.filters, {}) },
    disabledReason: r.disabled_reason,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  });
  /** The workers' read: a route that does not open is named, not thrown, so it never stops a round. */
  const openAll = (rows: AlertRoutesTable[]): OpenedRoutes => {
    const out: OpenedRoutes = { routes: [], unreadable: [] };
    for (const r of rows) {
      try {
        out.routes.push(toRoute(r));
      } catch (err) {
        if (!(err instanceof DomainError)) throw err;
        out.unreadable.push({ id: r.id, orgId: r.org_id });
      }
    }
    return out;
  };
  const nameTaken = async (q: Kysely<Database>, orgId: string, name: string, except: string | null) => {
    let query = q.selectFrom('alert_routes').select('id').where('org_id', '=', orgId).where('name', '=', name);
    if (except) query = query.where('id', '!=', except);
    return !!(await query.executeTakeFirst());
  };

  return {
    /** After a rotation: destinations sealed with the current key (docs/security.md "Channel secrets"). */
    resealDestinations: () => resealColumn(db, box, { table: 'alert_routes', key: 'id', column: 'destination' }),

    async list(orgId: string): Promise<AlertRoute[]> {
      const rows = await db.selectFrom('alert_routes').selectAll().where('org_id', '=', orgId).orderBy('name').orderBy('id').execute();
      return rows.map(toRoute);
    },

    async get(orgId: string, id: string): Promise<AlertRoute | null> {
      const r = await db.selectFrom('alert_routes').selectAll().where('org_id', '=', orgId).where('id', '=', id).executeTakeFirst();
      return r ? toRoute(r) : null;
    },

    /** Routes by id, whatever their organisation (the delivery worker, for the rows it claimed). */
    async getMany(ids: string[]): Promise<OpenedRoutes> {
      const rows: AlertRoutesTable[] = [];
      for (const part of chunks(ids, ID_CHUNK)) rows.push(...(await db.selectFrom('alert_routes').selectAll().where('id', 'in', part).execute()));
      return openAll(rows);
    },

    /** Every enabled route (the dispatcher reads them per batch of events). */
    async enabled(): Promise<OpenedRoutes> {
      return openAll(await db.selectFrom('alert_routes').selectAll().where('enabled', '=', 1).orderBy('org_id').orderBy('id').execute());
    },

    async create(
      r: { id: string; orgId: string; name: string; enabled: boolean; destination: RouteDestination; receiver: string; filters: RouteFilters; now: Date },
      cap: number,
    ): Promise<CreateOutcome> {
      const at = r.now.toISOString();
      return inTransaction(db, async (trx): Promise<CreateOutcome> => {
        await trx
          .updateTable('organisations')
          .set((eb) => ({ updated_at: eb.ref('updated_at') }))
          .where('id', '=', r.orgId)
          .execute();
        const { n } = await trx
          .selectFrom('alert_routes')
          .select((eb) => eb.fn.countAll<number | string>().as('n'))
          .where('org_id', '=', r.orgId)
          .executeTakeFirstOrThrow();
        if (Number(n) >= cap) return { status: 'full' };
        if (await nameTaken(trx, r.orgId, r.name, null)) return { status: 'name_taken' };
        const row: AlertRoutesTable = {
          id: r.id,
          org_id: r.orgId,
          name: r.name,
          channel: r.destination.channel,
          enabled: r.enabled ? 1 : 0,
          destination: box.seal(toJson(r.destination)),
          receiver: r.receiver,
          filters: toJson(r.filters),
          disabled_reason: null,
          created_at: at,
          updated_at: at,
        };
        await trx.insertInto('alert_routes').values(row).execute();
        return { status: 'created', route: toRoute(row) };
      });
    },

    async update(orgId: string, id: string, change: RouteChange & { receiver?: string }, now: Date): Promise<UpdateOutcome> {
      return inTransaction(db, async (trx): Promise<UpdateOutcome> => {
        const found = await trx.selectFrom('alert_routes').select('id').where('org_id', '=', orgId).where('id', '=', id).executeTakeFirst();
        if (!found) return { status: 'not_found' };
        if (change.name !== undefined && (await nameTaken(trx, orgId, change.name, id))) return { status: 'name_taken' };
        await trx
          .updateTable('alert_routes')
          .set({
            updated_at: now.toISOString(),
            ...(change.name !== undefined ? { name: change.name } : {}),
            // Switching a route on again clears why it was switched off.
            ...(change.enabled !== undefined ? { enabled: change.enabled ? 1 : 0, disabled_reason: null } : {}),
            ...(change.destination
              ? { destination: box.seal(toJson(change.destination)), channel: change.destination.channel, receiver: change.receiver ?? null }
              : {}),
            ...(change.filters ? { filters: toJson(change.filters) } : {}),
          })
          .where('id', '=', id)
          .execute();
        const r = await trx.selectFrom('alert_routes').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
        return { status: 'updated', route: toRoute(r) };
      });
    },

    async delete(orgId: string, id: string): Promise<boolean> {
      const r = await db.deleteFrom('alert_routes').where('org_id', '=', orgId).where('id', '=', id).executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    },

    /** A delivery found the destination gone (HTTP 404/410): the route stops until an editor switches it on. */
    async switchOff(id: string, reason: string, now: Date): Promise<void> {
      await db.updateTable('alert_routes').set({ enabled: 0, disabled_reason: reason, updated_at: now.toISOString() }).where('id', '=', id).execute();
    },
  };
}

export type AlertRoutesRepository = ReturnType<typeof alertRoutesRepository>;
