import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../dialect.ts';

// Organisations own what a user owned before (docs/teams.md, "Data model"): the
// watchlist, notification preferences and their deliveries, alert threads, boards,
// user-added status pages, API keys and the plan. Every existing user gets a personal
// organisation (they are its owner) that takes over all of their rows, so nothing
// changes in effect for anyone.
//
// A personal organisation has the id of its account (docs/teams.md, "Data model"), so
// every owned row keeps its value: the owner columns are only renamed `user_id` →
// `org_id`, their foreign keys now point at `organisations`, and the slugs of pages added
// before organisations (whose prefix is a digest of the owner id) stay valid. PostgreSQL does it in place in the migration's transaction. SQLite
// cannot change a foreign key in place: each table is rebuilt by its documented
// procedure (new table from the stored definition, copy, drop, rename) with foreign keys
// off, so dropping a table does not cascade into its children, inside one transaction,
// then `foreign_key_check` must find nothing before the switch is turned back on.

/** Tables whose owner column moves from the user to the organisation. */
const OWNED = ['watchlists', 'watchlist_vendors', 'notification_preferences', 'alert_threads', 'deliveries', 'boards'] as const;

export function organisationsMigration(dialect: Dialect) {
  return {
    async up(db: Kysely<any>) {
      if (dialect === 'sqlite') await sql`pragma foreign_keys = off`.execute(db);
      try {
        if (dialect === 'sqlite') await sql`begin`.execute(db);
        await createTables(db);
        await personalOrganisations(db);
        if (dialect === 'postgres') await moveOwnersPostgres(db);
        else await moveOwnersSqlite(db);
        await addOrgColumns(db);
        await reassign(db);
        if (dialect === 'postgres') await restoreForeignKeysPostgres(db);
        await db.schema.alterTable('users').dropColumn('plan').execute();
        if (dialect === 'sqlite') {
          const broken = await sql`pragma foreign_key_check`.execute(db);
          if (broken.rows.length) throw new Error(`organisations migration: ${broken.rows.length} rows break a foreign key`);
          await sql`commit`.execute(db);
        }
      } catch (err) {
        if (dialect === 'sqlite') await sql`rollback`.execute(db).catch(() => {});
        throw err;
      } finally {
        if (dialect === 'sqlite') await sql`pragma foreign_keys = on`.execute(db);
      }
    },
  };
}

