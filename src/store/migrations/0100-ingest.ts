import type { Kysely } from 'kysely';

// Ingestion bookkeeping: a key/value table for store-wide facts. Its first use is
// `data_mode` (live | demo), so a normal start can tell that a store holds
// simulated data and never serve it.
export function ingestMigration() {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('store_meta')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      // The scheduler claims due sources ordered by next poll time among free leases.
      await db.schema.createIndex('sources_lease').on('sources').columns(['lease_until', 'next_poll_at']).execute();
      // Events are read by vendor from a sequence onwards.
      await db.schema.createIndex('events_vendor_seq').on('events').columns(['vendor', 'seq']).execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropIndex('events_vendor_seq').execute();
      await db.schema.dropIndex('sources_lease').execute();
      await db.schema.dropTable('store_meta').execute();
    },
  };
}
