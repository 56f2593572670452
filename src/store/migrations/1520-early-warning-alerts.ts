import type { Kysely } from 'kysely';

// Early-warning alerts (docs/alerts.md "Early warning"): a delivery row may post into the
// thread of another entity than its own (`thread_entity`, '' = its own): a vendor incident
// that confirmed a signal continues the signal's thread. Transitions are read by time when
// their alerts are written, hence the index.
export function earlyWarningAlertsMigration() {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable('deliveries')
        .addColumn('thread_entity', 'text', (c) => c.notNull().defaultTo(''))
        .execute();
      await db.schema.createIndex('ew_transitions_at').on('ew_transitions').column('at').execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropIndex('ew_transitions_at').execute();
      await db.schema.alterTable('deliveries').dropColumn('thread_entity').execute();
    },
  };
}
