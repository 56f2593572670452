import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect.ts';

// Alert delivery (docs/alerts.md).
//
// `alert_cursors`: how far the dispatcher has read the event log. Its row is
// written first in every dispatch transaction, so two dispatchers (two
// instances) take turns instead of both fanning out the same events.
//
// `deliveries`: one row per (event, user, channel), unique, so re-dispatching an
// event after a crash creates nothing twice. A row is due when `status` is
// `pending` and `next_attempt_at` has passed. Claiming sets `lease_owner` and
// moves `next_attempt_at` to the end of the lease: a worker killed mid-send leaves
// a row that becomes due again when its lease runs out (same id, at-least-once).
// The payload (the event's record) is kept on the row: events are pruned after
// EVENT_RETENTION_DAYS, and in-app and feed items outlive that.
//
// `delivery_attempts`: every attempt with its HTTP status, latency and error.
export function alertsMigration(dialect: Dialect) {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('alert_cursors')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('seq', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('deliveries')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('event_seq', 'bigint')
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('channel', 'text', (c) => c.notNull())
        .addColumn('event_type', 'text', (c) => c.notNull())
        .addColumn('vendor', 'text', (c) => c.notNull())
        .addColumn('entity_id', 'text', (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('occurred_at', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('next_attempt_at', 'text')
        .addColumn('lease_owner', 'text')
        .addColumn('last_status_code', 'integer')
        .addColumn('last_error', 'text')
        .addColumn('is_test', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('read_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addColumn('completed_at', 'text')
        .execute();
      // One delivery per (event, user, channel): a re-dispatched event adds nothing.
      await db.schema.createIndex('deliveries_event_user_channel').on('deliveries').columns(['event_seq', 'user_id', 'channel']).unique().execute();
      // Workers look for due rows.
      await db.schema.createIndex('deliveries_due').on('deliveries').columns(['status', 'next_attempt_at']).execute();
      // Per-user lists (deliveries, in-app notifications, feed items), newest first.
      await db.schema.createIndex('deliveries_user_channel').on('deliveries').columns(['user_id', 'channel', 'created_at']).execute();

      await db.schema
        .createTable('delivery_attempts')
        .addColumn('id', dialect === 'postgres' ? 'bigserial' : 'integer', (c) => (dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement()))
        .addColumn('delivery_id', 'text', (c) => c.notNull().references('deliveries.id').onDelete('cascade'))
        .addColumn('attempt', 'integer', (c) => c.notNull())
        .addColumn('started_at', 'text', (c) => c.notNull())
        .addColumn('status_code', 'integer')
        .addColumn('latency_ms', 'integer', (c) => c.notNull())
        .addColumn('error', 'text')
        .addColumn('outcome', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('delivery_attempts_delivery').on('delivery_attempts').columns(['delivery_id', 'attempt']).execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable('delivery_attempts').execute();
      await db.schema.dropTable('deliveries').execute();
      await db.schema.dropTable('alert_cursors').execute();
    },
  };
}
