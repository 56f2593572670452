// Who a read is for (docs/per-user.md "Custom status pages"): a vendor an organisation
// added is visible to its members only. Readers that answer a person carry the id of the
// organisation they act for (null for anonymous callers and public surfaces: feeds, badges, boards, metrics); the
// poller and the alert worker read for everyone ('internal'). Pure: no I/O.

export type Audience = { readonly orgId: string | null } | 'internal';

/** Public surfaces: only the public catalog. */
export const PUBLIC_AUDIENCE: Audience = { orgId: null };

export const INTERNAL_AUDIENCE: Audience = 'internal';

export const audienceOf = (orgId: string | null): Audience => ({ orgId });

/** Whether a vendor owned by `ownerId` (null: public) is visible to `audience`. */
export function canSee(ownerId: string | null, audience: Audience): boolean {
  if (ownerId === null || audience === 'internal') return true;
  return audience.orgId !== null && audience.orgId === ownerId;
}
