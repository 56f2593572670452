import type { Kysely } from 'kysely';

// Private probes (docs/early-warning.md "Private probes"): an organisation's own probes live in
// the probes table beside the catalog's, so one runner claims both under the same lease and
// bounds. `org_id` is null for a catalog probe; a private probe has its own interval and at
// most one credential header, its value sealed with the secrets key (docs/security.md
// "Channel secrets") and only its last four characters kept in clear.
export function privateProbesMigration() {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable('probes')
        .addColumn('org_id', 'text', (c) => c.references('organisations.id').onDelete('cascade'))
        .execute();
      await db.schema.alterTable('probes').addColumn('interval_seconds', 'integer').execute();
      await db.schema.alterTable('probes').addColumn('credential_name', 'text').execute();
      await db.schema.alterTable('probes').addColumn('credential_value', 'text').execute();
      await db.schema.alterTable('probes').addColumn('credential_last_four', 'text').execute();
      await db.schema.alterTable('probes').addColumn('created_at', 'text').execute();
      await db.schema.createIndex('probes_org').on('probes').column('org_id').execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropIndex('probes_org').execute();
      for (const c of ['created_at', 'credential_last_four', 'credential_value', 'credential_name', 'interval_seconds', 'org_id'])
        await db.schema.alterTable('probes').dropColumn(c).execute();
    },
  };
}
