import type { Kysely } from 'kysely';

// Early warning (docs/early-warning.md): observations of an organisation's own inputs,
// the signals fused from them and every transition of a signal; the organisation's
// inbound signing secret (sealed with the secrets key, like every channel secret) and
// the inbound message ids seen recently (the replay check). Everything goes with its
// organisation. Strength and confidence are stored as integers (per mille, per cent) so
// both stores hold exactly the same figures.
export function earlyWarningMigration() {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('ew_signals')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('org_id', 'text', (c) => c.notNull().references('organisations.id').onDelete('cascade'))
        .addColumn('vendor', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('confidence_pc', 'integer', (c) => c.notNull())
        .addColumn('components', 'text', (c) => c.notNull())
        .addColumn('regions', 'text', (c) => c.notNull())
        .addColumn('opened_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addColumn('last_observed_at', 'text', (c) => c.notNull())
        .addColumn('closed_at', 'text')
        .addColumn('incident_id', 'text')
        .execute();
      await db.schema.createIndex('ew_signals_org_vendor').on('ew_signals').columns(['org_id', 'vendor', 'state']).execute();
      await db.schema.createIndex('ew_signals_state').on('ew_signals').columns(['state', 'vendor']).execute();

      await db.schema
        .createTable('ew_observations')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('org_id', 'text', (c) => c.notNull().references('organisations.id').onDelete('cascade'))
        .addColumn('signal_id', 'text', (c) => c.references('ew_signals.id').onDelete('set null'))
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('vendor', 'text', (c) => c.notNull())
        .addColumn('components', 'text', (c) => c.notNull())
        .addColumn('regions', 'text', (c) => c.notNull())
        .addColumn('strength_pm', 'integer', (c) => c.notNull())
        .addColumn('summary', 'text', (c) => c.notNull())
        .addColumn('actor', 'text', (c) => c.notNull())
        .addColumn('external_id', 'text')
        .addColumn('observed_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('ew_observations_org_vendor').on('ew_observations').columns(['org_id', 'vendor', 'observed_at']).execute();
      await db.schema.createIndex('ew_observations_signal').on('ew_observations').column('signal_id').execute();
      await db.schema.createIndex('ew_observations_actor').on('ew_observations').columns(['org_id', 'actor', 'observed_at']).execute();

      await db.schema
        .createTable('ew_transitions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('signal_id', 'text', (c) => c.notNull().references('ew_signals.id').onDelete('cascade'))
        /** 0 for the opening, then 1, 2, …: the order of a signal's transitions, whatever their times. */
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('from_state', 'text')
        .addColumn('to_state', 'text', (c) => c.notNull())
        .addColumn('at', 'text', (c) => c.notNull())
        .addColumn('actor', 'text', (c) => c.notNull())
        .addColumn('reason', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('ew_transitions_signal').on('ew_transitions').columns(['signal_id', 'position']).execute();

      await db.schema
        .createTable('ew_inbound_secrets')
        .addColumn('org_id', 'text', (c) => c.primaryKey().references('organisations.id').onDelete('cascade'))
        .addColumn('secret', 'text', (c) => c.notNull())
        .addColumn('last_four', 'text', (c) => c.notNull())
        .addColumn('created_by', 'text', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('ew_inbound_messages')
        .addColumn('org_id', 'text', (c) => c.notNull().references('organisations.id').onDelete('cascade'))
        .addColumn('message_id', 'text', (c) => c.notNull())
        .addColumn('received_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('ew_inbound_messages_pk', ['org_id', 'message_id'])
        .execute();
      await db.schema.createIndex('ew_inbound_messages_received').on('ew_inbound_messages').column('received_at').execute();
    },
    async down(db: Kysely<any>) {
      for (const t of ['ew_inbound_messages', 'ew_inbound_secrets', 'ew_transitions', 'ew_observations', 'ew_signals']) await db.schema.dropTable(t).execute();
    },
  };
}
