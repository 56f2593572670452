import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import pg from 'pg';
import { API_PREFIX, buildApp } from '../../src/app.ts';
import { type Config, loadConfig } from '../../src/infra/config.ts';
import type { Clock } from '../../src/domain/clock.ts';
import type { TxtResolver } from '../../src/domain/sso.ts';
import { openStore, type Store } from '../../src/store/db.ts';
import { createRepositories, type Repositories } from '../../src/services/index.ts';
import { loadSecretBox } from '../../src/infra/secret-box.ts';
import { formatViolations, type ResponseChecker, withResponseChecks } from './openapi-responses.ts';
import { copySqliteTemplate, createPgFromTemplate, dropPgDatabase, TEMPLATE_SCHEMA } from './store-template.ts';

// Tests run the real app on a real port. Storage is isolated per test app:
// a fresh SQLite directory, or (with DATABASE_URL) a fresh PostgreSQL database,
// both copied from a store migrated once (test/helpers/store-template.ts), and
// REDIS_URL tests get their own key prefix. Everything is removed on close.

export interface TestApp {
  app: FastifyInstance;
  url: string;
  api: string;
  store: Store;
  /**
   * Repositories over the app's store, for seeding and inspecting data: the app hands out
   * use cases only (docs/architecture.md). Channel secrets use the app's key (same data directory).
   */
  repos: Repositories;
  config: Config;
  /** Checks every response against the OpenAPI document (test/helpers/openapi-responses.ts). */
  responses: ResponseChecker;
  /** Closes and cleans up; throws when responses were sent that the document does not describe. */
  close(): Promise<void>;
}

const LIFTED = { perMinute: 1_000_000, perDay: 100_000_000 };
export const UNLIMITED_RATE_LIMITS = JSON.stringify({
  anonymous: LIFTED,
  free: LIFTED,
  standard: LIFTED,
  pro: LIFTED,
  enterprise: LIFTED,
  vip: LIFTED,
});

let counter = 0;
export const uniqueName = (prefix: string) => `${prefix}_${process.pid}_${Date.now().toString(36)}_${(counter++).toString(36)}`;

/** A settable clock so tests move time instead of waiting. */
export class TestClock implements Clock {
  current: Date;

  constructor(current = new Date()) {
    this.current = current;
  }
  now() {
    return new Date(this.current);
  }
  advance(ms: number) {
    this.current = new Date(this.current.getTime() + ms);
  }
}

export interface StartOptions {
  env?: Record<string, string>;
  clock?: Clock;
  /** Share the storage of another test app (two instances over one database). */
  shareStoreWith?: TestApp;
  catalogFile?: string;
  /** Receives the app's log lines (with LOG_LEVEL set in env). */
  logStream?: NodeJS.WritableStream;
  /** DNS TXT answers for SSO domain verification (the system resolver otherwise). */
  resolveTxt?: TxtResolver;
  /** Registers extra routes on the app before it listens (tests of the test helpers). */
  routes?: (app: FastifyInstance) => void;
}

