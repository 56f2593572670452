import type { Kysely } from 'kysely';

// Alerts held for an organisation whose notification preferences or alert routes this
// instance cannot open (sealed with a key it does not have; docs/security.md "Channel
// secrets"): one row per (organisation, event), holding a copy of the event, so the
// dispatcher's cursor moves on for everyone else and the event log's pruning cannot lose
// them. The dispatcher routes them, in order, once the organisation opens again.
export function dispatchHoldsMigration() {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('dispatch_holds')
        .addColumn('org_id', 'text', (c) => c.notNull().references('organisations.id').onDelete('cascade'))
        .addColumn('event_seq', 'bigint', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('vendor', 'text', (c) => c.notNull())
        .addColumn('entity_kind', 'text', (c) => c.notNull())
        .addColumn('entity_id', 'text', (c) => c.notNull())
        .addColumn('occurred_at', 'text', (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('held_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('dispatch_holds_pk', ['org_id', 'event_seq'])
        .execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable('dispatch_holds').execute();
    },
  };
}
