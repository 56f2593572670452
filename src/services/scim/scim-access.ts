import { provisionedRole } from '../../domain/scim-roles.ts';
import type { ScimRepository, ScimUserRow } from '../../store/repositories/scim-repository.ts';
import type { ScimCaller } from './scim-tokens-service.ts';
import type { AuditService } from '../orgs/audit-service.ts';
import type { OrgsService } from '../orgs/orgs-service.ts';
import type { AuditActor } from '../../domain/audit-chain.ts';

// What a SCIM user's state means for their membership (docs/teams.md, "SCIM"): an
// active user is a member with the highest role of their mapped groups (viewer without
// one); an inactive or deleted one is no member. Owners are left alone. Each change is
// audited as the SCIM token (or the admin who mapped a group) that caused it.

export function scimAccess(d: { scim: Pick<ScimRepository, 'groupRolesOf'>; orgs: Pick<OrgsService, 'provisionAccess'>; audit: Pick<AuditService, 'record'> }) {
  return {
    /** Brings the membership of a SCIM user's account in line; `removed` when the link itself is gone. */
    async sync(
      orgId: string,
      who: ScimCaller['actor'] | AuditActor,
      user: Pick<ScimUserRow, 'id' | 'userId' | 'email' | 'active'>,
      removed = false,
    ): Promise<void> {
      const wanted = !removed && user.active ? provisionedRole(await d.scim.groupRolesOf(user.id)) : null;
      const { before, after } = await d.orgs.provisionAccess(orgId, user.userId, wanted);
      if (before === after) return;
      const target = `user:${user.email}`;
      if (before === null) await d.audit.record(orgId, who, 'member.joined', target, { after: { role: after, via: 'scim' } });
      else if (after === null) await d.audit.record(orgId, who, 'member.removed', target, { before: { role: before }, after: { via: 'scim' } });
      else await d.audit.record(orgId, who, 'member.role_changed', target, { before: { role: before }, after: { role: after, via: 'scim' } });
    },
  };
}

export type ScimAccess = ReturnType<typeof scimAccess>;
