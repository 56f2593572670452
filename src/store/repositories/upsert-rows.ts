import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';

/** Rows per statement: 15 columns each at most, far below both dialects' bind-parameter limits. */
const CHUNK = 200;

type RecordTable = 'incidents' | 'maintenances' | 'advisories' | 'release_updates';

/**
 * Inserts `rows` or replaces the stored row of the same id, many rows per statement:
 * one poll's changed records cost one round trip instead of one each
 * (docs/ingestion.md, "Profile of a round"). Every column but `id` takes the new value.
 */
export async function upsertRows<T extends RecordTable>(db: Kysely<Database>, table: T, rows: Database[T][]): Promise<void> {
  if (!rows.length) return;
  const columns = Object.keys(rows[0]!).filter((c) => c !== 'id');
  for (let i = 0; i < rows.length; i += CHUNK) {
    await db
      .insertInto(table as 'incidents')
      .values(rows.slice(i, i + CHUNK) as Database['incidents'][])
      .onConflict((oc) => oc.column('id').doUpdateSet((eb) => Object.fromEntries(columns.map((c) => [c, eb.ref(`excluded.${c}` as 'excluded.title')]))))
      .execute();
  }
}
