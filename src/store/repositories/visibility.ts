import type { Kysely } from 'kysely';
import type { Audience } from '../../domain/audience.ts';
import type { Database } from '../schema.ts';

// One place for the rule "a private vendor is seen by its owner only" in SQL
// (docs/per-user.md "Custom status pages"): every read over vendor-keyed rows passes
// its query through here with the reader's audience.

/** The slugs `audience` must not see (a subquery over the indexed `owner_id`). */
export function hiddenSlugs(db: Kysely<Database>, audience: { orgId: string | null }) {
  let q = db.selectFrom('vendors').select('vendors.slug').where('vendors.owner_id', 'is not', null);
  if (audience.orgId !== null) q = q.where('vendors.owner_id', '!=', audience.orgId);
  return q;
}

/** Restricts a query over a table with a vendor column to the vendors `audience` may see. */
export function visibleTo<Q extends { where: (...args: any[]) => any }>(db: Kysely<Database>, q: Q, audience: Audience, column = 'vendor'): Q {
  if (audience === 'internal') return q;
  return q.where(column, 'not in', hiddenSlugs(db, audience)) as Q;
}

/** The same rule on the vendors table itself. */
export function ownVendorsOnly<Q extends { where: (...args: any[]) => any }>(q: Q, audience: Audience): Q {
  if (audience === 'internal') return q;
  const oid = audience.orgId;
  return (
    oid === null ? q.where('vendors.owner_id', 'is', null) : q.where((eb: any) => eb.or([eb('vendors.owner_id', 'is', null), eb('vendors.owner_id', '=', oid)]))
  ) as Q;
}
