import type { Kysely } from 'kysely';

// Every uncached list answer states the last successful poll of any source (the
// envelope's `lastUpdated`, docs/api.md): `max(last_success_at)` read through an index
// instead of a scan of every source, on the API thread, while ingestion writes
// (docs/ingestion.md, "Profile of a round").
export function freshnessIndexMigration() {
  return {
    async up(db: Kysely<any>) {
      await db.schema.createIndex('sources_last_success').on('sources').column('last_success_at').execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropIndex('sources_last_success').execute();
    },
  };
}
