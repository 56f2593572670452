import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';

/**
 * Rows of one vendor and source type not yet closed, except `keepIds`: what a
 * complete list of open records no longer holds (resolution and completion by
 * absence, docs/ingestion.md). Both tables share the columns used here.
 */
export async function openNotIn<T extends 'incidents' | 'maintenances'>(
  db: Kysely<Database>,
  table: T,
  closedStatus: string,
  vendor: string,
  source: string,
  keepIds: string[],
): Promise<Database[T][]> {
  let q = db
    .selectFrom(table as 'incidents')
    .selectAll()
    .where('vendor', '=', vendor)
    .where('source', '=', source)
    .where('status', '!=', closedStatus);
  if (keepIds.length) q = q.where('id', 'not in', keepIds);
  return (await q.execute()) as Database[T][];
}
