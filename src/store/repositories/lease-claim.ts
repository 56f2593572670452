import { type Expression, type ExpressionBuilder, type Kysely, type SqlBool, sql } from 'kysely';
import type { Database } from '../schema.ts';

// The lease claim shared by the scheduled rows (sources, probes, telemetry connectors):
// due rows whose lease is free or expired are read, then taken by an UPDATE that repeats
// the lease check, so two instances racing for one row never both get it (PostgreSQL
// re-evaluates the condition on the locked row; SQLite has a single writer).

/** Tables whose rows are run on a schedule under a lease (`lease_owner`, `lease_until`). */
export type LeasedTable = 'sources' | 'probes' | 'telemetry_connectors';

// The table is the caller's, so the builder is untyped here; rows go back typed.
type AnyDb = Kysely<Record<string, Record<string, unknown>>>;
type AnyEb = ExpressionBuilder<Record<string, Record<string, unknown>>, string>;

/** The lease is free: never taken, released, or expired at `now` (ISO); for any leased table's query. */
export const leaseFree =
  (now: string) =>
  (eb: ExpressionBuilder<any, any>): Expression<SqlBool> =>
    eb.or([eb('lease_owner', 'is', null), eb('lease_until', 'is', null), eb('lease_until', '<', now)]);

/** Due at `now`: never run, or its next run has come. */
const dueAt = (column: string, now: string) => (eb: AnyEb) => eb.or([eb(column, 'is', null), eb(column, '<=', now)]);

export interface LeaseClaim {
  owner: string;
  now: Date;
  leaseMs: number;
  /** Column of the next run; null takes rows whether due or not (a forced poll). */
  dueColumn: string | null;
  /** Never run first, then the longest overdue (by this column), then id; null: by id alone. */
  overdueFirst: string | null;
  limit?: number;
  /** Narrows the rows (enabled, not retired, one vendor). */
  where?: (eb: AnyEb) => Expression<SqlBool>;
  /** Ids per UPDATE (a long list is taken in several). */
  chunk?: number;
}

/** Takes the leases of due rows with free leases; the rows taken, as written. */
export async function claimLeases<T extends LeasedTable>(db: Kysely<Database>, table: T, o: LeaseClaim): Promise<Database[T][]> {
  const q = db as unknown as AnyDb;
  const from: string = table;
  const now = o.now.toISOString();
  const until = new Date(o.now.getTime() + o.leaseMs).toISOString();
  let select = q.selectFrom(from).select('id').where(leaseFree(now));
  if (o.where) select = select.where(o.where);
  if (o.dueColumn) select = select.where(dueAt(o.dueColumn, now));
  // NULL sorts differently per dialect: coalesce puts never-run rows first on both.
  if (o.overdueFirst) select = select.orderBy(sql`coalesce(${sql.ref(o.overdueFirst)}, '')`);
  select = select.orderBy('id');
  if (o.limit !== undefined) select = select.limit(o.limit);
  const ids = (await select.execute()).map((r) => String(r.id));
  const chunk = o.chunk ?? 500;
  const taken: Database[T][] = [];
  for (let i = 0; i < ids.length; i += chunk) {
    const rows = await q
      .updateTable(from)
      .set({ lease_owner: o.owner, lease_until: until })
      .where('id', 'in', ids.slice(i, i + chunk))
      .where(leaseFree(now))
      .returningAll()
      .execute();
    taken.push(...(rows as unknown as Database[T][]));
  }
  return taken;
}
