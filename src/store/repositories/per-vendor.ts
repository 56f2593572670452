import type { Kysely, SelectQueryBuilder } from 'kysely';
import type { Database } from '../schema.ts';

/**
 * The first `perVendor` rows of each vendor from a filtered query, in one query:
 * rows are numbered per vendor with a window function (SQLite >= 3.25 and
 * PostgreSQL) and cut at `perVendor`. Result: grouped by vendor, in order.
 *
 * Only the key columns go through the numbering (id, vendor, the order column);
 * the whole rows (titles, update histories) are read for the kept ids alone. A
 * whole-catalog dashboard numbers ~150,000 incidents to keep ~7,600
 * (docs/benchmarks.md "Dashboard bundle for the whole catalog").
 */
export async function firstPerVendor<T>(
  db: Kysely<Database>,
  table: 'incidents' | 'maintenances' | 'advisories' | 'release_updates',
  base: SelectQueryBuilder<any, any, any>,
  orderColumn: string,
  direction: 'asc' | 'desc',
  perVendor: number,
  map: (row: any) => T,
): Promise<Map<string, T[]>> {
  const ranked = base.select(['id as rid', 'vendor as rvendor']).select((eb: any) =>
    eb.fn
      .agg('row_number')
      .over((ob: any) => ob.partitionBy('vendor').orderBy(orderColumn, direction).orderBy('id', direction))
      .as('rn'),
  );
  const rows = await (db as Kysely<any>)
    .selectFrom(ranked.as('ranked'))
    .innerJoin(table as string, `${table}.id`, 'ranked.rid')
    .selectAll(table as string)
    .where('ranked.rn', '<=', perVendor)
    .orderBy('ranked.rvendor')
    .orderBy('ranked.rn')
    .execute();
  const out = new Map<string, T[]>();
  for (const row of rows) {
    const list = out.get(row.vendor);
    if (list) list.push(map(row));
    else out.set(row.vendor, [map(row)]);
  }
  return out;
}
