import type { Kysely } from 'kysely';

// Probes of vendors' public endpoints (docs/early-warning.md "Probes"): one row per probe the
// catalog asks for, instance-wide. The row is leased like a source (one instance runs a probe
// per interval across the fleet) and holds the probe's baseline: its last samples as a JSON
// list (latency percentiles and error rate are computed from them), whether it is anomalous,
// and how far dismissed false alarms relaxed its rule. A probe the catalog no longer lists is
// marked retired, not deleted, so its figures stay readable.
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
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable('probes').execute();
    },
  };
}
