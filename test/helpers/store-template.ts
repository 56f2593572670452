import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openStore, SQLITE_FILE } from '../../src/store/db.ts';

// Test apps start on a copy of a store migrated once (docs/testing.md, "Store template"):
// SQLite copies a migrated database file into the app's data dir; PostgreSQL creates the
// app's own database from a migrated template database (CREATE DATABASE ... TEMPLATE).
// The app still runs its migrations at start-up; on the copy they find nothing to do.
//
// One template per test run: `npm test` (scripts/test.mjs) sets TEST_RUN_ID for all its
// files and removes the templates when the run ends. A file run on its own gets a template
// of its own process, removed when the process ends.

/** The schema the migrated tables live in, inside each copied PostgreSQL database. */
export const TEMPLATE_SCHEMA = 'vis';

const runId = (process.env.TEST_RUN_ID || `p${process.pid}_${Date.now().toString(36)}`).toLowerCase().replace(/[^a-z0-9_]/g, '_');
const ownRun = !process.env.TEST_RUN_ID;

/** Where a run's SQLite template lives (scripts/test.mjs removes the directory). */
export const sqliteTemplateDir = (id: string) => path.join(os.tmpdir(), `vis-template-${id}`);
/** The name of a run's PostgreSQL template database (scripts/test.mjs drops it). */
export const pgTemplateName = (id: string) => `vis_tpl_${id}`;

let sqliteTemplate: Promise<string> | null = null;

/** Puts a migrated SQLite database into an empty data dir. */
export async function copySqliteTemplate(dataDir: string): Promise<void> {
  sqliteTemplate ??= makeSqliteTemplate();
  fs.copyFileSync(await sqliteTemplate, path.join(dataDir, SQLITE_FILE));
}

async function makeSqliteTemplate(): Promise<string> {
  const dir = sqliteTemplateDir(runId);
  const file = path.join(dir, SQLITE_FILE);
  if (ownRun) process.once('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  if (fs.existsSync(file)) return file;
  // Several files of a run may build it at once: each migrates its own, and the rename
  // (atomic) puts one complete file in place.
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'vis-template-build-'));
  try {
    const store = openStore({ databaseUrl: null, databaseSchema: null, dataDir: scratch });
    await store.migrate();
    // Closing the last connection checkpoints the WAL into the file: one file holds it all.
    await store.close();
    fs.mkdirSync(dir, { recursive: true });
    fs.renameSync(path.join(scratch, SQLITE_FILE), file);
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
  return file;
}

let pgTemplate: Promise<string> | null = null;

/** The URL of `database` on the server of `url`. */
export function databaseUrl(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/** Creates `database` as a copy of the migrated template; returns its URL. */
export async function createPgFromTemplate(url: string, database: string): Promise<string> {
  pgTemplate ??= makePgTemplate(url);
  const template = await pgTemplate;
  await admin(url, (c) => c.query(`create database "${database}" template "${template}"`));
  return databaseUrl(url, database);
}

export async function dropPgDatabase(url: string, database: string): Promise<void> {
  await admin(url, (c) => c.query(`drop database if exists "${database}" with (force)`));
}

async function admin<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

async function makePgTemplate(url: string): Promise<string> {
  const name = pgTemplateName(runId);
  if (ownRun) process.once('beforeExit', () => void dropPgTemplate(url, name).catch(() => {}));
  // The files of a run build it once: the first takes the lock and migrates, the others
  // wait and find it there.
  await admin(url, async (c) => {
    await c.query('select pg_advisory_lock(hashtext($1))', [name]);
    try {
      const found = await c.query('select 1 from pg_database where datname = $1', [name]);
      if (found.rowCount) return;
      await c.query(`create database "${name}"`);
      const store = openStore({ databaseUrl: databaseUrl(url, name), databaseSchema: TEMPLATE_SCHEMA, dataDir: os.tmpdir() });
      try {
        await store.migrate();
      } catch (err) {
        await store.close();
        await c.query(`drop database if exists "${name}" with (force)`);
        throw err;
      }
      await store.close();
      // No connections from now on: CREATE DATABASE ... TEMPLATE needs the template idle.
      await c.query(`alter database "${name}" with is_template true allow_connections false`);
    } finally {
      await c.query('select pg_advisory_unlock(hashtext($1))', [name]);
    }
  });
  return name;
}

/** Drops a run's template database (IS_TEMPLATE must be cleared first). */
export async function dropPgTemplate(url: string, name: string): Promise<void> {
  await admin(url, async (c) => {
    const found = await c.query('select 1 from pg_database where datname = $1', [name]);
    if (!found.rowCount) return;
    await c.query(`alter database "${name}" with is_template false`);
    await c.query(`drop database if exists "${name}" with (force)`);
  });
}
