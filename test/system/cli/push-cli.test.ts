import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { startApp, TestClock, type TestApp } from '../../helpers/app.ts';

const exec = promisify(execFile);

// `npm run cli -- push …` (docs/ingestion.md "Push from vendors") run as an operator runs it,
// against the store of a running app, and the URL it prints used as a vendor would.

describe('operator CLI: push URLs', () => {
  let t: TestApp;
  const clock = new TestClock(new Date());
  before(async () => {
    t = await startApp({ clock });
  });
  after(async () => t?.close());

  const env = () => ({
    ...process.env,
    LOG_LEVEL: 'silent',
    DATA_DIR: t.config.dataDir,
    PUBLIC_URL: t.url,
    ...(t.config.databaseUrl ? { DATABASE_URL: t.config.databaseUrl, DATABASE_SCHEMA: t.config.databaseSchema! } : {}),
  });
  const cli = (args: string[]) => exec('npm', ['run', '-s', 'cli', '--', 'push', ...args], { env: env() });

  test('create prints the URL once; a POST to it is accepted and due; list shows the count; revoke ends it', async () => {
    const out = await cli(['create', '--vendor', 'github']);
    const url = out.stdout.trim().split('\n').at(-1)!;
    assert.match(url, new RegExp(`^${t.url}/api/v1/push/vpush_[A-Za-z0-9_-]{43}$`));

    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"incident":{"id":"x"}}' });
    assert.equal(res.status, 202);
    const due = await t.repos.sources.list('github');
    assert.ok(due.every((s) => s.nextPollAt === null || Date.parse(s.nextPollAt) <= Date.now() + 10_000));

    const listed = JSON.parse((await cli(['list', '--vendor', 'github', '--json'])).stdout);
    assert.equal(listed.length, 1);
    assert.equal(listed[0].pushes, 1);
    // The token is never listed again.
    assert.ok(!JSON.stringify(listed).includes(url.split('/').at(-1)!));

    await cli(['revoke', '--id', listed[0].id]);
    // Past the window in which a repeated push is answered from memory (coalesced, it
    // changes nothing): the next one asks the store, which no longer knows the token.
    clock.advance(1_001);
    assert.equal((await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).status, 404);
  });

  test('an unknown vendor or a missing argument exits non-zero with a message', async () => {
    await assert.rejects(cli(['create', '--vendor', 'no-such-vendor']), (err: any) => {
      assert.equal(err.code, 1);
      assert.match(err.stderr, /Unknown catalog vendor 'no-such-vendor'/);
      return true;
    });
    await assert.rejects(cli(['create']), (err: any) => {
      assert.equal(err.code, 2);
      assert.match(err.stderr, /push create --vendor SLUG/);
      return true;
    });
  });
});
