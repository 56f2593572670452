import type { Kysely } from 'kysely';

// Adaptive polling keeps each source's schedule in the store, so that every instance polls
// it on the same schedule (docs/ingestion.md "Adaptive polling"); vendor push hooks are
// secret URLs whose token is kept only as its SHA-256 (docs/ingestion.md "Push from vendors").
export function pushAndAdaptivePollingMigration() {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable('sources')
        .addColumn('hot', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .alterTable('sources')
        .addColumn('quiet_polls', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.alterTable('sources').addColumn('schedule_seconds', 'integer').execute();
      await db.schema.alterTable('sources').addColumn('schedule_reason', 'text').execute();
      await db.schema.alterTable('sources').addColumn('pushed_at', 'text').execute();
      await db.schema
        .createTable('push_hooks')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('vendor', 'text', (c) => c.notNull().references('vendors.slug').onDelete('cascade'))
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('last_push_at', 'text')
        .addColumn('pushes', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable('push_hooks').execute();
      for (const col of ['pushed_at', 'schedule_reason', 'schedule_seconds', 'quiet_polls', 'hot'])
        await db.schema.alterTable('sources').dropColumn(col).execute();
    },
  };
}
