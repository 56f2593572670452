import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../schema.ts';

// An organisation's vendor watchlist. Every change runs in one transaction that starts by
// writing the organisation's `watchlists` row: on PostgreSQL that write holds the row lock
// until commit, on SQLite it takes the database write lock. Concurrent changes of
// one organisation therefore run one after the other, and the cap check reads a count that
// no other change can move before the insert commits.

export type AddOutcome = { status: 'added'; vendors: string[] } | { status: 'present'; vendors: string[] } | { status: 'full'; vendors: string[] };

export type ReplaceOutcome = { status: 'replaced'; vendors: string[] } | { status: 'full'; vendors: string[] };

async function lockOwner(trx: Transaction<Database>, orgId: string, at: string): Promise<void> {
  await trx
    .insertInto('watchlists')
    .values({ org_id: orgId, version: 0, updated_at: at })
    .onConflict((oc) => oc.column('org_id').doUpdateSet((eb) => ({ version: eb('watchlists.version', '+', 1), updated_at: at })))
    .execute();
}

async function vendorsOf(q: Kysely<Database> | Transaction<Database>, orgId: string): Promise<string[]> {
  const rows = await q.selectFrom('watchlist_vendors').select('vendor').where('org_id', '=', orgId).orderBy('position').orderBy('vendor').execute();
  return rows.map((r) => r.vendor);
}

export function watchlistRepository(db: Kysely<Database>) {
  return {
    /** The organisation's vendors in the order they were added (or listed in the last replace). */
    list(orgId: string): Promise<string[]> {
      return vendorsOf(db, orgId);
    },

    /**
     * Adds a vendor unless present. With `limit` (null = no cap) the add is refused
     * when the organisation already holds that many vendors; nothing is written then.
     */
    async add(orgId: string, vendor: string, limit: number | null, now: Date): Promise<AddOutcome> {
      const at = now.toISOString();
      return db
        .transaction()
        .execute(async (trx): Promise<AddOutcome> => {
          await lockOwner(trx, orgId, at);
          const current = await vendorsOf(trx, orgId);
          if (current.includes(vendor)) return { status: 'present', vendors: current };
          if (limit !== null && current.length >= limit) {
            // Roll back the lock write too: a refused add changes nothing.
            throw new Refused(current);
          }
          const top = await trx
            .selectFrom('watchlist_vendors')
            .select((eb) => eb.fn.max('position').as('p'))
            .where('org_id', '=', orgId)
            .executeTakeFirst();
          const position = top?.p == null ? 0 : Number(top.p) + 1;
          await trx.insertInto('watchlist_vendors').values({ org_id: orgId, vendor, position, added_at: at }).execute();
          return { status: 'added', vendors: [...current, vendor] };
        })
        .catch((err: unknown): AddOutcome => {
          if (err instanceof Refused) return { status: 'full', vendors: err.vendors };
          throw err;
        });
    },

    /** Replaces the whole list (`vendors` already de-duplicated, in display order). */
    async replace(orgId: string, vendors: string[], limit: number | null, now: Date): Promise<ReplaceOutcome> {
      if (limit !== null && vendors.length > limit) return { status: 'full', vendors: await vendorsOf(db, orgId) };
      const at = now.toISOString();
      return db.transaction().execute(async (trx) => {
        await lockOwner(trx, orgId, at);
        const before = await trx.selectFrom('watchlist_vendors').select(['vendor', 'added_at']).where('org_id', '=', orgId).execute();
        const addedAt = new Map(before.map((r) => [r.vendor, r.added_at]));
        await trx.deleteFrom('watchlist_vendors').where('org_id', '=', orgId).execute();
        if (vendors.length) {
          await trx
            .insertInto('watchlist_vendors')
            .values(vendors.map((vendor, position) => ({ org_id: orgId, vendor, position, added_at: addedAt.get(vendor) ?? at })))
            .execute();
        }
        return { status: 'replaced' as const, vendors: [...vendors] };
      });
    },

    /** Removes a vendor; removing one that is not listed changes nothing. */
    async remove(orgId: string, vendor: string, now: Date): Promise<string[]> {
      const at = now.toISOString();
      return db.transaction().execute(async (trx) => {
        await lockOwner(trx, orgId, at);
        await trx.deleteFrom('watchlist_vendors').where('org_id', '=', orgId).where('vendor', '=', vendor).execute();
        return vendorsOf(trx, orgId);
      });
    },

    /** Who watches each of the given vendors (one query), for alert fan-out. */
    async watchers(vendors: string[]): Promise<Map<string, string[]>> {
      const out = new Map<string, string[]>();
      if (!vendors.length) return out;
      const rows = await db
        .selectFrom('watchlist_vendors')
        .select(['vendor', 'org_id'])
        .where('vendor', 'in', vendors)
        .orderBy('vendor')
        .orderBy('org_id')
        .execute();
      for (const r of rows) {
        const list = out.get(r.vendor);
        if (list) list.push(r.org_id);
        else out.set(r.vendor, [r.org_id]);
      }
      return out;
    },
  };
}

/** Aborts the add transaction so that nothing, not even the lock write, is kept. */
class Refused extends Error {
  readonly vendors: string[];

  constructor(vendors: string[]) {
    super('watchlist full');
    this.vendors = vendors;
  }
}

export type WatchlistRepository = ReturnType<typeof watchlistRepository>;
