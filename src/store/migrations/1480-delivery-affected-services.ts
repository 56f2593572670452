import type { Kysely } from 'kysely';

// The organisation's services an alert hits, computed once per (event, organisation) when
// the row is written and sent alike on every attempt (docs/alert-routes.md "Affected services
// in alerts"): JSON, '' = the organisation had no services.
export function deliveryAffectedServicesMigration() {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable('deliveries')
        .addColumn('affected_services', 'text', (c) => c.notNull().defaultTo(''))
        .execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.alterTable('deliveries').dropColumn('affected_services').execute();
    },
  };
}
