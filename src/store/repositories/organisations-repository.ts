import type { Kysely, Transaction } from 'kysely';
import type { OrgRole } from '../../domain/org-roles.ts';
import type { UserPlan } from '../../domain/plans.ts';
import type { Database } from '../schema.ts';

// Organisations and their members (docs/teams.md). Changes that must keep at least one
// owner (role changes, removals, leaving, transfers) run under the organisation's row
// lock (a no-op update on PostgreSQL, SQLite's write lock) and count owners inside it,
// so two concurrent demotions cannot leave an organisation without one.

export interface OrgRow {
  id: string;
  name: string;
  plan: UserPlan;
  personal: boolean;
  createdAt: string;
}

export interface MemberRow {
  userId: string;
  email: string;
  role: OrgRole;
  joinedAt: string;
}

export interface MyOrg extends OrgRow {
  role: OrgRole;
}

type Db = Kysely<Database> | Transaction<Database>;

const toOrg = (r: Pick<Database['organisations'], 'id' | 'name' | 'plan' | 'personal_user_id' | 'created_at'>): OrgRow => ({
  id: r.id,
  name: r.name,
  plan: r.plan as UserPlan,
  personal: r.personal_user_id !== null,
  createdAt: r.created_at,
});

const lock = (trx: Transaction<Database>, orgId: string) =>
  trx
    .updateTable('organisations')
    .set((eb) => ({ updated_at: eb.ref('updated_at') }))
    .where('id', '=', orgId)
    .executeTakeFirst();

const ownerCount = async (trx: Transaction<Database>, orgId: string) =>
  Number(
    (
      await trx
        .selectFrom('memberships')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('org_id', '=', orgId)
        .where('role', '=', 'owner')
        .executeTakeFirstOrThrow()
    ).n,
  );

/** What a membership change came to. */
export type MemberChange = 'changed' | 'not_member' | 'last_owner';

export async function insertOrganisation(
  q: Db,
  o: { id: string; name: string; plan: UserPlan; personal: boolean; ownerId: string | null; now: Date },
): Promise<OrgRow> {
  const at = o.now.toISOString();
  await q
    .insertInto('organisations')
    .values({ id: o.id, name: o.name, plan: o.plan, personal_user_id: o.personal ? o.ownerId : null, created_at: at, updated_at: at })
    .execute();
  if (o.ownerId) await q.insertInto('memberships').values({ org_id: o.id, user_id: o.ownerId, role: 'owner', created_at: at }).execute();
  return { id: o.id, name: o.name, plan: o.plan, personal: o.personal, createdAt: at };
}

