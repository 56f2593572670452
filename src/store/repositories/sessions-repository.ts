import type { Kysely } from 'kysely';
import type { OrgRole } from '../../domain/org-roles.ts';
import type { UserPlan } from '../../domain/plans.ts';
import type { Database } from '../schema.ts';

// Web sessions. A session acts for one organisation of its user at a time (the org
// switcher sets it); while the user is no longer a member of it, the session falls back
// to their personal organisation (docs/teams.md, "Current organisation").

export interface SessionOwner {
  userId: string;
  orgId: string;
  role: OrgRole;
  plan: UserPlan;
  expiresAt: string;
}

export function sessionsRepository(db: Kysely<Database>) {
  return {
    async create(s: { tokenHash: string; userId: string; orgId: string; now: Date; expiresAt: Date }): Promise<void> {
      await db
        .insertInto('sessions')
        .values({ token_hash: s.tokenHash, user_id: s.userId, org_id: s.orgId, created_at: s.now.toISOString(), expires_at: s.expiresAt.toISOString() })
        .execute();
    },

    /** The session's user and the organisation it acts for, or null when unknown or expired. */
    async findActive(tokenHash: string, now: Date): Promise<SessionOwner | null> {
      const s = await db
        .selectFrom('sessions')
        .leftJoin('memberships', (j) => j.onRef('memberships.org_id', '=', 'sessions.org_id').onRef('memberships.user_id', '=', 'sessions.user_id'))
        .leftJoin('organisations', 'organisations.id', 'memberships.org_id')
        .select(['sessions.user_id', 'sessions.expires_at', 'memberships.org_id', 'memberships.role', 'organisations.plan'])
        .where('sessions.token_hash', '=', tokenHash)
        .where('sessions.expires_at', '>', now.toISOString())
        .executeTakeFirst();
      if (!s) return null;
      if (s.org_id && s.role && s.plan)
        return { userId: s.user_id, orgId: s.org_id, role: s.role as OrgRole, plan: s.plan as UserPlan, expiresAt: s.expires_at };
      const personal = await db.selectFrom('organisations').select(['id', 'plan']).where('personal_user_id', '=', s.user_id).executeTakeFirst();
      if (!personal) return null;
      return { userId: s.user_id, orgId: personal.id, role: 'owner', plan: personal.plan as UserPlan, expiresAt: s.expires_at };
    },

    /** Switches the organisation a session acts for (membership is checked by the caller). */
    async setOrg(tokenHash: string, orgId: string): Promise<void> {
      await db.updateTable('sessions').set({ org_id: orgId }).where('token_hash', '=', tokenHash).execute();
    },

    /** Token digests of a user's sessions (to drop them from the credential cache). */
    async hashesOf(userId: string): Promise<string[]> {
      return (await db.selectFrom('sessions').select('token_hash').where('user_id', '=', userId).execute()).map((r) => r.token_hash);
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
