import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect.ts';

// OAuth 2.1 authorization server state for the MCP endpoint: registered clients,
// grants (one per consent), authorization codes and tokens. Codes, tokens and
// client secrets are stored as SHA-256 hex digests only.
export function oauthMigration(_dialect: Dialect) {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('oauth_clients')
        .addColumn('client_id', 'text', (c) => c.primaryKey())
        .addColumn('secret_hash', 'text')
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('redirect_uris', 'text', (c) => c.notNull())
        .addColumn('grant_types', 'text', (c) => c.notNull())
        .addColumn('auth_method', 'text', (c) => c.notNull())
        .addColumn('scope', 'text', (c) => c.notNull())
        .addColumn('metadata', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('last_used_at', 'text')
        .execute();

      await db.schema
        .createTable('oauth_grants')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('client_id', 'text', (c) => c.notNull().references('oauth_clients.client_id').onDelete('cascade'))
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('scope', 'text', (c) => c.notNull())
        .addColumn('resource', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('revoked_at', 'text')
        .execute();
      await db.schema.createIndex('oauth_grants_user').on('oauth_grants').column('user_id').execute();
      await db.schema.createIndex('oauth_grants_client').on('oauth_grants').column('client_id').execute();

      await db.schema
        .createTable('oauth_codes')
        .addColumn('code_hash', 'text', (c) => c.primaryKey())
        .addColumn('grant_id', 'text', (c) => c.notNull().references('oauth_grants.id').onDelete('cascade'))
        .addColumn('redirect_uri', 'text', (c) => c.notNull())
        .addColumn('code_challenge', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('used_at', 'text')
        .execute();
      await db.schema.createIndex('oauth_codes_grant').on('oauth_codes').column('grant_id').execute();

      await db.schema
        .createTable('oauth_tokens')
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('grant_id', 'text', (c) => c.notNull().references('oauth_grants.id').onDelete('cascade'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('revoked_at', 'text')
        .execute();
      await db.schema.createIndex('oauth_tokens_grant').on('oauth_tokens').column('grant_id').execute();
      await db.schema.createIndex('oauth_tokens_expires').on('oauth_tokens').column('expires_at').execute();
    },
  };
}
