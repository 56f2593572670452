import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import type pg from 'pg';
import type { Database } from './schema.ts';
import { migrationProvider } from './migrations/index.ts';
import { reportingUnavailable } from './unavailable.ts';
import { waitingForWriteLock } from './sqlite-lock-wait.ts';
import type { Dialect } from './dialect.ts';

export interface StoreOptions {
  databaseUrl: string | null;
  databaseSchema: string | null;
  dataDir: string;
  /** PostgreSQL: longest wait for one statement's answer (default 30 s). */
  databaseQueryTimeoutMs?: number;
}

export interface Store {
  db: Kysely<Database>;
  dialect: Dialect;
  migrate(): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export function openStore(opts: StoreOptions): Store {
  if (opts.databaseUrl) return openPostgres(opts.databaseUrl, opts.databaseSchema, opts.databaseQueryTimeoutMs ?? 30_000);
  return openSqlite(opts.dataDir);
}

/** The embedded store's database file inside DATA_DIR. */
export const SQLITE_FILE = 'vendor-status.sqlite';

function openSqlite(dataDir: string): Store {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, SQLITE_FILE);
  const database = new SQLite(file);
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = NORMAL');
  database.pragma('foreign_keys = ON');
  // No busy handler: a statement refused for the write lock waits on a timer instead of
  // blocking the thread (src/store/sqlite-lock-wait.ts), for as long as the handler did.
  database.pragma('busy_timeout = 0');
  const sqlite = new SqliteDialect({ database: withStatementCache(database) });
  const db = new Kysely<Database>({ dialect: reportingUnavailable(waitingForWriteLock(sqlite, { timeoutMs: SQLITE_LOCK_WAIT_MS })) });
  return withCommon(db, 'sqlite');
}

/** Longest wait for SQLite's write lock before a statement fails as 'unavailable'. */
const SQLITE_LOCK_WAIT_MS = 5000;

/** Prepared statements kept per connection (distinct SQL texts; the service issues a few hundred). */
const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely's SQLite driver prepares every statement anew; preparing (parsing the SQL,
 * planning against the schema) cost as much as running it on the ingestion worker
 * (docs/ingestion.md "Profile of a round"). Statements are kept by SQL text and reused:
 * better-sqlite3 runs each synchronously to the end (the service never streams from
 * SQLite), so one statement is never in use twice at once; SQLite re-prepares a kept
 * statement by itself after a schema change. Oldest dropped past the bound.
 */
function withStatementCache(database: SQLite.Database): SQLite.Database {
  const prepare = database.prepare.bind(database);
  const kept = new Map<string, SQLite.Statement>();
  const cached = (source: string) => {
    let statement = kept.get(source);
    if (statement && !statement.busy) return statement;
    statement = prepare(source);
    kept.set(source, statement);
    if (kept.size > STATEMENT_CACHE_SIZE) kept.delete(kept.keys().next().value!);
    return statement;
  };
  return Object.assign(database, { prepare: cached as typeof database.prepare });
}

/**
 * A pg client whose statements have a deadline: a server that stops answering (frozen,
 * or cut off without a reset) would otherwise hold the request, and the pooled
 * connection, forever. Past the deadline the connection is destroyed: the statement
 * fails as a lost connection ('unavailable'), the pool discards the client, and the
 * server rolls back whatever the connection had open once it notices.
 */
function clientWithDeadline(Client: typeof pg.Client, deadlineMs: number): typeof pg.Client {
  return class DeadlineClient extends Client {
    override query(...args: unknown[]): any {
      const result = (super.query as (...a: unknown[]) => unknown)(...args);
      if (!(result instanceof Promise)) return result;
      const timer = setTimeout(() => (this as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy(), deadlineMs);
      return result.finally(() => clearTimeout(timer));
    }
  } as typeof pg.Client;
}

/**
 * The pg driver is loaded with the first statement, not with the app: a process on the
 * embedded store never pays for it (docs/architecture.md, "Optional infrastructure").
 */
async function createPool(url: string, schema: string | null, queryTimeoutMs: number): Promise<pg.Pool> {
  const { default: pg } = await import('pg');
  // COUNT(*) and bigserial come back from pg as strings (int8); every such value we
  // read fits a JS number, so parse them once here.
  pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    connectionTimeoutMillis: 5000,
    Client: clientWithDeadline(pg.Client, queryTimeoutMs),
    // Each test (or deployment) can live in its own schema.
    options: schema ? `-c search_path=${schema}` : undefined,
  });
  // A dropped idle connection must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  // Nor a connection that is checked out but between two statements when the server
  // goes away (57P01 on shutdown): pg emits 'error' on the client, which the pool only
  // listens to while the client is idle. The next statement on it fails (mapped to
  // 'unavailable') and the pool discards it on release.
  pool.on('connect', (client) => client.on('error', () => {}));
  return pool;
}

function openPostgres(url: string, schema: string | null, queryTimeoutMs: number): Store {
  const pool = () => createPool(url, schema, queryTimeoutMs);
  const db = new Kysely<Database>({ dialect: reportingUnavailable(new PostgresDialect({ pool })) });
  const store = withCommon(db, 'postgres', schema);
  const migrate = store.migrate;
  store.migrate = async () => {
    if (schema) await createSchema(db, schema);
    await migrate();
  };
  return store;
}

/**
 * `create schema if not exists` is not safe against itself: instances starting
 * together on a fresh database race on the catalog's unique index. Losing that
 * race is fine when the schema exists afterwards (as Kysely's migrator does for its tables).
 */
async function createSchema(db: Kysely<Database>, schema: string) {
  try {
    await sql`create schema if not exists ${sql.id(schema)}`.execute(db);
  } catch (err) {
    const found = await sql<{ n: number }>`select count(*)::int as n from pg_namespace where nspname = ${schema}`.execute(db);
    if (!found.rows[0]?.n) throw err;
  }
}

async function currentSchema(db: Kysely<Database>): Promise<string> {
  const { rows } = await sql<{ name: string | null }>`select current_schema() as name`.execute(db);
  if (!rows[0]?.name) throw new Error('migration failed: the connection has no current schema (search_path names no existing schema)');
  return rows[0].name;
}

function withCommon(db: Kysely<Database>, dialect: Dialect, schema: string | null = null): Store {
  return {
    db,
    dialect,
    async migrate() {
      // Kysely's migrator takes a lock (a lock table row, FOR UPDATE on PostgreSQL),
      // so several instances starting together run each migration once.
      // With a schema, the migrator must look for its own tables there: without it, it
      // sees kysely_migration_lock of any schema (another test run) and skips creating ours.
      // Areas own numbered migrations and land in any order, so a store may have run
      // 0500 before 0400 arrives: unordered migrations are allowed (each runs once).
      // Without DATABASE_SCHEMA that is the connection's own schema, named explicitly:
      // Kysely's existence check otherwise looks across all schemas of the database.
      const migrationTableSchema = schema ?? (dialect === 'postgres' ? await currentSchema(db) : undefined);
      const migrator = new Migrator({
        db,
        provider: migrationProvider(dialect),
        migrationTableSchema,
        allowUnorderedMigrations: true,
      });
      const { error, results } = await migrator.migrateToLatest();
      const failed = results?.find((r) => r.status === 'Error');
      if (error || failed) {
        throw new Error(`migration failed${failed ? ` at ${failed.migrationName}` : ''}: ${String(error)}`);
      }
    },
    async ping() {
      await sql`select 1`.execute(db);
    },
    async close() {
      await db.destroy();
    },
  };
}
