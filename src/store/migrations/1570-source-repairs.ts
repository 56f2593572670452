import type { Kysely } from 'kysely';

// Self-healing of catalog sources (docs/catalog.md "Self-healing"): one row per vendor whose
// status sources kept failing, holding the latest probe of its page: the sources it had, what
// the page serves now, the page's own name, the outcome (proposed, applied, accepted,
// rejected, unchanged, not_found) and who decided. Rows in force replace the catalog's
// sources at every start.
export function sourceRepairsMigration() {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('source_repairs')
        .addColumn('vendor', 'text', (c) => c.primaryKey())
        .addColumn('from_sources', 'text', (c) => c.notNull())
        .addColumn('to_sources', 'text', (c) => c.notNull())
        .addColumn('platform', 'text')
        .addColumn('page_name', 'text')
        .addColumn('outcome', 'text', (c) => c.notNull())
        .addColumn('reason', 'text', (c) => c.notNull())
        .addColumn('tried', 'text', (c) => c.notNull())
        .addColumn('checked_at', 'text', (c) => c.notNull())
        .addColumn('decided_at', 'text')
        .addColumn('decided_by', 'text')
        .execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable('source_repairs').execute();
    },
  };
}
