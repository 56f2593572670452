import type { Plan } from '../domain/plans.ts';

/** How a caller proved who it is. */
type AuthKind = 'anonymous' | 'key' | 'session' | 'oauth';

/** Who is asking: services apply plan rules (data window, gates) from this. */
export interface Viewer {
  plan: Plan;
  userId: string | null;
  authKind: AuthKind;
  /** The API key used, when authKind is 'key'. */
  keyId: string | null;
  /**
   * Set on a cached route when the account owns no private page: the answer is keyed and
   * computed for the public audience, so it is shared (services/private-readers.ts).
   */
  readsPublic?: boolean;
}

export const anonymousViewer: Viewer = { plan: 'anonymous', userId: null, authKind: 'anonymous', keyId: null };

/** A viewer that is a known user (key or session). */
export type UserViewer = Viewer & { userId: string };
