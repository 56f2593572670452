import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { sql } from 'kysely';
import pg from 'pg';
import { openStore } from '../../../src/store/db.ts';
import { uniqueName } from '../../helpers/app.ts';

// Without DATABASE_SCHEMA the store lives in the connection's own schema (`public` by
// default), and the migrator looks for its tables there only: a database where another
// schema already holds Kysely's migration tables must not make it skip creating its own
// (docs/deployment.md, "PostgreSQL schema").

describe('migrating without DATABASE_SCHEMA beside another migrated schema', {
  skip: process.env.DATABASE_URL ? false : 'PostgreSQL only (DATABASE_URL)',
}, () => {
  const database = uniqueName('vis_mig').toLowerCase();
  const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vis-mig-schema-'));
  let url = '';

  after(async () => {
    await admin.query(`drop database if exists "${database}" with (force)`);
    await admin.end();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  test('the default schema gets its own tables and migration log', async () => {
    await admin.connect();
    await admin.query(`create database "${database}"`);
    const u = new URL(process.env.DATABASE_URL!);
    u.pathname = `/${database}`;
    url = u.toString();

    const other = openStore({ databaseUrl: url, databaseSchema: 'other_app', dataDir });
    await other.migrate();
    await other.close();

    const store = openStore({ databaseUrl: url, databaseSchema: null, dataDir });
    try {
      await store.migrate();
      const tables = await sql<{ table_schema: string; n: number }>`
        select table_schema, count(*)::int as n from information_schema.tables
        where table_name in ('kysely_migration', 'kysely_migration_lock', 'events') group by table_schema order by table_schema`.execute(store.db);
      assert.deepEqual(tables.rows, [
        { table_schema: 'other_app', n: 3 },
        { table_schema: 'public', n: 3 },
      ]);
      // A second start finds everything migrated and changes nothing.
      await store.migrate();
    } finally {
      await store.close();
    }
  });
});
