import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import { migrationProvider } from '../../../src/store/migrations/index.ts';
import { openStore } from '../../../src/store/db.ts';
import { uniqueName } from '../../helpers/app.ts';

// An upgraded store (docs/teams.md, "Data model"): every account gets a personal
// organisation with its id that owns all of its rows, and nothing is lost or changes in
// effect: the same watchlist, preferences, keys, sessions, boards, private pages, alert
// rows and MCP grants, now under the organisation, with foreign keys that hold.

describe('the organisations migration', () => {
  const schema = process.env.DATABASE_URL ? uniqueName('t') : null;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vis-orgs-migration-'));
  const store = openStore({ databaseUrl: process.env.DATABASE_URL ?? null, databaseSchema: schema, dataDir });
  const db = store.db as any;

  after(async () => {
    if (schema) await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(store.db);
    await store.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const at = '2026-01-01T00:00:00.000Z';

  async function seedBefore(u: string, plan: string) {
    await db
      .insertInto('users')
      .values({ id: u, email: `${u}@example.com`, password_hash: 'x', plan, created_at: at, updated_at: at })
      .execute();
    await db.insertInto('watchlists').values({ user_id: u, version: 1, updated_at: at }).execute();
    await db.insertInto('watchlist_vendors').values({ user_id: u, vendor: 'github', position: 0, added_at: at }).execute();
    await db.insertInto('notification_preferences').values({ user_id: u, settings: '{"muted_vendors":["x"]}', version: 1, updated_at: at }).execute();
    await db
      .insertInto('api_keys')
      .values({ id: `k-${u}`, user_id: u, name: 'k', key_hash: `h-${u}`, prefix: 'vis_', created_at: at })
      .execute();
    await db
      .insertInto('sessions')
      .values({ token_hash: `s-${u}`, user_id: u, created_at: at, expires_at: '2099-01-01T00:00:00.000Z' })
      .execute();
    await db
      .insertInto('boards')
      .values({ id: `b-${u}`, user_id: u, token_hash: `bt-${u}`, title: 't', vendors: '["github"]', frame_ancestors: '[]', created_at: at })
      .execute();
    await db
      .insertInto('vendors')
      .values({
        slug: `u-0123456789ab-${u}`,
        name: 'Mine',
        website: 'https://x.example',
        category: 'custom',
        description: '',
        status_page_url: 'https://x.example',
        data_types: '[]',
        compliance: '{}',
        position: 1000000,
        updated_at: at,
        owner_id: u,
        added_at: at,
      })
      .execute();
    await db
      .insertInto('deliveries')
      .values({
        id: `d-${u}`,
        event_seq: null,
        user_id: u,
        channel: 'in_app',
        event_type: 'incident.created',
        vendor: 'github',
        entity_id: 'e',
        payload: '{}',
        occurred_at: at,
        status: 'succeeded',
        attempts: 1,
        is_test: 0,
        created_at: at,
        updated_at: at,
      })
      .execute();
    await db
      .insertInto('delivery_attempts')
      .values({ delivery_id: `d-${u}`, attempt: 1, started_at: at, latency_ms: 5, outcome: 'succeeded' })
      .execute();
    await db.insertInto('alert_threads').values({ user_id: u, channel: 'slack', entity_id: 'e', conversation: 'C1', ref: '1.2', created_at: at }).execute();
    await db
      .insertInto('oauth_clients')
      .values({
        client_id: `c-${u}`,
        secret_hash: null,
        name: 'c',
        redirect_uris: '[]',
        grant_types: '[]',
        auth_method: 'none',
        scope: '',
        metadata: '{}',
        created_at: at,
      })
      .execute();
    await db
      .insertInto('oauth_grants')
      .values({ id: `g-${u}`, client_id: `c-${u}`, user_id: u, scope: '', resource: 'r', created_at: at })
      .execute();
  }

  test('each account becomes the owner of a personal organisation holding all of its rows', async () => {
    if (schema) await sql`create schema ${sql.id(schema)}`.execute(store.db);
    const migrator = new Migrator({
      db: store.db,
      provider: migrationProvider(store.dialect),
      migrationTableSchema: schema ?? undefined,
      allowUnorderedMigrations: true,
    });
    assert.equal((await migrator.migrateTo('1200-sliding-limits')).error, undefined);
    await db
      .insertInto('vendors')
      .values({
        slug: 'github',
        name: 'GitHub',
        website: 'https://github.com',
        category: 'x',
        description: '',
        status_page_url: 'https://www.githubstatus.com',
        data_types: '[]',
        compliance: '{}',
        position: 1,
        updated_at: at,
      })
      .execute();
    await seedBefore('alice', 'pro');
    await seedBefore('bob', 'free');

    await store.migrate();

    const orgs = await db.selectFrom('organisations').selectAll().orderBy('id').execute();
    assert.deepEqual(
      orgs.map((o: any) => [o.id, o.name, o.plan, o.personal_user_id]),
      [
        ['alice', 'Personal', 'pro', 'alice'],
        ['bob', 'Personal', 'free', 'bob'],
      ],
    );
    assert.deepEqual(
      (await db.selectFrom('memberships').select(['org_id', 'user_id', 'role']).orderBy('org_id').execute()).map((m: any) => [m.org_id, m.user_id, m.role]),
      [
        ['alice', 'alice', 'owner'],
        ['bob', 'bob', 'owner'],
      ],
    );
    const owned = async (table: string) => (await db.selectFrom(table).select('org_id').orderBy('org_id').execute()).map((r: any) => r.org_id);
    for (const table of ['watchlists', 'watchlist_vendors', 'notification_preferences', 'boards', 'deliveries', 'alert_threads']) {
      assert.deepEqual(await owned(table), ['alice', 'bob'], table);
    }
    assert.equal(
      (await db.selectFrom('notification_preferences').select('settings').where('org_id', '=', 'alice').executeTakeFirst()).settings,
      '{"muted_vendors":["x"]}',
    );
    assert.equal((await db.selectFrom('delivery_attempts').selectAll().execute()).length, 2, 'no child row lost in the rebuild');
    for (const table of ['api_keys', 'sessions', 'oauth_grants']) {
      assert.deepEqual(
        (await db.selectFrom(table).select(['user_id', 'org_id']).orderBy('user_id').execute()).map((r: any) => [r.user_id, r.org_id]),
        [
          ['alice', 'alice'],
          ['bob', 'bob'],
        ],
        table,
      );
    }
    assert.deepEqual(
      (await db.selectFrom('vendors').select('owner_id').where('owner_id', 'is not', null).orderBy('owner_id').execute()).map((r: any) => r.owner_id),
      ['alice', 'bob'],
    );
    const userColumns =
      store.dialect === 'postgres'
        ? (
            await sql<{
              name: string;
            }>`select column_name as name from information_schema.columns where table_name = 'users' and table_schema = current_schema()`.execute(store.db)
          ).rows
        : (await sql<{ name: string }>`select name from pragma_table_info('users')`.execute(store.db)).rows;
    assert.ok(!userColumns.some((c) => c.name === 'plan'), 'the plan lives on the organisation');
  });

  test('foreign keys hold afterwards: owned rows need an organisation, and an account takes its personal one with it', async () => {
    if (store.dialect === 'sqlite') {
      assert.equal((await sql<{ foreign_keys: number }>`pragma foreign_keys`.execute(store.db)).rows[0]!.foreign_keys, 1);
    }
    await assert.rejects(db.insertInto('watchlists').values({ org_id: 'nobody', version: 0, updated_at: at }).execute());
    await assert.rejects(
      db
        .insertInto('boards')
        .values({ id: 'b-x', org_id: 'nobody', token_hash: 'bt-x', title: 't', vendors: '[]', frame_ancestors: '[]', created_at: at })
        .execute(),
    );
    await db.deleteFrom('users').where('id', '=', 'bob').execute();
    assert.equal((await db.selectFrom('organisations').selectAll().where('id', '=', 'bob').execute()).length, 0);
    for (const table of ['watchlist_vendors', 'notification_preferences', 'boards', 'deliveries', 'api_keys']) {
      assert.deepEqual(await db.selectFrom(table).select('org_id').where('org_id', '=', 'bob').execute(), [], table);
    }
    assert.equal((await db.selectFrom('vendors').selectAll().where('owner_id', '=', 'bob').execute()).length, 0);
    assert.equal((await db.selectFrom('delivery_attempts').selectAll().execute()).length, 1);
  });
});
