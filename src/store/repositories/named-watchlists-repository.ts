import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../schema.ts';
import { inTransaction } from './in-transaction.ts';

// Named watchlists (docs/teams.md, "Named watchlists"). Every method takes the
// organisation id, so one organisation never reads or changes another's lists. Creating
// runs under the organisation's row lock, so concurrent creations never pass the cap.

export interface NamedWatchlist {
  id: string;
  name: string;
  vendors: string[];
  createdAt: string;
  updatedAt: string;
}

export type CreateOutcome = { status: 'created'; list: NamedWatchlist } | { status: 'full' } | { status: 'name_taken' };
export type UpdateOutcome = { status: 'updated'; list: NamedWatchlist } | { status: 'not_found' } | { status: 'name_taken' };

type Db = Kysely<Database> | Transaction<Database>;

async function vendorsOf(q: Db, ids: string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>(ids.map((id) => [id, []]));
  if (!ids.length) return out;
  const rows = await q.selectFrom('org_watchlist_vendors').select(['watchlist_id', 'vendor']).where('watchlist_id', 'in', ids).orderBy('position').execute();
  for (const r of rows) out.get(r.watchlist_id)?.push(r.vendor);
  return out;
}

async function writeVendors(trx: Transaction<Database>, id: string, vendors: string[]) {
  await trx.deleteFrom('org_watchlist_vendors').where('watchlist_id', '=', id).execute();
  if (vendors.length)
    await trx
      .insertInto('org_watchlist_vendors')
      .values(vendors.map((vendor, position) => ({ watchlist_id: id, vendor, position })))
      .execute();
}

async function nameTaken(q: Db, orgId: string, name: string, except: string | null) {
  let query = q.selectFrom('org_watchlists').select('id').where('org_id', '=', orgId).where('name', '=', name);
  if (except) query = query.where('id', '!=', except);
  return !!(await query.executeTakeFirst());
}

export function namedWatchlistsRepository(db: Kysely<Database>) {
  async function get(q: Db, orgId: string, id: string): Promise<NamedWatchlist | null> {
    const r = await q.selectFrom('org_watchlists').selectAll().where('org_id', '=', orgId).where('id', '=', id).executeTakeFirst();
    if (!r) return null;
    return { id: r.id, name: r.name, vendors: (await vendorsOf(q, [r.id])).get(r.id)!, createdAt: r.created_at, updatedAt: r.updated_at };
  }

  return {
    async list(orgId: string): Promise<NamedWatchlist[]> {
      const rows = await db.selectFrom('org_watchlists').selectAll().where('org_id', '=', orgId).orderBy('name').orderBy('id').execute();
      const vendors = await vendorsOf(
        db,
        rows.map((r) => r.id),
      );
      return rows.map((r) => ({ id: r.id, name: r.name, vendors: vendors.get(r.id)!, createdAt: r.created_at, updatedAt: r.updated_at }));
    },

    get: (orgId: string, id: string) => get(db, orgId, id),

    /** Vendors of lists by id, whatever their organisation (alert routes scoped by a list). */
    vendorsOfLists: (ids: string[]) => vendorsOf(db, ids),

    async create(l: { id: string; orgId: string; name: string; vendors: string[]; now: Date }, cap: number): Promise<CreateOutcome> {
      const at = l.now.toISOString();
      return inTransaction(db, async (trx): Promise<CreateOutcome> => {
        await trx
          .updateTable('organisations')
          .set((eb) => ({ updated_at: eb.ref('updated_at') }))
          .where('id', '=', l.orgId)
          .execute();
        const { n } = await trx
          .selectFrom('org_watchlists')
          .select((eb) => eb.fn.countAll<number | string>().as('n'))
          .where('org_id', '=', l.orgId)
          .executeTakeFirstOrThrow();
        if (Number(n) >= cap) return { status: 'full' };
        if (await nameTaken(trx, l.orgId, l.name, null)) return { status: 'name_taken' };
        await trx.insertInto('org_watchlists').values({ id: l.id, org_id: l.orgId, name: l.name, created_at: at, updated_at: at }).execute();
        await writeVendors(trx, l.id, l.vendors);
        return { status: 'created', list: { id: l.id, name: l.name, vendors: l.vendors, createdAt: at, updatedAt: at } };
      });
    },

    async update(orgId: string, id: string, change: { name?: string; vendors?: string[] }, now: Date): Promise<UpdateOutcome> {
      return inTransaction(db, async (trx): Promise<UpdateOutcome> => {
        const r = await trx
          .updateTable('org_watchlists')
          .set({ updated_at: now.toISOString() })
          .where('org_id', '=', orgId)
          .where('id', '=', id)
          .executeTakeFirst();
        if (Number(r.numUpdatedRows) === 0) return { status: 'not_found' };
        if (change.name !== undefined) {
          if (await nameTaken(trx, orgId, change.name, id)) return { status: 'name_taken' };
          await trx.updateTable('org_watchlists').set({ name: change.name }).where('id', '=', id).execute();
        }
        if (change.vendors) await writeVendors(trx, id, change.vendors);
        return { status: 'updated', list: (await get(trx, orgId, id))! };
      });
    },

    async delete(orgId: string, id: string): Promise<boolean> {
      const r = await db.deleteFrom('org_watchlists').where('org_id', '=', orgId).where('id', '=', id).executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    },
  };
}

export type NamedWatchlistsRepository = ReturnType<typeof namedWatchlistsRepository>;
