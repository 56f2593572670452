import type { Kysely } from 'kysely';

// The hosts a catalog vendor documents for its API, CDN and console (docs/diagnose.md
// "Hosts"), as a JSON array; user-added pages have none.
export function vendorHostnamesMigration() {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable('vendors')
        .addColumn('hostnames', 'text', (c) => c.notNull().defaultTo('[]'))
        .execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.alterTable('vendors').dropColumn('hostnames').execute();
    },
  };
}
