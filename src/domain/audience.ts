// Who a read is for (docs/per-user.md "Custom status pages"): a vendor a user added is
// visible to its owner only. Readers that answer a person carry that person's id (null
// for anonymous callers and public surfaces: feeds, badges, boards, metrics); the
// poller and the alert worker read for everyone ('internal'). Pure: no I/O.

export type Audience = { readonly userId: string | null } | 'internal';

/** Public surfaces: only the public catalog. */
export const PUBLIC_AUDIENCE: Audience = { userId: null };

export const INTERNAL_AUDIENCE: Audience = 'internal';

export const audienceOf = (userId: string | null): Audience => ({ userId });

/** Whether a vendor owned by `ownerId` (null: public) is visible to `audience`. */
export function canSee(ownerId: string | null, audience: Audience): boolean {
  if (ownerId === null || audience === 'internal') return true;
  return audience.userId !== null && audience.userId === ownerId;
}
