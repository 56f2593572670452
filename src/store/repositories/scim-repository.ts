import type { Kysely, Transaction } from 'kysely';
import type { ScimFilterClause } from '../../domain/scim-filter.ts';
import type { Database } from '../schema.ts';

// Users and groups an organisation's identity provider provisioned over SCIM
// (docs/teams.md, "SCIM"). Every method takes the organisation id, so one
// organisation's token never reads or changes another's resources. userName and a
// group's displayName are unique per organisation, case-insensitively (their
// lower-cased `_key` columns).

export interface ScimUserRow {
  id: string;
  orgId: string;
  userId: string;
  /** The linked account's address. */
  email: string;
  userName: string;
  externalId: string | null;
  displayName: string | null;
  givenName: string | null;
  familyName: string | null;
  active: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface ScimGroupRow {
  id: string;
  orgId: string;
  displayName: string;
  externalId: string | null;
  role: string | null;
  createdAt: string;
  updatedAt: string;
  /** Members (SCIM user id and userName), when asked for. */
  members: { id: string; userName: string }[];
}

export type ScimUserFields = Pick<ScimUserRow, 'userName' | 'externalId' | 'displayName' | 'givenName' | 'familyName' | 'active'>;

type Db = Kysely<Database> | Transaction<Database>;

const toUser = (r: Database['scim_users'] & { account_email: string }): ScimUserRow => ({
  id: r.id,
  orgId: r.org_id,
  userId: r.user_id,
  email: r.account_email,
  userName: r.user_name,
  externalId: r.external_id,
  displayName: r.display_name,
  givenName: r.given_name,
  familyName: r.family_name,
  active: Number(r.active) === 1,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const userColumns = (f: Partial<ScimUserFields>) => ({
  ...(f.userName !== undefined ? { user_name: f.userName, user_name_key: f.userName.toLowerCase() } : {}),
  ...(f.externalId !== undefined ? { external_id: f.externalId } : {}),
  ...(f.displayName !== undefined ? { display_name: f.displayName } : {}),
  ...(f.givenName !== undefined ? { given_name: f.givenName } : {}),
  ...(f.familyName !== undefined ? { family_name: f.familyName } : {}),
  ...(f.active !== undefined ? { active: f.active ? 1 : 0 } : {}),
});

async function membersOf(q: Db, groupIds: string[]): Promise<Map<string, { id: string; userName: string }[]>> {
  const out = new Map<string, { id: string; userName: string }[]>(groupIds.map((id) => [id, []]));
  if (!groupIds.length) return out;
  const rows = await q
    .selectFrom('scim_group_members')
    .innerJoin('scim_users', 'scim_users.id', 'scim_group_members.scim_user_id')
    .select(['scim_group_members.group_id', 'scim_users.id', 'scim_users.user_name'])
    .where('scim_group_members.group_id', 'in', groupIds)
    .orderBy('scim_users.user_name_key')
    .execute();
  for (const r of rows) out.get(r.group_id)?.push({ id: r.id, userName: r.user_name });
  return out;
}

export function scimRepository(db: Kysely<Database>) {
  function usersQuery(orgId: string, clauses: ScimFilterClause[]) {
    let q = db.selectFrom('scim_users').innerJoin('users', 'users.id', 'scim_users.user_id').where('scim_users.org_id', '=', orgId);
    for (const c of clauses) {
      if (c.attribute === 'userName') q = q.where('scim_users.user_name_key', '=', c.value.toLowerCase());
      else if (c.attribute === 'externalId') q = q.where('scim_users.external_id', '=', c.value);
      else if (c.attribute === 'id') q = q.where('scim_users.id', '=', c.value);
      else q = q.where('scim_users.display_name', '=', c.value);
    }
    return q;
  }
  const usersRows = (orgId: string, clauses: ScimFilterClause[]) => usersQuery(orgId, clauses).selectAll('scim_users').select('users.email as account_email');

  function groupsQuery(orgId: string, clauses: ScimFilterClause[]) {
    let q = db.selectFrom('scim_groups').where('org_id', '=', orgId);
    for (const c of clauses) {
      if (c.attribute === 'displayName') q = q.where('display_name_key', '=', c.value.toLowerCase());
      else if (c.attribute === 'externalId') q = q.where('external_id', '=', c.value);
      else q = q.where('id', '=', c.value);
    }
    return q;
  }

  async function group(q: Db, orgId: string, id: string, withMembers = true): Promise<ScimGroupRow | null> {
    const r = await q.selectFrom('scim_groups').selectAll().where('org_id', '=', orgId).where('id', '=', id).executeTakeFirst();
    if (!r) return null;
    const members = withMembers ? (await membersOf(q, [r.id])).get(r.id)! : [];
    return {
      id: r.id,
      orgId: r.org_id,
      displayName: r.display_name,
      externalId: r.external_id,
      role: r.role,
      createdAt: r.created_at,
      updatedAt: r.updated_at,
      members,
    };
  }

  return {
    // ------------------------------------------------------------------ users
    async listUsers(orgId: string, clauses: ScimFilterClause[], offset: number, limit: number): Promise<{ total: number; rows: ScimUserRow[] }> {
      const { n } = await usersQuery(orgId, clauses)
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .executeTakeFirstOrThrow();
      const rows =
        limit > 0 ? await usersRows(orgId, clauses).orderBy('scim_users.created_at').orderBy('scim_users.id').offset(offset).limit(limit).execute() : [];
      return { total: Number(n), rows: rows.map(toUser) };
    },

    async getUser(orgId: string, id: string): Promise<ScimUserRow | null> {
      const r = await usersRows(orgId, [{ attribute: 'id', value: id }]).executeTakeFirst();
      return r ? toUser(r) : null;
    },

    async userNameTaken(orgId: string, userName: string, except: string | null): Promise<boolean> {
      let q = db.selectFrom('scim_users').select('id').where('org_id', '=', orgId).where('user_name_key', '=', userName.toLowerCase());
      if (except) q = q.where('id', '!=', except);
      return !!(await q.executeTakeFirst());
    },

    async linkOf(orgId: string, userId: string): Promise<ScimUserRow | null> {
      const r = await usersRows(orgId, []).where('scim_users.user_id', '=', userId).executeTakeFirst();
      return r ? toUser(r) : null;
    },

    /** Whether the owner of an account confirmed `email` (the confirmation link of its personal organisation's alert e-mail, docs/alerts.md). */
    async addressConfirmed(userId: string, email: string): Promise<boolean> {
      const r = await db.selectFrom('notification_preferences').select('email_confirmed_address').where('org_id', '=', userId).executeTakeFirst();
      return !!r?.email_confirmed_address && r.email_confirmed_address.toLowerCase() === email.toLowerCase();
    },

    /** Adds a link; false when the userName or the account is already linked in this organisation. */
    async insertUser(u: { id: string; orgId: string; userId: string; now: Date } & ScimUserFields): Promise<boolean> {
      const at = u.now.toISOString();
      const r = await db
        .insertInto('scim_users')
        .values({
          id: u.id,
          org_id: u.orgId,
          user_id: u.userId,
          user_name: u.userName,
          user_name_key: u.userName.toLowerCase(),
          external_id: u.externalId,
          display_name: u.displayName,
          given_name: u.givenName,
          family_name: u.familyName,
          active: u.active ? 1 : 0,
          created_at: at,
          updated_at: at,
        })
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirst();
      return Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
    },

    async updateUser(orgId: string, id: string, f: Partial<ScimUserFields>, now: Date): Promise<ScimUserRow | null> {
      await db
        .updateTable('scim_users')
        .set({ ...userColumns(f), updated_at: now.toISOString() })
        .where('org_id', '=', orgId)
        .where('id', '=', id)
        .execute();
      return this.getUser(orgId, id);
    },

    async deleteUser(orgId: string, id: string): Promise<boolean> {
      const r = await db.deleteFrom('scim_users').where('org_id', '=', orgId).where('id', '=', id).executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    },

    /** Of `ids`, those that are SCIM users of this organisation. */
    async existingUserIds(orgId: string, ids: string[]): Promise<Set<string>> {
      const out = new Set<string>();
      for (let i = 0; i < ids.length; i += 500) {
        const rows = await db
          .selectFrom('scim_users')
          .select('id')
          .where('org_id', '=', orgId)
          .where('id', 'in', ids.slice(i, i + 500))
          .execute();
        for (const r of rows) out.add(r.id);
      }
      return out;
    },

    async usersByIds(orgId: string, ids: string[]): Promise<ScimUserRow[]> {
      const out: ScimUserRow[] = [];
      for (let i = 0; i < ids.length; i += 500) {
        const rows = await usersRows(orgId, [])
          .where('scim_users.id', 'in', ids.slice(i, i + 500))
          .execute();
        out.push(...rows.map(toUser));
      }
      return out;
    },

    /** The roles of the groups a SCIM user is in. */
    async groupRolesOf(scimUserId: string): Promise<(string | null)[]> {
      const rows = await db
        .selectFrom('scim_group_members')
        .innerJoin('scim_groups', 'scim_groups.id', 'scim_group_members.group_id')
        .select('scim_groups.role')
        .where('scim_group_members.scim_user_id', '=', scimUserId)
        .execute();
      return rows.map((r) => r.role);
    },

    async groupsOfUser(orgId: string, scimUserId: string): Promise<{ id: string; displayName: string }[]> {
      const rows = await db
        .selectFrom('scim_group_members')
        .innerJoin('scim_groups', 'scim_groups.id', 'scim_group_members.group_id')
        .select(['scim_groups.id', 'scim_groups.display_name'])
        .where('scim_groups.org_id', '=', orgId)
        .where('scim_group_members.scim_user_id', '=', scimUserId)
        .orderBy('scim_groups.display_name_key')
        .execute();
      return rows.map((r) => ({ id: r.id, displayName: r.display_name }));
    },

    // ----------------------------------------------------------------- groups
    async listGroups(
      orgId: string,
      clauses: ScimFilterClause[],
      offset: number,
      limit: number,
      withMembers: boolean,
    ): Promise<{ total: number; rows: ScimGroupRow[] }> {
      const { n } = await groupsQuery(orgId, clauses)
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .executeTakeFirstOrThrow();
      const rows = limit > 0 ? await groupsQuery(orgId, clauses).selectAll().orderBy('created_at').orderBy('id').offset(offset).limit(limit).execute() : [];
      const members = withMembers
        ? await membersOf(
            db,
            rows.map((r) => r.id),
          )
        : new Map<string, { id: string; userName: string }[]>();
      return {
        total: Number(n),
        rows: rows.map((r) => ({
          id: r.id,
          orgId: r.org_id,
          displayName: r.display_name,
          externalId: r.external_id,
          role: r.role,
          createdAt: r.created_at,
          updatedAt: r.updated_at,
          members: members.get(r.id) ?? [],
        })),
      };
    },

    getGroup: (orgId: string, id: string, withMembers = true) => group(db, orgId, id, withMembers),

    async countGroups(orgId: string): Promise<number> {
      const { n } = await db
        .selectFrom('scim_groups')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('org_id', '=', orgId)
        .executeTakeFirstOrThrow();
      return Number(n);
    },

    async displayNameTaken(orgId: string, displayName: string, except: string | null): Promise<boolean> {
      let q = db.selectFrom('scim_groups').select('id').where('org_id', '=', orgId).where('display_name_key', '=', displayName.toLowerCase());
      if (except) q = q.where('id', '!=', except);
      return !!(await q.executeTakeFirst());
    },

    /** Adds a group with its members; false when the name is taken in this organisation. */
    async insertGroup(g: { id: string; orgId: string; displayName: string; externalId: string | null; members: string[]; now: Date }): Promise<boolean> {
      const at = g.now.toISOString();
      return db.transaction().execute(async (trx) => {
        const r = await trx
          .insertInto('scim_groups')
          .values({
            id: g.id,
            org_id: g.orgId,
            display_name: g.displayName,
            display_name_key: g.displayName.toLowerCase(),
            external_id: g.externalId,
            role: null,
            created_at: at,
            updated_at: at,
          })
          .onConflict((oc) => oc.doNothing())
          .executeTakeFirst();
        if (Number(r.numInsertedOrUpdatedRows ?? 0) === 0) return false;
        if (g.members.length)
          await trx
            .insertInto('scim_group_members')
            .values(g.members.map((m) => ({ group_id: g.id, scim_user_id: m })))
            .execute();
        return true;
      });
    },

    /**
     * Changes a group: its name and external id when given, then its members by the
     * operations in order (`replace` sets them, `clear` empties them).
     */
    async updateGroup(
      orgId: string,
      id: string,
      change: { displayName?: string; externalId?: string | null; members: ({ kind: 'add' | 'remove' | 'replace'; ids: string[] } | { kind: 'clear' })[] },
      now: Date,
    ): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const r = await trx
          .updateTable('scim_groups')
          .set({
            updated_at: now.toISOString(),
            ...(change.displayName !== undefined ? { display_name: change.displayName, display_name_key: change.displayName.toLowerCase() } : {}),
            ...(change.externalId !== undefined ? { external_id: change.externalId } : {}),
          })
          .where('org_id', '=', orgId)
          .where('id', '=', id)
          .executeTakeFirst();
        if (Number(r.numUpdatedRows) === 0) return false;
        for (const m of change.members) {
          if (m.kind === 'clear' || m.kind === 'replace') await trx.deleteFrom('scim_group_members').where('group_id', '=', id).execute();
          if (m.kind === 'clear') continue;
          if (m.kind === 'remove') {
            for (let i = 0; i < m.ids.length; i += 500) {
              await trx
                .deleteFrom('scim_group_members')
                .where('group_id', '=', id)
                .where('scim_user_id', 'in', m.ids.slice(i, i + 500))
                .execute();
            }
            continue;
          }
          for (let i = 0; i < m.ids.length; i += 500) {
            await trx
              .insertInto('scim_group_members')
              .values(m.ids.slice(i, i + 500).map((u) => ({ group_id: id, scim_user_id: u })))
              .onConflict((oc) => oc.doNothing())
              .execute();
          }
        }
        return true;
      });
    },

    async setGroupRole(orgId: string, id: string, role: string | null, now: Date): Promise<boolean> {
      const r = await db
        .updateTable('scim_groups')
        .set({ role, updated_at: now.toISOString() })
        .where('org_id', '=', orgId)
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },

    async deleteGroup(orgId: string, id: string): Promise<boolean> {
      const r = await db.deleteFrom('scim_groups').where('org_id', '=', orgId).where('id', '=', id).executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    },

    /** Every group of the organisation with its role and member count (the admin's view). */
    async groupSummaries(orgId: string): Promise<{ id: string; displayName: string; externalId: string | null; role: string | null; members: number }[]> {
      const rows = await db
        .selectFrom('scim_groups')
        .leftJoin('scim_group_members', 'scim_group_members.group_id', 'scim_groups.id')
        .select(['scim_groups.id', 'scim_groups.display_name', 'scim_groups.display_name_key', 'scim_groups.external_id', 'scim_groups.role'])
        .select((eb) => eb.fn.count<number | string>('scim_group_members.scim_user_id').as('members'))
        .where('scim_groups.org_id', '=', orgId)
        .groupBy(['scim_groups.id', 'scim_groups.display_name', 'scim_groups.display_name_key', 'scim_groups.external_id', 'scim_groups.role'])
        .orderBy('scim_groups.display_name_key')
        .execute();
      return rows.map((r) => ({ id: r.id, displayName: r.display_name, externalId: r.external_id, role: r.role, members: Number(r.members) }));
    },
  };
}

export type ScimRepository = ReturnType<typeof scimRepository>;
