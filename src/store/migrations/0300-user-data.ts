import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect.ts';

// Per-user data: the vendor watchlist and notification preferences. Rows belong
// to a user (users.id, migration 0200) and go when the account is deleted.
//
// `watchlists` holds one row per user that every watchlist change updates first:
// that write takes the user's row lock (PostgreSQL) or the write lock (SQLite), so
// concurrent changes of one user run one after the other and the plan cap holds.
// Secrets live in their own columns, never inside the JSON settings document, so a
// generic serialisation of the settings cannot leak them; the RSS feed token is
// stored only as a SHA-256 hash (it is looked up, never shown again).
export function userDataMigration(_dialect: Dialect) {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('watchlists')
        .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
        .addColumn('version', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('watchlist_vendors')
        .addColumn('user_id', 'text', (c) => c.notNull().references('watchlists.user_id').onDelete('cascade'))
        .addColumn('vendor', 'text', (c) => c.notNull().references('vendors.slug').onDelete('cascade'))
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('added_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('watchlist_vendors_pk', ['user_id', 'vendor'])
        .execute();
      // The alert dispatcher asks "who watches this vendor?".
      await db.schema.createIndex('watchlist_vendors_vendor').on('watchlist_vendors').column('vendor').execute();

      await db.schema
        .createTable('notification_preferences')
        .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
        .addColumn('settings', 'text', (c) => c.notNull())
        .addColumn('webhook_secret', 'text')
        .addColumn('webhook_previous_secret', 'text')
        .addColumn('webhook_previous_expires_at', 'text')
        .addColumn('pagerduty_routing_key', 'text')
        .addColumn('rss_token_hash', 'text')
        .addColumn('rss_token_hint', 'text')
        .addColumn('slack_connection', 'text')
        .addColumn('version', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('notification_preferences_rss_token').on('notification_preferences').column('rss_token_hash').unique().execute();
    },
  };
}
