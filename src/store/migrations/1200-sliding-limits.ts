import type { Kysely } from 'kysely';

// Limits over a sliding window kept in the store (docs/security.md, "Confirmation
// mails"): one row per counted subject with the times it was counted, so the limit
// holds across instances and restarts. `expires_at` (the last time plus the window)
// lets rows that no longer count be pruned.
export function slidingLimitsMigration() {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('sliding_limits')
        .addColumn('subject', 'text', (c) => c.primaryKey())
        .addColumn('stamps', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('sliding_limits_expires').on('sliding_limits').column('expires_at').execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable('sliding_limits').execute();
    },
  };
}