export async function startApp(opts: StartOptions = {}): Promise<TestApp> {
  const shared = opts.shareStoreWith;
  const dataDir = shared?.config.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'vis-test-'));
  // With DATABASE_URL, an app of its own gets a database of its own (copied from the
  // template); the app it shares the store with has one already.
  const database = !shared && process.env.DATABASE_URL ? uniqueName('t') : null;
  const sharedPg = shared?.config.databaseUrl ? { DATABASE_URL: shared.config.databaseUrl, DATABASE_SCHEMA: shared.config.databaseSchema ?? '' } : null;
  const env: Record<string, string> = {
    LOG_LEVEL: 'silent',
    INGEST: 'off',
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    REDIS_PREFIX: shared?.config.redisPrefix ?? `${uniqueName('vis')}:`,
    ...(sharedPg ?? (database ? { DATABASE_URL: process.env.DATABASE_URL!, DATABASE_SCHEMA: TEMPLATE_SCHEMA } : {})),
    ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
    // Tests make many calls as one client; plan limits are lifted unless a test
    // sets RATE_LIMITS itself ('{}' = the real plan table).
    RATE_LIMITS: UNLIMITED_RATE_LIMITS,
    // Cheap password hashes keep account tests fast; the format and code path are the same.
    PASSWORD_HASH_COST: '10',
    // The tests' clocks move in steps written against a 60 s polling interval (the default
    // was 60 s then; test/integration/ingest/demo.test.ts checks today's default).
    POLL_INTERVAL_SECONDS: '60',
    // The suite runs many servers at once and keeps every core busy: an ingestion worker at a
    // lower priority would be starved by the other test processes and miss its poll deadlines
    // (docs/ingestion.md "The API thread first" says to set 0 on such hosts). The test of the
    // lowered priority sets it itself.
    INGEST_WORKER_NICE: '0',
    ...opts.env,
  };
  // The template is used only where the store is the one set up here: a test that points
  // DATABASE_URL or DATA_DIR elsewhere (its own server, a full disk) gets a real migration.
  let ownDatabase: string | null = null;
  if (!shared) {
    if (database && env.DATABASE_URL === process.env.DATABASE_URL && env.DATABASE_SCHEMA === TEMPLATE_SCHEMA) {
      env.DATABASE_URL = await createPgFromTemplate(process.env.DATABASE_URL!, database);
      ownDatabase = database;
    } else if (!env.DATABASE_URL && env.DATA_DIR === dataDir) {
      await copySqliteTemplate(dataDir);
    }
  }
  const config = loadConfig(env);
  const store = openStore(config);
  const { app, checker } = await withResponseChecks(() =>
    buildApp(config, { clock: opts.clock, store, catalogFile: opts.catalogFile, logStream: opts.logStream, resolveTxt: opts.resolveTxt }),
  );
  opts.routes?.(app);
  // After the app: its start wrote the data directory's secrets key when there was none.
  const repos = createRepositories(store, loadSecretBox({ key: config.secretsKey, previous: config.secretsKeyPrevious, dataDir: config.dataDir }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const url = `http://127.0.0.1:${port}`;
  return {
    app,
    url,
    api: `${url}${API_PREFIX}`,
    store,
    repos,
    config,
    responses: checker,
    async close() {
      let failed: unknown = null;
      try {
        await app.close();
        await store.close();
        if (!shared) {
          if (config.redisUrl) await dropRedisKeys(config.redisUrl, config.redisPrefix);
          if (ownDatabase) await dropPgDatabase(process.env.DATABASE_URL!, ownDatabase);
          else if (config.databaseUrl && config.databaseSchema) await dropSchema(config.databaseUrl, config.databaseSchema);
          // The data directory exists on PostgreSQL too (local state); it goes either way.
          fs.rmSync(dataDir, { recursive: true, force: true });
        }
      } catch (err) {
        failed = err;
      }
      checker.detach();
      const violations = checker.take();
      if (violations.length) throw new Error(formatViolations(violations), failed ? { cause: failed } : undefined);
      if (failed) throw failed;
    },
  };
}

/** Removes every key under a test's prefix (a down Redis has nothing to clean). */
export async function dropRedisKeys(url: string, prefix: string) {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  redis.on('error', () => {});
  try {
    await redis.connect();
  } catch {
    redis.disconnect();
    return;
  }
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      if (keys.length) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

export async function dropSchema(url: string, schema: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`drop schema if exists "${schema}" cascade`);
  } finally {
    await client.end();
  }
}

/** fetch + JSON body, never throwing on status. */
export async function getJson(url: string, init?: RequestInit): Promise<{ status: number; headers: Headers; body: any }> {
  const res = await fetch(url, init);
  const text = await res.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.status, headers: res.headers, body };
}
