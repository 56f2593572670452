import type { Kysely } from 'kysely';
import { lowerRole, type OrgRole } from '../../domain/org-roles.ts';
import type { UserPlan } from '../../domain/plans.ts';
import type { Database } from '../schema.ts';

// API keys belong to an organisation (docs/teams.md, "Keys"). A member key acts as the
// member who made it, with their current role, and stops working the moment they leave
// the organisation (the lookup joins the membership). An organisation key (no user: a
// service account for CI) acts with the role it was given, whoever is still a member.
// Every method that reads or changes keys takes the organisation id, so one
// organisation can never see or revoke another's keys.

export interface ApiKeyRow {
  id: string;
  name: string;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
}

/** A key as an organisation's admins see it: whose it is and what it may do. */
export interface OrgKeyRow extends ApiKeyRow {
  /** The member the key acts as; null for an organisation key. */
  userEmail: string | null;
  role: OrgRole | null;
}

export interface ApiKeyOwner {
  keyId: string;
  keyHash: string;
  /** null: an organisation key. */
  userId: string | null;
  orgId: string;
  role: OrgRole;
  plan: UserPlan;
}

const toKey = (r: Pick<Database['api_keys'], 'id' | 'name' | 'prefix' | 'created_at' | 'last_used_at'>): ApiKeyRow => ({
  id: r.id,
  name: r.name,
  prefix: r.prefix,
  createdAt: r.created_at,
  lastUsedAt: r.last_used_at,
});

export function apiKeysRepository(db: Kysely<Database>) {
  return {
    /**
     * Creates a key unless the organisation already holds `cap` active ones (then null).
     * The count and the insert run under the organisation's row lock (a no-op update
     * takes it on PostgreSQL; SQLite writers are serialised), so concurrent creations
     * never pass the cap together (docs/security.md, "API key cap under concurrency").
     */
    async createWithinCap(
      k: { id: string; orgId: string; userId: string | null; role: OrgRole | null; name: string; keyHash: string; prefix: string; now: Date },
      cap: number,
    ): Promise<ApiKeyRow | null> {
      const at = k.now.toISOString();
      return db.transaction().execute(async (trx) => {
        await trx
          .updateTable('organisations')
          .set((eb) => ({ id: eb.ref('id') }))
          .where('id', '=', k.orgId)
          .execute();
        const { n } = await trx
          .selectFrom('api_keys')
          .select((eb) => eb.fn.countAll<number | string>().as('n'))
          .where('org_id', '=', k.orgId)
          .where('revoked_at', 'is', null)
          .executeTakeFirstOrThrow();
        if (Number(n) >= cap) return null;
        await trx
          .insertInto('api_keys')
          .values({ id: k.id, org_id: k.orgId, user_id: k.userId, role: k.role, name: k.name, key_hash: k.keyHash, prefix: k.prefix, created_at: at })
          .execute();
        return { id: k.id, name: k.name, prefix: k.prefix, createdAt: at, lastUsedAt: null };
      });
    },

    /** A member's active keys in one organisation, newest first. */
    async listForMember(orgId: string, userId: string): Promise<ApiKeyRow[]> {
      const rows = await db
        .selectFrom('api_keys')
        .select(['id', 'name', 'prefix', 'created_at', 'last_used_at'])
        .where('org_id', '=', orgId)
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .execute();
      return rows.map(toKey);
    },

    /** Every active key of an organisation (members' and its own), newest first. */
    async listForOrg(orgId: string): Promise<OrgKeyRow[]> {
      const rows = await db
        .selectFrom('api_keys')
        .leftJoin('users', 'users.id', 'api_keys.user_id')
        .select(['api_keys.id', 'api_keys.name', 'api_keys.prefix', 'api_keys.created_at', 'api_keys.last_used_at', 'api_keys.role', 'users.email'])
        .where('api_keys.org_id', '=', orgId)
        .where('api_keys.revoked_at', 'is', null)
        .orderBy('api_keys.created_at', 'desc')
        .orderBy('api_keys.id', 'desc')
        .execute();
      return rows.map((r) => ({ ...toKey(r), userEmail: r.email, role: (r.role as OrgRole | null) ?? null }));
    },

    /** The owner of an active key, looked up by the hash of its secret; a member key of a former member is no key. */
    async findActiveByHash(keyHash: string): Promise<ApiKeyOwner | null> {
      const r = await db
        .selectFrom('api_keys')
        .innerJoin('organisations', 'organisations.id', 'api_keys.org_id')
        .leftJoin('memberships', (j) => j.onRef('memberships.org_id', '=', 'api_keys.org_id').onRef('memberships.user_id', '=', 'api_keys.user_id'))
        .select([
          'api_keys.id',
          'api_keys.key_hash',
          'api_keys.user_id',
          'api_keys.org_id',
          'api_keys.role as key_role',
          'memberships.role as member_role',
          'organisations.plan',
        ])
        .where('api_keys.key_hash', '=', keyHash)
        .where('api_keys.revoked_at', 'is', null)
        .executeTakeFirst();
      if (!r) return null;
      let role: OrgRole;
      if (r.user_id === null) role = (r.key_role as OrgRole | null) ?? 'viewer';
      else if (r.member_role) role = r.key_role ? lowerRole(r.member_role as OrgRole, r.key_role as OrgRole) : (r.member_role as OrgRole);
      else return null;
      return { keyId: r.id, keyHash: r.key_hash, userId: r.user_id, orgId: r.org_id, role, plan: r.plan as UserPlan };
    },

    /**
     * Revokes a key of this organisation; `userId` narrows it to that member's own keys.
     * Returns its hash, or null when there is no such active key.
     */
    async revoke(orgId: string, keyId: string, now: Date, userId?: string): Promise<string | null> {
      let find = db.selectFrom('api_keys').select('key_hash').where('id', '=', keyId).where('org_id', '=', orgId).where('revoked_at', 'is', null);
      if (userId !== undefined) find = find.where('user_id', '=', userId);
      const r = await find.executeTakeFirst();
      if (!r) return null;
      const u = await db
        .updateTable('api_keys')
        .set({ revoked_at: now.toISOString() })
        .where('id', '=', keyId)
        .where('org_id', '=', orgId)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return Number(u.numUpdatedRows) > 0 ? r.key_hash : null;
    },

    /** The organisation of an active key by the key's id (operator CLI only: it acts for every organisation). */
    async orgOf(keyId: string): Promise<string | null> {
      const r = await db.selectFrom('api_keys').select('org_id').where('id', '=', keyId).where('revoked_at', 'is', null).executeTakeFirst();
      return r?.org_id ?? null;
    },

    /** Digests of a member's keys in an organisation, revoked or not (to drop them from the credential cache). */
    async hashesOf(orgId: string, userId: string): Promise<string[]> {
      return (await db.selectFrom('api_keys').select('key_hash').where('org_id', '=', orgId).where('user_id', '=', userId).execute()).map((r) => r.key_hash);
    },

    async touch(keyId: string, now: Date): Promise<void> {
      await db.updateTable('api_keys').set({ last_used_at: now.toISOString() }).where('id', '=', keyId).execute();
    },
  };
}

export type ApiKeysRepository = ReturnType<typeof apiKeysRepository>;
