import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';

// Vendor push hooks (docs/ingestion.md "Push from vendors"): a secret URL per vendor whose
// token is kept only as its SHA-256.

export interface PushHook {
  id: string;
  vendor: string;
  createdAt: string;
  lastPushAt: string | null;
  pushes: number;
}

const toHook = (r: Database['push_hooks']): PushHook => ({
  id: r.id,
  vendor: r.vendor,
  createdAt: r.created_at,
  lastPushAt: r.last_push_at,
  pushes: Number(r.pushes),
});

export function pushHooksRepository(db: Kysely<Database>) {
  return {
    async create(h: { id: string; vendor: string; tokenHash: string; at: string }): Promise<PushHook> {
      const row = { id: h.id, vendor: h.vendor, token_hash: h.tokenHash, created_at: h.at, last_push_at: null, pushes: 0 };
      await db.insertInto('push_hooks').values(row).execute();
      return toHook(row);
    },

    async list(vendor?: string): Promise<PushHook[]> {
      let q = db.selectFrom('push_hooks').selectAll();
      if (vendor) q = q.where('vendor', '=', vendor);
      return (await q.orderBy('vendor').orderBy('created_at').execute()).map(toHook);
    },

    async byTokenHash(hash: string): Promise<PushHook | null> {
      const row = await db.selectFrom('push_hooks').selectAll().where('token_hash', '=', hash).executeTakeFirst();
      return row ? toHook(row) : null;
    },

    async touch(id: string, at: string): Promise<void> {
      await db
        .updateTable('push_hooks')
        .set((eb) => ({ last_push_at: at, pushes: eb('pushes', '+', 1) }))
        .where('id', '=', id)
        .execute();
    },

    async remove(id: string): Promise<boolean> {
      const r = await db.deleteFrom('push_hooks').where('id', '=', id).executeTakeFirst();
      return Number(r.numDeletedRows) === 1;
    },
  };
}

export type PushHooksRepository = ReturnType<typeof pushHooksRepository>;
