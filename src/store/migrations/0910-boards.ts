import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect.ts';

// Public status boards (docs/boards.md): a user's published list of vendors at an
// unguessable URL. The URL's token is stored only as a SHA-256 hash (looked up,
// never shown again, like API keys); revoking deletes the row, so the URL stops
// working with the next request. Rows go with the account.
export function boardsMigration(_dialect: Dialect) {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('boards')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('title', 'text', (c) => c.notNull())
        /** JSON array of vendor slugs, in display order. */
        .addColumn('vendors', 'text', (c) => c.notNull())
        /** JSON array of CSP frame-ancestors sources. */
        .addColumn('frame_ancestors', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('boards_user').on('boards').column('user_id').execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable('boards').execute();
    },
  };
}
