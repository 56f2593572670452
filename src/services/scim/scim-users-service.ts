import { randomUUID } from 'node:crypto';
import type { Clock } from '../../domain/clock.ts';
import { scimConflict, scimNotFound } from '../../domain/scim-errors.ts';
import { parseScimFilter } from '../../domain/scim-filter.ts';
import { parseUserPatch } from '../../domain/scim-patch.ts';
import { parseScimUser } from '../../domain/scim-resources.ts';
import type { UserPlan } from '../../domain/plans.ts';
import type { OrganisationsRepository } from '../../store/repositories/organisations-repository.ts';
import type { ScimRepository, ScimUserFields, ScimUserRow } from '../../store/repositories/scim-repository.ts';
import type { UsersRepository } from '../../store/repositories/users-repository.ts';
import type { AuditService } from '../orgs/audit-service.ts';
import type { ScimAccess } from './scim-access.ts';
import type { ScimCaller } from './scim-tokens-service.ts';

// SCIM Users of an organisation (RFC 7644; docs/teams.md, "SCIM"). A User is a link
// between the organisation and an account: provisioning makes the account (or links
// the existing account with that address when it is already a member here, its owner
// confirmed the address or SCIM made it), and the link's `active` decides the membership at once.
// Everything is scoped to the token's organisation: another organisation's ids are 404.

/** Marks an account made by SCIM: no password, it signs in another way (never matches a password). */
const NO_PASSWORD = 'scim$no-password';
export const MAX_PAGE = 100;

export interface ScimPage<T> {
  total: number;
  startIndex: number;
  items: T[];
}

/** RFC 7644 §3.4.2.4: startIndex below 1 is 1, a negative count is 0; at most MAX_PAGE. */
export function page(startIndex: number | undefined, count: number | undefined): { offset: number; limit: number; startIndex: number } {
  const start = Math.max(1, Math.min(startIndex ?? 1, 1_000_000_000));
  const limit = Math.max(0, Math.min(count ?? MAX_PAGE, MAX_PAGE));
  return { offset: start - 1, limit, startIndex: start };
}

export function scimUsersService(d: {
  scim: ScimRepository;
  users: Pick<UsersRepository, 'findByEmailWithPassword' | 'create'>;
  organisations: Pick<OrganisationsRepository, 'roleOf'>;
  access: ScimAccess;
  audit: Pick<AuditService, 'record'>;
  clock: Clock;
  newOrgPlan: UserPlan;
}) {
  const missing = () => scimNotFound('No such User');

  async function one(caller: ScimCaller, id: string): Promise<ScimUserRow> {
    return (await d.scim.getUser(caller.orgId, id)) ?? Promise.reject(missing());
  }

  /** The account a new User links to: the one with that address when allowed, else a new one. */
  async function accountFor(caller: ScimCaller, email: string): Promise<{ userId: string; created: boolean }> {
    const existing = await d.users.findByEmailWithPassword(email);
    if (existing) {
      const member = (await d.organisations.roleOf(caller.orgId, existing.id)) !== null;
      // An account SCIM made (no password) belongs to whoever the identity providers say it is.
      const madeByScim = existing.passwordHash === NO_PASSWORD;
      if (!member && !madeByScim && !(await d.scim.addressConfirmed(existing.id, email))) {
        throw scimConflict(
          'An account with this address exists and its owner has not confirmed the address; invite them, or have them confirm it, then provision again',
        );
      }
      if (await d.scim.linkOf(caller.orgId, existing.id)) throw scimConflict('This account is already provisioned in this organisation');
      return { userId: existing.id, created: false };
    }
    const id = randomUUID();
    const made = await d.users.create({ id, email, passwordHash: NO_PASSWORD, plan: d.newOrgPlan, now: d.clock.now() });
    if (!made) throw scimConflict('An account with this address was made at the same moment; try again');
    return { userId: id, created: true };
  }

  const fieldsOf = (u: ScimUserRow): ScimUserFields => ({
    userName: u.userName,
    externalId: u.externalId,
    displayName: u.displayName,
    givenName: u.givenName,
    familyName: u.familyName,
    active: u.active,
  });

  async function change(caller: ScimCaller, before: ScimUserRow, f: Partial<ScimUserFields>): Promise<ScimUserRow> {
    if (f.userName !== undefined && (await d.scim.userNameTaken(caller.orgId, f.userName, before.id))) throw scimConflict('userName is already in use');
    const after = await d.scim.updateUser(caller.orgId, before.id, f, d.clock.now());
    if (!after) throw missing();
    await d.access.sync(caller.orgId, caller.actor, after);
    const changed = Object.fromEntries(Object.entries(f).filter(([k, v]) => fieldsOf(before)[k as keyof ScimUserFields] !== v));
    if (Object.keys(changed).length) {
      const was = Object.fromEntries(Object.keys(changed).map((k) => [k, fieldsOf(before)[k as keyof ScimUserFields]]));
      await d.audit.record(caller.orgId, caller.actor, 'scim.user_updated', `user:${after.email}`, { before: was, after: changed });
    }
    return after;
  }

  return {
    async list(caller: ScimCaller, q: { filter?: string; startIndex?: number; count?: number }): Promise<ScimPage<ScimUserRow>> {
      const clauses = q.filter === undefined ? [] : parseScimFilter(q.filter, ['userName', 'externalId', 'id', 'displayName']);
      const p = page(q.startIndex, q.count);
      const r = await d.scim.listUsers(caller.orgId, clauses, p.offset, p.limit);
      return { total: r.total, startIndex: p.startIndex, items: r.rows };
    },

    get: one,

    async groupsOf(caller: ScimCaller, id: string) {
      return d.scim.groupsOfUser(caller.orgId, id);
    },

    async create(caller: ScimCaller, body: unknown): Promise<ScimUserRow> {
      const input = parseScimUser(body);
      if (await d.scim.userNameTaken(caller.orgId, input.userName, null)) throw scimConflict('userName is already in use');
      const account = await accountFor(caller, input.email);
      const id = randomUUID();
      const { email: _e, ...fields } = input;
      if (!(await d.scim.insertUser({ id, orgId: caller.orgId, userId: account.userId, now: d.clock.now(), ...fields }))) {
        throw scimConflict('userName is already in use');
      }
      const row = await one(caller, id);
      await d.audit.record(caller.orgId, caller.actor, 'scim.user_created', `user:${row.email}`, {
        after: { userName: row.userName, externalId: row.externalId, active: row.active, account: account.created ? 'created' : 'linked' },
      });
      await d.access.sync(caller.orgId, caller.actor, row);
      return row;
    },

    async replace(caller: ScimCaller, id: string, body: unknown): Promise<ScimUserRow> {
      const before = await one(caller, id);
      const { email: _e, ...fields } = parseScimUser(body);
      return change(caller, before, fields);
    },

    async patch(caller: ScimCaller, id: string, body: unknown): Promise<ScimUserRow> {
      const before = await one(caller, id);
      return change(caller, before, parseUserPatch(body));
    },

    /** Deletes the link: the membership goes (an owner's stays); the account is the person's and stays. */
    async remove(caller: ScimCaller, id: string): Promise<void> {
      const before = await one(caller, id);
      if (!(await d.scim.deleteUser(caller.orgId, id))) throw missing();
      await d.access.sync(caller.orgId, caller.actor, before, true);
      await d.audit.record(caller.orgId, caller.actor, 'scim.user_deleted', `user:${before.email}`, {
        before: { userName: before.userName, externalId: before.externalId },
      });
    },
  };
}

export type ScimUsersService = ReturnType<typeof scimUsersService>;
export type { ScimUserRow };
