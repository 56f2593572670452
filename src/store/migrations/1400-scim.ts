import type { Kysely } from 'kysely';

// SCIM 2.0 provisioning of an organisation (docs/teams.md, "SCIM"): the bearer tokens an
// identity provider presents (only their SHA-256 is kept), the users it provisioned
// (each linked to an account) and its groups with their members and the role a group
// gives. Everything goes with its organisation; a link goes with its account.
export function scimMigration() {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('scim_tokens')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('org_id', 'text', (c) => c.notNull().references('organisations.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        /** SHA-256 hex of the token; the token itself is shown once and never stored. */
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('prefix', 'text', (c) => c.notNull())
        .addColumn('created_by', 'text', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('last_used_at', 'text')
        .addColumn('revoked_at', 'text')
        .execute();
      await db.schema.createIndex('scim_tokens_org').on('scim_tokens').column('org_id').execute();

      await db.schema
        .createTable('scim_users')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('org_id', 'text', (c) => c.notNull().references('organisations.id').onDelete('cascade'))
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        /** As the identity provider sent it; `user_name_key` is its lower-cased form (userName is caseExact:false). */
        .addColumn('user_name', 'text', (c) => c.notNull())
        .addColumn('user_name_key', 'text', (c) => c.notNull())
        .addColumn('external_id', 'text')
        .addColumn('display_name', 'text')
        .addColumn('given_name', 'text')
        .addColumn('family_name', 'text')
        .addColumn('active', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('scim_users_user_name', ['org_id', 'user_name_key'])
        .addUniqueConstraint('scim_users_account', ['org_id', 'user_id'])
        .execute();
      await db.schema.createIndex('scim_users_external').on('scim_users').columns(['org_id', 'external_id']).execute();

      await db.schema
        .createTable('scim_groups')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('org_id', 'text', (c) => c.notNull().references('organisations.id').onDelete('cascade'))
        .addColumn('display_name', 'text', (c) => c.notNull())
        .addColumn('display_name_key', 'text', (c) => c.notNull())
        .addColumn('external_id', 'text')
        /** The role the group gives its members (viewer, editor, admin; never owner); null: none. */
        .addColumn('role', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('scim_groups_display_name', ['org_id', 'display_name_key'])
        .execute();

      await db.schema
        .createTable('scim_group_members')
        .addColumn('group_id', 'text', (c) => c.notNull().references('scim_groups.id').onDelete('cascade'))
        .addColumn('scim_user_id', 'text', (c) => c.notNull().references('scim_users.id').onDelete('cascade'))
        .addPrimaryKeyConstraint('scim_group_members_pk', ['group_id', 'scim_user_id'])
        .execute();
      await db.schema.createIndex('scim_group_members_user').on('scim_group_members').column('scim_user_id').execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable('scim_group_members').execute();
      await db.schema.dropTable('scim_groups').execute();
      await db.schema.dropTable('scim_users').execute();
      await db.schema.dropTable('scim_tokens').execute();
    },
  };
}
