import type { Kysely } from 'kysely';

// Named watchlists of an organisation (docs/teams.md, "Named watchlists"): "payments",
// "platform" ... beside the organisation's own watchlist (the contract's `/watchlist`).
// A list goes with its organisation, a vendor row with its vendor.
export function namedWatchlistsMigration() {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('org_watchlists')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('org_id', 'text', (c) => c.notNull().references('organisations.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('org_watchlists_name', ['org_id', 'name'])
        .execute();
      await db.schema
        .createTable('org_watchlist_vendors')
        .addColumn('watchlist_id', 'text', (c) => c.notNull().references('org_watchlists.id').onDelete('cascade'))
        .addColumn('vendor', 'text', (c) => c.notNull().references('vendors.slug').onDelete('cascade'))
        .addColumn('position', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('org_watchlist_vendors_pk', ['watchlist_id', 'vendor'])
        .execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable('org_watchlist_vendors').execute();
      await db.schema.dropTable('org_watchlists').execute();
    },
  };
}
