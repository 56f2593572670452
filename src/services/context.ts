import { DomainError, roleRequired } from '../domain/errors.ts';
import { type OrgRole, roleAtLeast } from '../domain/org-roles.ts';
import type { Plan } from '../domain/plans.ts';

/** How a caller proved who it is. */
type AuthKind = 'anonymous' | 'key' | 'session' | 'oauth';

/**
 * Who is asking, passed to every use case: the person (if any), the organisation they act
 * for and their role in it (docs/teams.md, "Who a request acts for"). Services apply plan
 * rules (data window, gates) and role checks from this, and scope every read and write to
 * `orgId`.
 */
export interface Viewer {
  plan: Plan;
  /** The person; null for anonymous callers and organisation keys. */
  userId: string | null;
  /** The organisation acted for; null for anonymous callers. */
  orgId: string | null;
  role: OrgRole | null;
  authKind: AuthKind;
  /** The API key used, when authKind is 'key'. */
  keyId: string | null;
  /** Client address of the request (audit log). */
  address?: string | null;
  /**
   * Set on a cached route when the organisation owns no private page: the answer is keyed and
   * computed for the public audience, so it is shared (services/access/private-readers.ts).
   */
  readsPublic?: boolean;
}

export const anonymousViewer: Viewer = { plan: 'anonymous', userId: null, orgId: null, role: null, authKind: 'anonymous', keyId: null };

/** A viewer acting for an organisation (a member's key or session, an organisation key, OAuth). */
export type OrgViewer = Viewer & { orgId: string; role: OrgRole };

/** A viewer that is a known person acting for an organisation (member key, session, OAuth). */
export type UserViewer = OrgViewer & { userId: string };

/**
 * The organisation whose data a use case reads or changes, checked against the role the
 * action needs (docs/teams.md, "Roles"): viewers read, editors change watchlists,
 * preferences, boards and status pages. Anonymous callers are refused.
 */
export function ownerOrg(viewer: Viewer, needed: OrgRole = 'viewer'): string {
  if (!viewer.orgId) throw new DomainError('unauthorized', 'Authentication required: send a valid API key or sign in');
  if (!roleAtLeast(viewer.role, needed)) throw roleRequired(viewer.role, needed);
  return viewer.orgId;
}
