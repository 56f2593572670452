import type { Kysely } from 'kysely';

// The record an alert is about, stored once per event instead of on every
// delivery row (docs/alerts.md "Dispatcher"): an incident watched by 10,000
// users wrote its JSON 10,000 times. Rows written from now on carry an empty
// `payload` and are read with the event's payload from `alert_payloads`; rows
// written before keep theirs and read as they always did. Payloads outlive the
// event log's pruning, like the rows that reference them.
export function alertPayloadsMigration() {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('alert_payloads')
        .addColumn('event_seq', 'bigint', (c) => c.primaryKey())
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
    },
  };
}