async function createTables(db: Kysely<any>) {
  await db.schema
    .createTable('organisations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('plan', 'text', (c) => c.notNull())
    /** The account a personal organisation was made for (it cannot be left, and goes with the account); null: a team's. */
    .addColumn('personal_user_id', 'text', (c) => c.unique().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('memberships')
    .addColumn('org_id', 'text', (c) => c.notNull().references('organisations.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('memberships_pk', ['org_id', 'user_id'])
    .execute();
  await db.schema.createIndex('memberships_user').on('memberships').column('user_id').execute();

  await db.schema
    .createTable('invitations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull().references('organisations.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    /** SHA-256 hex of the link's token; the token itself is never stored. */
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('invited_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    /** accepted | declined | revoked; null while open. */
    .addColumn('outcome', 'text')
    .addColumn('decided_at', 'text')
    .execute();
  await db.schema.createIndex('invitations_org').on('invitations').column('org_id').execute();

  // The audit chain of each organisation (docs/teams.md, "Audit log"): `audit_heads`
  // holds the last link; appending takes its row lock, so instances append one at a time.
  await db.schema
    .createTable('audit_log')
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('at', 'text', (c) => c.notNull())
    .addColumn('actor_kind', 'text', (c) => c.notNull())
    .addColumn('actor_id', 'text')
    .addColumn('actor_label', 'text', (c) => c.notNull())
    .addColumn('address', 'text')
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target', 'text', (c) => c.notNull())
    /** JSON `{before, after}`, secrets masked before they are written. */
    .addColumn('details', 'text', (c) => c.notNull())
    .addColumn('prev_hash', 'text', (c) => c.notNull())
    .addColumn('hash', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('audit_log_pk', ['org_id', 'seq'])
    .execute();
  await db.schema.createIndex('audit_log_org_at').on('audit_log').columns(['org_id', 'at']).execute();
  await db.schema
    .createTable('audit_heads')
    .addColumn('org_id', 'text', (c) => c.primaryKey())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('hash', 'text', (c) => c.notNull())
    /** Retention: the last entry removed by age, where verification starts (0 and the genesis hash: none). */
    .addColumn('floor_seq', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('floor_hash', 'text', (c) => c.notNull())
    .execute();
}

/** One personal organisation per existing user (same id), on the user's plan, with the user as owner. */
async function personalOrganisations(db: Kysely<any>) {
  const now = new Date().toISOString();
  await sql`insert into organisations (id, name, plan, personal_user_id, created_at, updated_at) select id, 'Personal', plan, id, created_at, ${now} from users`.execute(
    db,
  );
  await sql`insert into memberships (org_id, user_id, role, created_at) select id, id, 'owner', created_at from users`.execute(db);
}

/** Keys, sessions and MCP grants act for their user's personal organisation (owned rows already name it). */
async function reassign(db: Kysely<any>) {
  for (const table of ['api_keys', 'sessions', 'oauth_grants']) await sql`update ${sql.table(table)} set org_id = user_id`.execute(db);
}

async function moveOwnersPostgres(db: Kysely<any>) {
  const fks = async (table: string) =>
    (
      await sql<{
        name: string;
      }>`select conname as name from pg_constraint where conrelid = ${table}::regclass and contype = 'f' and confrelid in ('users'::regclass, 'watchlists'::regclass)`.execute(
        db,
      )
    ).rows.map((r) => r.name);
  for (const table of OWNED) {
    for (const name of await fks(table)) await sql`alter table ${sql.table(table)} drop constraint ${sql.id(name)}`.execute(db);
    await sql`alter table ${sql.table(table)} rename column user_id to org_id`.execute(db);
  }
  for (const name of await fks('vendors')) await sql`alter table vendors drop constraint ${sql.id(name)}`.execute(db);
  await sql`alter table api_keys alter column user_id drop not null`.execute(db);
}

/** The foreign keys dropped above, now against the organisation ids the rows hold (same transaction). */
async function restoreForeignKeysPostgres(db: Kysely<any>) {
  for (const table of OWNED) {
    const parent = table === 'watchlist_vendors' ? sql`watchlists (org_id)` : sql`organisations (id)`;
    await sql`alter table ${sql.table(table)} add foreign key (org_id) references ${parent} on delete cascade`.execute(db);
  }
  await sql`alter table vendors add foreign key (owner_id) references organisations (id) on delete cascade`.execute(db);
  await sql`alter table api_keys alter column org_id set not null`.execute(db);
}

async function addOrgColumns(db: Kysely<any>) {
  await db.schema
    .alterTable('api_keys')
    .addColumn('org_id', 'text', (c) => c.references('organisations.id').onDelete('cascade'))
    .execute();
  /** The role of a key that belongs to the organisation rather than to a member (user_id null). */
  await db.schema.alterTable('api_keys').addColumn('role', 'text').execute();
  await db.schema.createIndex('api_keys_org').on('api_keys').column('org_id').execute();
  await db.schema
    .alterTable('sessions')
    .addColumn('org_id', 'text', (c) => c.references('organisations.id').onDelete('set null'))
    .execute();
  await db.schema
    .alterTable('oauth_grants')
    .addColumn('org_id', 'text', (c) => c.references('organisations.id').onDelete('cascade'))
    .execute();
}

async function moveOwnersSqlite(db: Kysely<any>) {
  const toOrg: [string, string][] = [
    ['"user_id"', '"org_id"'],
    ['references "users" ("id")', 'references "organisations" ("id")'],
  ];
  for (const table of OWNED) await rebuildSqlite(db, table, toOrg);
  await rebuildSqlite(db, 'vendors', [['"owner_id" text references "users" ("id")', '"owner_id" text references "organisations" ("id")']]);
  await rebuildSqlite(db, 'api_keys', [['"user_id" text not null references', '"user_id" text references']]);
}

/** SQLite's table rebuild: the stored definition with the replacements applied, rows copied as they are. */
async function rebuildSqlite(db: Kysely<any>, table: string, replacements: [string, string][]) {
  const apply = (text: string) => replacements.reduce((t, [from, to]) => t.split(from).join(to), text);
  const stored = await sql<{ type: string; name: string; sql: string | null }>`select type, name, sql from sqlite_master where tbl_name = ${table}`.execute(db);
  const definition = stored.rows.find((r) => r.type === 'table')?.sql;
  if (!definition) throw new Error(`organisations migration: no table ${table}`);
  const rebuilt = apply(definition).replace(`CREATE TABLE "${table}"`, `CREATE TABLE "${table}__new"`);
  if (rebuilt === definition || !rebuilt.includes(`"${table}__new"`)) throw new Error(`organisations migration: ${table} unchanged`);
  await sql.raw(rebuilt).execute(db);
  await sql.raw(`insert into "${table}__new" select * from "${table}"`).execute(db);
  await sql.raw(`drop table "${table}"`).execute(db);
  await sql.raw(`alter table "${table}__new" rename to "${table}"`).execute(db);
  for (const index of stored.rows) if (index.type === 'index' && index.sql) await sql.raw(apply(index.sql)).execute(db);
}
