import { type Kysely, sql } from 'kysely';

// Single sign-on per organisation (docs/teams.md, "Single sign-on"): one OpenID Connect
// connection per organisation (the client secret sealed with the secret box), the e-mail
// domains it has proven by a DNS TXT record, and the pending sign-ins (state, nonce, PKCE
// verifier), kept in the store so any instance can finish a sign-in another one started.
// Flags are integers (0/1) in both dialects.
export function ssoMigration() {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('sso_connections')
        .addColumn('org_id', 'text', (c) => c.primaryKey().references('organisations.id').onDelete('cascade'))
        .addColumn('issuer', 'text', (c) => c.notNull())
        .addColumn('client_id', 'text', (c) => c.notNull())
        .addColumn('client_secret', 'text', (c) => c.notNull())
        .addColumn('default_role', 'text', (c) => c.notNull())
        .addColumn('sso_required', 'integer', (c) => c.notNull())
        .addColumn('enabled', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('sso_domains')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('org_id', 'text', (c) => c.notNull().references('organisations.id').onDelete('cascade'))
        .addColumn('domain', 'text', (c) => c.notNull())
        .addColumn('verification_token', 'text', (c) => c.notNull())
        .addColumn('verified_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('sso_domains_org_domain', ['org_id', 'domain'])
        .execute();
      // A domain is verified for one organisation at a time: sign-in finds the organisation by it.
      await db.schema.createIndex('sso_domains_verified').on('sso_domains').column('domain').unique().where(sql.ref('verified_at'), 'is not', null).execute();
      await db.schema
        .createTable('sso_pending_logins')
        .addColumn('state_hash', 'text', (c) => c.primaryKey())
        .addColumn('browser_hash', 'text', (c) => c.notNull())
        .addColumn('org_id', 'text', (c) => c.notNull().references('organisations.id').onDelete('cascade'))
        .addColumn('nonce', 'text', (c) => c.notNull())
        .addColumn('code_verifier', 'text', (c) => c.notNull())
        .addColumn('return_to', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('sso_pending_logins_expiry').on('sso_pending_logins').column('expires_at').execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable('sso_pending_logins').execute();
      await db.schema.dropTable('sso_domains').execute();
      await db.schema.dropTable('sso_connections').execute();
    },
  };
}
