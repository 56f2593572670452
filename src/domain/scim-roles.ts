import { type OrgRole, roleAtLeast } from './org-roles.ts';

// Which role SCIM gives a member (docs/teams.md, "SCIM"): the highest role among the
// groups they are in that map to one, else the organisation's default (viewer). SCIM
// never makes an owner, and never changes or removes one. Pure: no I/O.

/** Roles a group may give. */
export const SCIM_GROUP_ROLES = ['viewer', 'editor', 'admin'] as const;
export type ScimGroupRole = (typeof SCIM_GROUP_ROLES)[number];
export const DEFAULT_SCIM_ROLE: ScimGroupRole = 'viewer';

export function provisionedRole(groupRoles: readonly (string | null)[], fallback: ScimGroupRole = DEFAULT_SCIM_ROLE): ScimGroupRole {
  let best: ScimGroupRole = fallback;
  for (const r of groupRoles) {
    if (r && (SCIM_GROUP_ROLES as readonly string[]).includes(r) && roleAtLeast(r as OrgRole, best)) best = r as ScimGroupRole;
  }
  return best;
}

/** What SCIM does to a membership: the role it should have now (null: no membership), leaving owners alone. */
export function membershipChange(current: OrgRole | null, wanted: ScimGroupRole | null): { action: 'none' | 'add' | 'set' | 'remove'; role: OrgRole | null } {
  if (current === 'owner') return { action: 'none', role: current };
  if (wanted === null) return current === null ? { action: 'none', role: null } : { action: 'remove', role: null };
  if (current === null) return { action: 'add', role: wanted };
  return current === wanted ? { action: 'none', role: current } : { action: 'set', role: wanted };
}
