// @store-independent: always the embedded SQLite store, whose write lock is the subject; runs in one CI leg only (docs/testing.md, "Tiers").
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { DomainError } from '../../../src/domain/errors.ts';
import { openStore, SQLITE_FILE, type Store } from '../../../src/store/db.ts';
import { waitingForLock } from '../../../src/store/sqlite-lock-wait.ts';

// While another connection (the ingestion worker) holds SQLite's write lock, a write of
// this thread waits on a timer, not inside better-sqlite3's synchronous call, so the
// thread keeps serving (docs/ingestion.md "Waiting for the write lock").

const busy = (code = 'SQLITE_BUSY') => Object.assign(new Error('database is locked'), { code });

describe('SQLite write lock', () => {
  let dir: string;
  let store: Store;
  let other: SQLite.Database;

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vis-lock-'));
    store = openStore({ databaseUrl: null, databaseSchema: null, dataDir: dir });
    await sql`create table t (n integer)`.execute(store.db);
    other = new SQLite(path.join(dir, SQLITE_FILE));
  });
  after(async () => {
    other.close();
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('a write waits for the lock without blocking the thread, then succeeds', async () => {
    other.exec('begin immediate; insert into t values (1)');
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 5);
    // Released by a timer: on a thread blocked inside the write, it could never fire.
    const release = setTimeout(() => other.exec('commit'), 150);
    try {
      const started = performance.now();
      await sql`insert into t values (2)`.execute(store.db);
      const waited = performance.now() - started;
      assert.ok(waited >= 100, `the write waited for the lock (${waited.toFixed(0)} ms)`);
      assert.ok(ticks >= 5, `the thread ran timers while the write waited (${ticks})`);
    } finally {
      clearInterval(ticker);
      clearTimeout(release);
      if (other.inTransaction) other.exec('rollback');
    }
    const { rows } = await sql<{ n: number }>`select n from t order by n`.execute(store.db);
    assert.deepEqual(
      rows.map((r) => r.n),
      [1, 2],
    );
  });

  test('a transaction whose first write waits commits whole', async () => {
    other.exec('begin immediate');
    const release = setTimeout(() => other.exec('commit'), 80);
    try {
      await store.db.transaction().execute(async (trx) => {
        await sql`insert into t values (3)`.execute(trx);
        await sql`insert into t values (4)`.execute(trx);
      });
    } finally {
      clearTimeout(release);
      if (other.inTransaction) other.exec('rollback');
    }
    const { rows } = await sql<{ c: number }>`select count(*) as c from t where n in (3, 4)`.execute(store.db);
    assert.equal(rows[0]!.c, 2);
  });

  test('past the wait, the write fails as unavailable', async () => {
    let attempts = 0;
    await assert.rejects(
      waitingForLock(
        async () => {
          attempts++;
          throw busy();
        },
        { timeoutMs: 40, backoffMs: () => 5 },
      ),
      (err: Error & { code?: string }) => err.code === 'SQLITE_BUSY',
    );
    assert.ok(attempts >= 3 && attempts <= 9, `retried until the deadline (${attempts})`);
  });

  test('a stale snapshot and other errors are not retried', async () => {
    for (const err of [busy('SQLITE_BUSY_SNAPSHOT'), busy('SQLITE_CONSTRAINT_UNIQUE'), new DomainError('not_found', 'no')]) {
      let attempts = 0;
      await assert.rejects(
        waitingForLock(
          async () => {
            attempts++;
            throw err;
          },
          { timeoutMs: 1000, backoffMs: () => 1 },
        ),
        (e) => e === err,
      );
      assert.equal(attempts, 1);
    }
  });
});
