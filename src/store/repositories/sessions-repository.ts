import type { Kysely } from 'kysely';
import type { UserPlan } from '../../domain/plans.ts';
import type { Database } from '../schema.ts';

export interface SessionOwner {
  userId: string;
  plan: UserPlan;
  expiresAt: string;
}

export function sessionsRepository(db: Kysely<Database>) {
  return {
    async create(s: { tokenHash: string; userId: string; now: Date; expiresAt: Date }): Promise<void> {
      await db
        .insertInto('sessions')
        .values({ token_hash: s.tokenHash, user_id: s.userId, created_at: s.now.toISOString(), expires_at: s.expiresAt.toISOString() })
        .execute();
    },

    /** The session's user, or null when unknown or expired. */
    async findActive(tokenHash: string, now: Date): Promise<SessionOwner | null> {
      const r = await db
        .selectFrom('sessions')
        .innerJoin('users', 'users.id', 'sessions.user_id')
        .select(['sessions.user_id', 'sessions.expires_at', 'users.plan'])
        .where('sessions.token_hash', '=', tokenHash)
        .where('sessions.expires_at', '>', now.toISOString())
        .executeTakeFirst();
      return r ? { userId: r.user_id, plan: r.plan as UserPlan, expiresAt: r.expires_at } : null;
    },

    async delete(tokenHash: string): Promise<void> {
      await db.deleteFrom('sessions').where('token_hash', '=', tokenHash).execute();
    },

    async deleteExpired(now: Date): Promise<number> {
      const r = await db.deleteFrom('sessions').where('expires_at', '<=', now.toISOString()).executeTakeFirst();
      return Number(r.numDeletedRows);
    },
  };
}

export type SessionsRepository = ReturnType<typeof sessionsRepository>;
