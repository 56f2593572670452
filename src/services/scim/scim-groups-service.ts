import { randomUUID } from 'node:crypto';
import type { Clock } from '../../domain/clock.ts';
import { DomainError, notFound } from '../../domain/errors.ts';
import { canGrant } from '../../domain/org-roles.ts';
import { scimBadRequest, scimConflict, scimNotFound } from '../../domain/scim-errors.ts';
import { parseScimFilter } from '../../domain/scim-filter.ts';
import { type MemberOp, parseGroupPatch } from '../../domain/scim-patch.ts';
import { parseScimGroup } from '../../domain/scim-resources.ts';
import type { ScimGroupRole } from '../../domain/scim-roles.ts';
import type { ScimGroupRow, ScimRepository } from '../../store/repositories/scim-repository.ts';
import type { Viewer } from '../context.ts';
import type { AuditService } from '../orgs/audit-service.ts';
import type { ScimAccess } from './scim-access.ts';
import type { ScimCaller, ScimTokensService } from './scim-tokens-service.ts';
import { page, type ScimPage } from './scim-users-service.ts';
import type { AuditActor } from '../../domain/audit-chain.ts';

// SCIM Groups of an organisation (RFC 7644; docs/teams.md, "SCIM") and the role each
// gives its members. The identity provider manages names and members; an admin maps a
// group to a role (viewer, editor, admin; never owner) through the REST API. After any
// change, the memberships of the users concerned are brought in line (scim-access.ts).

export const MAX_SCIM_GROUPS = 1000;

