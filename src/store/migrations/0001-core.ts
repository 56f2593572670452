import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect.ts';

// Vendors, their sources and everything ingested from them, plus the event log
// (the outbox consumed by the stream and the alert dispatcher).
export function coreMigration(dialect: Dialect) {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('vendors')
        .addColumn('slug', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('website', 'text', (c) => c.notNull())
        .addColumn('category', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('status_page_url', 'text', (c) => c.notNull())
        .addColumn('data_types', 'text', (c) => c.notNull())
        .addColumn('compliance', 'text', (c) => c.notNull())
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('sources')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('vendor', 'text', (c) => c.notNull().references('vendors.slug').onDelete('cascade'))
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('interval_seconds', 'integer')
        .addColumn('etag', 'text')
        .addColumn('last_modified', 'text')
        .addColumn('last_success_at', 'text')
        .addColumn('last_error_at', 'text')
        .addColumn('last_error', 'text')
        .addColumn('consecutive_failures', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('next_poll_at', 'text')
        .addColumn('lease_owner', 'text')
        .addColumn('lease_until', 'text')
        .addColumn('last_duration_ms', 'integer')
        .execute();
      await db.schema.createIndex('sources_vendor').on('sources').column('vendor').execute();
      await db.schema.createIndex('sources_next_poll').on('sources').column('next_poll_at').execute();

      await db.schema
        .createTable('vendor_status')
        .addColumn('vendor', 'text', (c) => c.primaryKey().references('vendors.slug').onDelete('cascade'))
        .addColumn('indicator', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('checked_at', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('components')
        .addColumn('vendor', 'text', (c) => c.notNull().references('vendors.slug').onDelete('cascade'))
        .addColumn('id', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('group_name', 'text')
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('components_pk', ['vendor', 'id'])
        .execute();

      await db.schema
        .createTable('incidents')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('vendor', 'text', (c) => c.notNull().references('vendors.slug').onDelete('cascade'))
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('source_status', 'text', (c) => c.notNull())
        .addColumn('impact', 'text', (c) => c.notNull())
        .addColumn('started_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addColumn('resolved_at', 'text')
        .addColumn('components', 'text', (c) => c.notNull())
        .addColumn('updates', 'text', (c) => c.notNull())
        .addColumn('url', 'text')
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('fingerprint', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('incidents_vendor_started').on('incidents').columns(['vendor', 'started_at']).execute();
      await db.schema.createIndex('incidents_started').on('incidents').column('started_at').execute();
      await db.schema.createIndex('incidents_status').on('incidents').columns(['status', 'started_at']).execute();

      await db.schema
        .createTable('maintenances')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('vendor', 'text', (c) => c.notNull().references('vendors.slug').onDelete('cascade'))
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('source_status', 'text', (c) => c.notNull())
        .addColumn('impact', 'text', (c) => c.notNull())
        .addColumn('scheduled_for', 'text', (c) => c.notNull())
        .addColumn('scheduled_until', 'text')
        .addColumn('started_at', 'text')
        .addColumn('completed_at', 'text')
        .addColumn('components', 'text', (c) => c.notNull())
        .addColumn('updates', 'text', (c) => c.notNull())
        .addColumn('url', 'text')
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('fingerprint', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('maintenances_vendor_sched').on('maintenances').columns(['vendor', 'scheduled_for']).execute();
      await db.schema.createIndex('maintenances_sched').on('maintenances').column('scheduled_for').execute();

      await db.schema
        .createTable('advisories')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('vendor', 'text', (c) => c.notNull().references('vendors.slug').onDelete('cascade'))
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('severity', 'text', (c) => c.notNull())
        .addColumn('cves', 'text', (c) => c.notNull())
        .addColumn('published_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addColumn('summary', 'text', (c) => c.notNull())
        .addColumn('url', 'text')
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('fingerprint', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('advisories_vendor_pub').on('advisories').columns(['vendor', 'published_at']).execute();

      await db.schema
        .createTable('release_updates')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('vendor', 'text', (c) => c.notNull().references('vendors.slug').onDelete('cascade'))
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('published_at', 'text', (c) => c.notNull())
        .addColumn('summary', 'text', (c) => c.notNull())
        .addColumn('categories', 'text', (c) => c.notNull())
        .addColumn('url', 'text')
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('fingerprint', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('release_updates_vendor_pub').on('release_updates').columns(['vendor', 'published_at']).execute();

      await db.schema
        .createTable('events')
        .addColumn('seq', dialect === 'postgres' ? 'bigserial' : 'integer', (c) => (dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement()))
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('vendor', 'text', (c) => c.notNull())
        .addColumn('entity_kind', 'text', (c) => c.notNull())
        .addColumn('entity_id', 'text', (c) => c.notNull())
        .addColumn('occurred_at', 'text', (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('events_occurred').on('events').column('occurred_at').execute();
    },
  };
}
