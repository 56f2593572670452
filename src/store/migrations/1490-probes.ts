import type { Kysely } from 'kysely';

// Probes of vendors' public endpoints (docs/early-warning.md "Probes"): one row per probe the
// catalog asks for, instance-wide. The row is leased like a source (one instance runs a probe
// per interval across the fleet) and holds the probe's baseline: its last samples as a JSON
// list (latency percentiles and error rate are computed from them), whether it is anomalous,
// and how far dismissed false alarms relaxed its rule. A probe the catalog no longer lists is
// marked retired, not deleted, so its figures stay readable.
// Telemetry connectors (docs/early-warning.md "Prometheus connectors"): an organisation's
// Prometheus with its queries, the bearer token sealed with the secrets key, the state of each
// query's last evaluation and the connector's health; leased like probes.
export function probesMigration() {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('probes')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('vendor', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('target', 'text', (c) => c.notNull())
        .addColumn('spec', 'text', (c) => c.notNull())
        .addColumn('retired', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('next_run_at', 'text')
        .addColumn('lease_owner', 'text')
        .addColumn('lease_until', 'text')
        .addColumn('samples', 'text', (c) => c.notNull())
        .addColumn('anomalous', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('anomaly_reason', 'text')
        .addColumn('last_sample_at', 'text')
        .addColumn('relax_steps', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('relaxed_at', 'text')
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('probes_due').on('probes').columns(['retired', 'next_run_at']).execute();
      await db.schema.createIndex('probes_vendor').on('probes').column('vendor').execute();

      await db.schema
        .createTable('telemetry_connectors')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('org_id', 'text', (c) => c.notNull().references('organisations.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('base_url', 'text', (c) => c.notNull())
        .addColumn('token', 'text')
        .addColumn('token_last_four', 'text')
        .addColumn('queries', 'text', (c) => c.notNull())
        .addColumn('enabled', 'integer', (c) => c.notNull())
        .addColumn('query_states', 'text', (c) => c.notNull())
        .addColumn('health', 'text', (c) => c.notNull())
        .addColumn('last_error', 'text')
        .addColumn('last_evaluated_at', 'text')
        .addColumn('next_run_at', 'text')
        .addColumn('lease_owner', 'text')
        .addColumn('lease_until', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('telemetry_connectors_name', ['org_id', 'name'])
        .execute();
      await db.schema.createIndex('telemetry_connectors_due').on('telemetry_connectors').columns(['enabled', 'next_run_at']).execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable('telemetry_connectors').execute();
      await db.schema.dropTable('probes').execute();
    },
  };
}
