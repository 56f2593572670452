import { type Kysely, sql } from 'kysely';

// Alert routes of an organisation (docs/alert-routes.md): many destinations per channel, each
// with filters of its own. The destination (URL, key, addresses) is sealed with the secrets
// key like every channel secret; `receiver` is its fair-share key in clear (a host, never a
// path or a key). A delivery row names the route it goes by (`route_id`; '' = the
// organisation's notification preferences), and one event goes at most once to each route:
// the unique index takes the route in.
export function alertRoutesMigration() {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('alert_routes')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('org_id', 'text', (c) => c.notNull().references('organisations.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('channel', 'text', (c) => c.notNull())
        .addColumn('enabled', 'integer', (c) => c.notNull())
        .addColumn('destination', 'text', (c) => c.notNull())
        .addColumn('receiver', 'text')
        .addColumn('filters', 'text', (c) => c.notNull())
        .addColumn('disabled_reason', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('alert_routes_name', ['org_id', 'name'])
        .execute();
      await db.schema.createIndex('alert_routes_enabled').on('alert_routes').columns(['enabled', 'org_id']).execute();
      await db.schema
        .alterTable('deliveries')
        .addColumn('route_id', 'text', (c) => c.notNull().defaultTo(''))
        .execute();
      await db.schema.dropIndex('deliveries_event_user_channel').execute();
      await db.schema
        .createIndex('deliveries_event_org_channel_route')
        .on('deliveries')
        .columns(['event_seq', 'org_id', 'channel', 'route_id'])
        .unique()
        .execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropIndex('deliveries_event_org_channel_route').execute();
      await sql`DELETE FROM deliveries WHERE route_id <> ''`.execute(db);
      await db.schema.createIndex('deliveries_event_user_channel').on('deliveries').columns(['event_seq', 'org_id', 'channel']).unique().execute();
      await db.schema.alterTable('deliveries').dropColumn('route_id').execute();
      await db.schema.dropTable('alert_routes').execute();
    },
  };
}