export function organisationsRepository(db: Kysely<Database>) {
  return {
    create: (o: Parameters<typeof insertOrganisation>[1]) => db.transaction().execute((trx) => insertOrganisation(trx, o)),

    async get(orgId: string): Promise<OrgRow | null> {
      const r = await db.selectFrom('organisations').selectAll().where('id', '=', orgId).executeTakeFirst();
      return r ? toOrg(r) : null;
    },

    /** Every organisation, oldest first, with its member count (operator CLI). */
    async listAll(): Promise<(OrgRow & { members: number })[]> {
      const rows = await db
        .selectFrom('organisations')
        .leftJoin('memberships', 'memberships.org_id', 'organisations.id')
        .select(['organisations.id', 'organisations.name', 'organisations.plan', 'organisations.personal_user_id', 'organisations.created_at'])
        .select((eb) => eb.fn.count<number | string>('memberships.user_id').as('members'))
        .groupBy(['organisations.id', 'organisations.name', 'organisations.plan', 'organisations.personal_user_id', 'organisations.created_at'])
        .orderBy('organisations.created_at')
        .orderBy('organisations.id')
        .execute();
      return rows.map((r) => ({ ...toOrg(r), members: Number(r.members) }));
    },

    /** The organisations a user belongs to, personal first, then by name. */
    async listForUser(userId: string): Promise<MyOrg[]> {
      const rows = await db
        .selectFrom('memberships')
        .innerJoin('organisations', 'organisations.id', 'memberships.org_id')
        .select([
          'organisations.id',
          'organisations.name',
          'organisations.plan',
          'organisations.personal_user_id',
          'organisations.created_at',
          'memberships.role',
        ])
        .where('memberships.user_id', '=', userId)
        .orderBy('organisations.personal_user_id', 'desc')
        .orderBy('organisations.name')
        .orderBy('organisations.id')
        .execute();
      return rows.map((r) => ({ ...toOrg(r), role: r.role as OrgRole }));
    },

    async roleOf(orgId: string, userId: string): Promise<OrgRole | null> {
      const r = await db.selectFrom('memberships').select('role').where('org_id', '=', orgId).where('user_id', '=', userId).executeTakeFirst();
      return (r?.role as OrgRole | undefined) ?? null;
    },

    async personalOrgOf(userId: string): Promise<MyOrg | null> {
      const r = await db
        .selectFrom('organisations')
        .select(['id', 'name', 'plan', 'personal_user_id', 'created_at'])
        .where('personal_user_id', '=', userId)
        .executeTakeFirst();
      return r ? { ...toOrg(r), role: 'owner' } : null;
    },

    async members(orgId: string): Promise<MemberRow[]> {
      const rows = await db
        .selectFrom('memberships')
        .innerJoin('users', 'users.id', 'memberships.user_id')
        .select(['memberships.user_id', 'users.email', 'memberships.role', 'memberships.created_at'])
        .where('memberships.org_id', '=', orgId)
        .orderBy('memberships.created_at')
        .orderBy('users.email')
        .execute();
      return rows.map((r) => ({ userId: r.user_id, email: r.email, role: r.role as OrgRole, joinedAt: r.created_at }));
    },

    /** Owners' e-mail addresses by organisation, oldest membership first (the e-mail channel's default). */
    async ownerEmails(orgIds: string[]): Promise<Map<string, string>> {
      const out = new Map<string, string>();
      const ids = [...new Set(orgIds)];
      for (let i = 0; i < ids.length; i += 500) {
        const rows = await db
          .selectFrom('memberships')
          .innerJoin('users', 'users.id', 'memberships.user_id')
          .select(['memberships.org_id', 'users.email'])
          .where('memberships.org_id', 'in', ids.slice(i, i + 500))
          .where('memberships.role', '=', 'owner')
          .orderBy('memberships.created_at')
          .orderBy('users.email')
          .execute();
        for (const r of rows) if (!out.has(r.org_id)) out.set(r.org_id, r.email);
      }
      return out;
    },

    /** Adds a member (an accepted invitation); false when already a member. */
    async addMember(orgId: string, userId: string, role: OrgRole, now: Date): Promise<boolean> {
      const r = await db
        .insertInto('memberships')
        .values({ org_id: orgId, user_id: userId, role, created_at: now.toISOString() })
        .onConflict((oc) => oc.columns(['org_id', 'user_id']).doNothing())
        .executeTakeFirst();
      return Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
    },

    /** Changes a member's role; the last owner cannot stop being one. */
    async setRole(orgId: string, userId: string, role: OrgRole): Promise<MemberChange> {
      return db.transaction().execute(async (trx) => {
        await lock(trx, orgId);
        const current = await trx.selectFrom('memberships').select('role').where('org_id', '=', orgId).where('user_id', '=', userId).executeTakeFirst();
        if (!current) return 'not_member';
        if (current.role === 'owner' && role !== 'owner' && (await ownerCount(trx, orgId)) <= 1) return 'last_owner';
        await trx.updateTable('memberships').set({ role }).where('org_id', '=', orgId).where('user_id', '=', userId).execute();
        return 'changed';
      });
    },

    /**
     * Removes a member (removal or leaving); the last owner cannot go. Their keys in
     * this organisation go with the membership (revoked in the same transaction).
     */
    async removeMember(orgId: string, userId: string, now: Date): Promise<MemberChange> {
      return db.transaction().execute(async (trx) => {
        await lock(trx, orgId);
        const current = await trx.selectFrom('memberships').select('role').where('org_id', '=', orgId).where('user_id', '=', userId).executeTakeFirst();
        if (!current) return 'not_member';
        if (current.role === 'owner' && (await ownerCount(trx, orgId)) <= 1) return 'last_owner';
        await trx.deleteFrom('memberships').where('org_id', '=', orgId).where('user_id', '=', userId).execute();
        await trx
          .updateTable('api_keys')
          .set({ revoked_at: now.toISOString() })
          .where('org_id', '=', orgId)
          .where('user_id', '=', userId)
          .where('revoked_at', 'is', null)
          .execute();
        return 'changed';
      });
    },

    /** Makes `to` (a member) an owner and `from` an admin, together. */
    async transferOwnership(orgId: string, from: string, to: string): Promise<MemberChange> {
      return db.transaction().execute(async (trx) => {
        await lock(trx, orgId);
        const target = await trx.selectFrom('memberships').select('role').where('org_id', '=', orgId).where('user_id', '=', to).executeTakeFirst();
        if (!target) return 'not_member';
        await trx.updateTable('memberships').set({ role: 'owner' }).where('org_id', '=', orgId).where('user_id', '=', to).execute();
        if (from !== to) await trx.updateTable('memberships').set({ role: 'admin' }).where('org_id', '=', orgId).where('user_id', '=', from).execute();
        return 'changed';
      });
    },

    async rename(orgId: string, name: string, now: Date): Promise<void> {
      await db.updateTable('organisations').set({ name, updated_at: now.toISOString() }).where('id', '=', orgId).execute();
    },

    async setPlan(orgId: string, plan: UserPlan, now: Date): Promise<boolean> {
      const r = await db.updateTable('organisations').set({ plan, updated_at: now.toISOString() }).where('id', '=', orgId).executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },

    /** Deletes an organisation and, through the foreign keys, everything it owns. */
    async delete(orgId: string): Promise<boolean> {
      const r = await db.deleteFrom('organisations').where('id', '=', orgId).where('personal_user_id', 'is', null).executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    },
  };
}

export type OrganisationsRepository = ReturnType<typeof organisationsRepository>;
