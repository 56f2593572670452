import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect.ts';

// Status pages users add by URL (docs/per-user.md "Custom status pages"). A vendor row
// with an `owner_id` is private to that account: every read path outside its owner's
// answers 404 for it. It goes with the account (and its sources and records with it,
// through the existing vendor foreign keys). `sources.guarded` marks a URL a user gave:
// the poller sends even its first request through the outbound guard.
export function customSourcesMigration(_dialect: Dialect) {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable('vendors')
        .addColumn('owner_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
        .execute();
      await db.schema.alterTable('vendors').addColumn('added_at', 'text').execute();
      await db.schema
        .alterTable('sources')
        .addColumn('guarded', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.createIndex('vendors_owner').on('vendors').column('owner_id').execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropIndex('vendors_owner').execute();
      await db.schema.alterTable('sources').dropColumn('guarded').execute();
      await db.schema.alterTable('vendors').dropColumn('added_at').execute();
      await db.schema.alterTable('vendors').dropColumn('owner_id').execute();
    },
  };
}
