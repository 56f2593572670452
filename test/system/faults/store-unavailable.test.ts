import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { DomainError } from '../../../src/domain/errors.ts';
import { isUnavailable, translate } from '../../../src/store/unavailable.ts';
import { startApp, type TestApp } from '../../helpers/app.ts';

// Which driver errors mean "the store cannot be used right now" (→ 'unavailable', 503)
// and which are ordinary failures that keep their own meaning. The faults themselves
// are in postgres-restart.test.ts (refused, 57P01, lost connection, frozen server) and
// disk-full.test.ts (SQLITE_FULL).

const err = (code: string | undefined, message = 'x') => Object.assign(new Error(message), code ? { code } : {});

describe('store errors that mean unavailable', () => {
  test('connection, shutdown, resource and disk errors of both drivers', () => {
    for (const e of [
      err('ECONNREFUSED'),
      err('ECONNRESET'),
      err('ETIMEDOUT'),
      err('57P01'), // admin shutdown
      err('57P03'), // starting up
      err('08006'), // connection failure
      err('53100'), // disk full
      err('53300'), // too many connections
      err('57014'), // statement timeout
      err('SQLITE_FULL'),
      err('SQLITE_IOERR_WRITE'),
      err('SQLITE_BUSY'),
      err('SQLITE_BUSY_SNAPSHOT'), // a stale snapshot after waiting for the lock
      err(undefined, 'Connection terminated unexpectedly'),
      err(undefined, 'timeout exceeded when trying to connect'),
      err(undefined, 'Client was closed and is not queryable'),
      new AggregateError([err('ECONNREFUSED'), err('ECONNREFUSED')], 'all addresses failed'),
    ]) {
      assert.ok(isUnavailable(e), `${(e as { code?: string }).code ?? e.message}`);
    }
  });

  test('other errors pass through unchanged', () => {
    for (const e of [
      err('23505'), // unique violation: a conflict, not an outage
      err('42P01'), // undefined table: a bug
      err('SQLITE_CONSTRAINT_UNIQUE'),
      err('SQLITE_ERROR', 'no such table: x'),
      err(undefined, 'something else'),
      new DomainError('not_found', 'no'),
      new AggregateError([err('ECONNREFUSED'), err('23505')], 'mixed'),
    ]) {
      assert.equal(isUnavailable(e), false, `${(e as { code?: string }).code ?? e.message}`);
      assert.equal(translate(e), e);
    }
  });

  test("translated: the domain error 'unavailable' with the driver's error as its cause", () => {
    const cause = err('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432');
    const out = translate(cause) as DomainError;
    assert.ok(out instanceof DomainError);
    assert.equal(out.code, 'unavailable');
    assert.doesNotMatch(out.message, /ECONNREFUSED|5432/);
    assert.equal((out as { cause?: unknown }).cause, cause);
  });
});

describe('through the store', () => {
  let t: TestApp;
  before(async () => {
    t = await startApp();
  });
  after(async () => t?.close());

  test('an ordinary SQL error keeps its own code (not mapped to unavailable)', async () => {
    await assert.rejects(
      sql`select * from no_such_table_here`.execute(t.store.db),
      (e: unknown) => !(e instanceof DomainError) && ['42P01', 'SQLITE_ERROR'].includes((e as { code?: string }).code ?? ''),
    );
  });

  test('a failed transaction rolls back and reports its own error', async () => {
    await assert.rejects(
      t.store.db.transaction().execute(async (trx) => {
        await sql`select 1`.execute(trx);
        throw new Error('boom');
      }),
      /boom/,
    );
    await sql`select 1`.execute(t.store.db);
  });
});
