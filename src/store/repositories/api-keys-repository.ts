import type { Kysely } from 'kysely';
import type { UserPlan } from '../../domain/plans.ts';
import type { Database } from '../schema.ts';

export interface ApiKeyRow {
  id: string;
  name: string;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
}

export interface ApiKeyOwner {
  keyId: string;
  keyHash: string;
  userId: string;
  plan: UserPlan;
}

const toKey = (r: Pick<Database['api_keys'], 'id' | 'name' | 'prefix' | 'created_at' | 'last_used_at'>): ApiKeyRow => ({
  id: r.id,
  name: r.name,
  prefix: r.prefix,
  createdAt: r.created_at,
  lastUsedAt: r.last_used_at,
});

// Every method that reads or changes a key takes the owner's user id, so one
// user can never see or revoke another's keys.
export function apiKeysRepository(db: Kysely<Database>) {
  return {
    /**
     * Creates a key unless the user already holds `cap` active ones (then null). The
     * count and the insert run under the user's row lock (a no-op update takes it on
     * PostgreSQL; SQLite writers are serialised), so concurrent creations never pass
     * the cap together (docs/security.md, "API key cap under concurrency").
     */
    async createWithinCap(k: { id: string; userId: string; name: string; keyHash: string; prefix: string; now: Date }, cap: number): Promise<ApiKeyRow | null> {
      const at = k.now.toISOString();
      return db.transaction().execute(async (trx) => {
        await trx.updateTable('users').set((eb) => ({ id: eb.ref('id') })).where('id', '=', k.userId).execute();
        const { n } = await trx
          .selectFrom('api_keys')
          .select((eb) => eb.fn.countAll<number | string>().as('n'))
          .where('user_id', '=', k.userId)
          .where('revoked_at', 'is', null)
          .executeTakeFirstOrThrow();
        if (Number(n) >= cap) return null;
        await trx
          .insertInto('api_keys')
          .values({ id: k.id, user_id: k.userId, name: k.name, key_hash: k.keyHash, prefix: k.prefix, created_at: at })
          .execute();
        return { id: k.id, name: k.name, prefix: k.prefix, createdAt: at, lastUsedAt: null };
      });
    },

    /** Active (not revoked) keys of a user, newest first. */
    async listForUser(userId: string): Promise<ApiKeyRow[]> {
      const rows = await db
        .selectFrom('api_keys')
        .select(['id', 'name', 'prefix', 'created_at', 'last_used_at'])
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .execute();
      return rows.map(toKey);
    },

    /** The owner of an active key, looked up by the hash of its secret. */
    async findActiveByHash(keyHash: string): Promise<ApiKeyOwner | null> {
      const r = await db
        .selectFrom('api_keys')
        .innerJoin('users', 'users.id', 'api_keys.user_id')
        .select(['api_keys.id', 'api_keys.key_hash', 'api_keys.user_id', 'users.plan'])
        .where('api_keys.key_hash', '=', keyHash)
        .where('api_keys.revoked_at', 'is', null)
        .executeTakeFirst();
      return r ? { keyId: r.id, keyHash: r.key_hash, userId: r.user_id, plan: r.plan as UserPlan } : null;
    },

    /** Revokes a key of this user; returns its hash, or null when the user has no such active key. */
    async revoke(userId: string, keyId: string, now: Date): Promise<string | null> {
      const r = await db
        .selectFrom('api_keys')
        .select('key_hash')
        .where('id', '=', keyId)
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      if (!r) return null;
      const u = await db
        .updateTable('api_keys')
        .set({ revoked_at: now.toISOString() })
        .where('id', '=', keyId)
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return Number(u.numUpdatedRows) > 0 ? r.key_hash : null;
    },

    /** The owner of an active key by the key's id (operator CLI only: it acts for every account). */
    async ownerOf(keyId: string): Promise<string | null> {
      const r = await db.selectFrom('api_keys').select('user_id').where('id', '=', keyId).where('revoked_at', 'is', null).executeTakeFirst();
      return r?.user_id ?? null;
    },

    async touch(keyId: string, now: Date): Promise<void> {
      await db.updateTable('api_keys').set({ last_used_at: now.toISOString() }).where('id', '=', keyId).execute();
    },
  };
}

export type ApiKeysRepository = ReturnType<typeof apiKeysRepository>;
