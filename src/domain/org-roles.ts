// Roles inside an organisation (docs/teams.md, "Roles"). Each role holds every right
// of the roles below it:
//   owner   everything, including deleting the organisation and its plan's owner duties
//   admin   members, invitations, organisation keys, SSO and SCIM settings
//   editor  watchlists, alert routes and preferences, boards, status pages, services
//   viewer  reads only
// Pure: no I/O.

export const ORG_ROLES = ['owner', 'admin', 'editor', 'viewer'] as const;
export type OrgRole = (typeof ORG_ROLES)[number];

const RANK: Record<OrgRole, number> = { viewer: 0, editor: 1, admin: 2, owner: 3 };

export const isOrgRole = (v: unknown): v is OrgRole => typeof v === 'string' && (ORG_ROLES as readonly string[]).includes(v);

export const roleAtLeast = (role: OrgRole | null, needed: OrgRole) => role !== null && RANK[role] >= RANK[needed];

/** The roles a member of `role` may hand out (invite as, change to): never above their own. */
export const canGrant = (role: OrgRole, granted: OrgRole) => roleAtLeast(role, 'admin') && RANK[granted] <= RANK[role];

/** The lower of two roles (an organisation key never acts above the role it was given). */
export const lowerRole = (a: OrgRole, b: OrgRole): OrgRole => (RANK[a] <= RANK[b] ? a : b);