export function scimGroupsService(d: {
  scim: ScimRepository;
  access: ScimAccess;
  tokens: Pick<ScimTokensService, 'adminIn'>;
  audit: Pick<AuditService, 'record' | 'actorOf'>;
  clock: Clock;
}) {
  const missing = () => scimNotFound('No such Group');

  async function one(caller: ScimCaller, id: string, withMembers = true): Promise<ScimGroupRow> {
    return (await d.scim.getGroup(caller.orgId, id, withMembers)) ?? Promise.reject(missing());
  }

  /** Member ids that must name users of this organisation (400 invalidValue otherwise). */
  async function known(orgId: string, ids: string[]) {
    if (!ids.length) return;
    const found = await d.scim.existingUserIds(orgId, ids);
    const unknown = ids.filter((id) => !found.has(id));
    if (unknown.length) throw scimBadRequest('invalidValue', `No such User: ${unknown.slice(0, 5).join(', ')}`);
  }

  /** Brings in line the memberships of these SCIM users (the ones still linked). */
  async function resync(orgId: string, who: AuditActor, ids: Iterable<string>) {
    const users = await d.scim.usersByIds(orgId, [...new Set(ids)]);
    for (const u of users) await d.access.sync(orgId, who, u);
  }

  async function apply(caller: ScimCaller, before: ScimGroupRow, change: { displayName?: string; externalId?: string | null; members: MemberOp[] }) {
    for (const m of change.members) if (m.kind === 'add' || m.kind === 'replace') await known(caller.orgId, m.ids);
    if (change.displayName !== undefined && (await d.scim.displayNameTaken(caller.orgId, change.displayName, before.id))) {
      throw scimConflict('displayName is already in use');
    }
    if (!(await d.scim.updateGroup(caller.orgId, before.id, change, d.clock.now()))) throw missing();
    const after = await one(caller, before.id);
    const was = new Set(before.members.map((m) => m.id));
    const now = new Set(after.members.map((m) => m.id));
    const added = [...now].filter((id) => !was.has(id));
    const removed = [...was].filter((id) => !now.has(id));
    if (added.length || removed.length || after.displayName !== before.displayName || after.externalId !== before.externalId) {
      await d.audit.record(caller.orgId, caller.actor, 'scim.group_updated', `scim-group:${after.id}`, {
        before: { displayName: before.displayName, externalId: before.externalId },
        after: { displayName: after.displayName, externalId: after.externalId, addedMembers: added.length, removedMembers: removed.length },
      });
    }
    if (before.role !== null) await resync(caller.orgId, caller.actor, [...added, ...removed]);
    return after;
  }

  return {
    async list(caller: ScimCaller, q: { filter?: string; startIndex?: number; count?: number; withMembers: boolean }): Promise<ScimPage<ScimGroupRow>> {
      const clauses = q.filter === undefined ? [] : parseScimFilter(q.filter, ['displayName', 'externalId', 'id']);
      const p = page(q.startIndex, q.count);
      const r = await d.scim.listGroups(caller.orgId, clauses, p.offset, p.limit, q.withMembers);
      return { total: r.total, startIndex: p.startIndex, items: r.rows };
    },

    get: one,

    async create(caller: ScimCaller, body: unknown): Promise<ScimGroupRow> {
      const input = parseScimGroup(body);
      await known(caller.orgId, input.members);
      if (await d.scim.displayNameTaken(caller.orgId, input.displayName, null)) throw scimConflict('displayName is already in use');
      if ((await d.scim.countGroups(caller.orgId)) >= MAX_SCIM_GROUPS)
        throw scimBadRequest('invalidValue', `An organisation holds at most ${MAX_SCIM_GROUPS} SCIM groups`);
      const id = randomUUID();
      if (!(await d.scim.insertGroup({ id, orgId: caller.orgId, ...input, now: d.clock.now() }))) throw scimConflict('displayName is already in use');
      await d.audit.record(caller.orgId, caller.actor, 'scim.group_created', `scim-group:${id}`, {
        after: { displayName: input.displayName, externalId: input.externalId, members: input.members.length },
      });
      // A new group maps to no role yet: its members' roles do not change.
      return one(caller, id);
    },

    async replace(caller: ScimCaller, id: string, body: unknown): Promise<ScimGroupRow> {
      const before = await one(caller, id);
      const input = parseScimGroup(body);
      return apply(caller, before, { displayName: input.displayName, externalId: input.externalId, members: [{ kind: 'replace', ids: input.members }] });
    },

    async patch(caller: ScimCaller, id: string, body: unknown): Promise<ScimGroupRow> {
      const before = await one(caller, id);
      return apply(caller, before, parseGroupPatch(body));
    },

    async remove(caller: ScimCaller, id: string): Promise<void> {
      const before = await one(caller, id);
      if (!(await d.scim.deleteGroup(caller.orgId, id))) throw missing();
      await d.audit.record(caller.orgId, caller.actor, 'scim.group_deleted', `scim-group:${id}`, {
        before: { displayName: before.displayName, role: before.role },
      });
      if (before.role !== null)
        await resync(
          caller.orgId,
          caller.actor,
          before.members.map((m) => m.id),
        );
    },

    // ------------------------------------------------------------- admins (REST)

    /** The organisation's SCIM groups with the role each gives (admins). */
    async summaries(viewer: Viewer, orgId: string) {
      const v = await d.tokens.adminIn(viewer, orgId);
      return d.scim.groupSummaries(v.orgId);
    },

    /** Maps a group to a role (null: none); its members' roles follow at once (admins, never above their own). */
    async setRole(viewer: Viewer, orgId: string, groupId: string, role: ScimGroupRole | null) {
      const v = await d.tokens.adminIn(viewer, orgId);
      if (role && !canGrant(v.role, role))
        throw new DomainError('role_required', `Only a member with role '${role}' or above may map a group to it`, { role: v.role, requiredRole: role });
      const before = await d.scim.getGroup(v.orgId, groupId);
      if (!before || !(await d.scim.setGroupRole(v.orgId, groupId, role, d.clock.now()))) throw notFound('No such SCIM group');
      const who = await d.audit.actorOf(v);
      await d.audit.record(v.orgId, who, 'scim.group_role_changed', `scim-group:${groupId}`, {
        before: { displayName: before.displayName, role: before.role },
        after: { role },
      });
      await resync(
        v.orgId,
        who,
        before.members.map((m) => m.id),
      );
      const after = (await d.scim.groupSummaries(v.orgId)).find((g) => g.id === groupId);
      if (!after) throw notFound('No such SCIM group');
      return after;
    },
  };
}

export type ScimGroupsService = ReturnType<typeof scimGroupsService>;
export type { ScimGroupRow };
