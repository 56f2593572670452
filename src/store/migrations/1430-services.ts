import type { Kysely } from 'kysely';

// An organisation's own services and their vendor dependencies (docs/services.md "Model").
// A service names at most one owner alert route of its organisation; deleting the route
// leaves the service without one. A dependency stores component ids (stable when a vendor
// renames a component) and region codes, both as JSON lists; (org_id, vendor) finds the
// services of an organisation that depend on a vendor.
export function servicesMigration() {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('services')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('org_id', 'text', (c) => c.notNull().references('organisations.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('owner_route_id', 'text', (c) => c.references('alert_routes.id').onDelete('set null'))
        .addColumn('criticality', 'text', (c) => c.notNull())
        .addColumn('tags', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('services_name', ['org_id', 'name'])
        .execute();
      await db.schema
        .createTable('service_dependencies')
        .addColumn('service_id', 'text', (c) => c.notNull().references('services.id').onDelete('cascade'))
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('org_id', 'text', (c) => c.notNull())
        .addColumn('vendor', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('components', 'text', (c) => c.notNull())
        .addColumn('regions', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('service_dependencies_pk', ['service_id', 'position'])
        .execute();
      await db.schema.createIndex('service_dependencies_org_vendor').on('service_dependencies').columns(['org_id', 'vendor']).execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable('service_dependencies').execute();
      await db.schema.dropTable('services').execute();
    },
  };
}
