import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { getJson, startApp, type TestApp } from '../helpers/app.ts';
import { uniqueEmail } from '../helpers/access.ts';
import { cli } from '../helpers/cli.ts';

// The operator CLI's account commands as processes against a running demo's store
// (docs/operations.md "Operator CLI"): they never touch the catalog or sources, work
// with --demo without starting a simulator, and read the password from stdin.

function run(t: TestApp, args: string[], input?: string) {
  return cli(
    args,
    {
      LOG_LEVEL: 'silent',
      DATA_DIR: t.config.dataDir,
      PASSWORD_HASH_COST: '10',
      ...(t.config.databaseUrl ? { DATABASE_URL: t.config.databaseUrl, DATABASE_SCHEMA: t.config.databaseSchema! } : {}),
    },
    input,
  );
}

describe('operator CLI on a running demo store', () => {
  let t: TestApp;
  before(async () => {
    // A demo app: its sources point at its own simulator; the CLI must leave them so.
    t = await startApp({ env: { DEMO: 'true', DEMO_SEED: '3', AUTH_CACHE_SECONDS: '0' } });
  });
  after(async () => t.close());

  const sources = () => t.store.db.selectFrom('sources').selectAll().orderBy('vendor').orderBy('type').orderBy('url').execute();
  const vendors = () => t.store.db.selectFrom('vendors').selectAll().orderBy('slug').execute();

  test('users create/set-plan/list and keys create/list/revoke leave vendors and sources untouched', async () => {
    const sourcesBefore = await sources();
    const vendorsBefore = await vendors();
    assert.ok(sourcesBefore.every((s) => s.url.startsWith(t.app.ingest.simulator!.url)));
    const email = uniqueEmail('op');

    const created = await run(t, ['--demo', 'users', 'create', '--email', email, '--password-stdin', '--plan', 'free'], 'a password from stdin\n');
    assert.equal(created.code, 0, created.stderr);
    const id = created.stdout.trim();
    assert.match(id, /^[0-9a-f-]{36}$/);

    const plan = await run(t, ['--demo', 'users', 'set-plan', '--email', email, '--plan', 'standard']);
    assert.equal(plan.code, 0, plan.stderr);
    const list = await run(t, ['--demo', 'users', 'list']);
    assert.equal(list.code, 0, list.stderr);
    const line = list.stdout.split('\n').find((l) => l.includes(email));
    assert.ok(line, list.stdout);
    assert.match(line!, new RegExp(`^${id}\\s+${email.replace(/[.+]/g, '\\$&')}\\s+standard\\s`));
    const json = await run(t, ['--demo', 'users', 'list', '--json']);
    assert.equal((JSON.parse(json.stdout) as { email: string; plan: string }[]).find((u) => u.email === email)?.plan, 'standard');

    const key = await run(t, ['--demo', 'keys', 'create', '--email', email, '--name', 'ci']);
    assert.equal(key.code, 0, key.stderr);
    const secret = key.stdout.trim().split('\n').at(-1)!;
    assert.match(secret, /^vis_[A-Za-z0-9]{40}$/);
    assert.equal((await getJson(`${t.api}/vendor-list`, { headers: { 'x-api-key': secret } })).status, 200);

    const keys = await run(t, ['--demo', 'keys', 'list', '--email', email]);
    assert.equal(keys.code, 0, keys.stderr);
    assert.ok(keys.stdout.includes(secret.slice(0, 12)), keys.stdout);
    assert.ok(!keys.stdout.includes(secret), 'the secret is never listed');
    const keyId = keys.stdout.split('\n')[1]!.split(/\s+/)[0]!;
    const revoked = await run(t, ['--demo', 'keys', 'revoke', '--id', keyId]);
    assert.equal(revoked.code, 0, revoked.stderr);
    assert.equal((await getJson(`${t.api}/vendor-list`, { headers: { 'x-api-key': secret } })).status, 401);
    assert.match((await run(t, ['--demo', 'keys', 'list', '--email', email])).stdout, /No active keys/);
    assert.equal((await run(t, ['--demo', 'keys', 'revoke', '--id', keyId])).code, 1, 'a revoked key cannot be revoked again');

    // The password came from stdin, whole, without its line ending.
    const login = await getJson(`${t.url}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: 'a password from stdin' }),
    });
    assert.equal(login.status, 200);

    assert.deepEqual(await sources(), sourcesBefore, 'sources are untouched');
    assert.deepEqual(await vendors(), vendorsBefore, 'vendors are untouched');
  });

  test('without --password, and stdin not a terminal, users create says how to give one', async () => {
    const r = await run(t, ['users', 'create', '--email', uniqueEmail('nopw'), '--plan', 'free']);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /--password-stdin/);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
  });
});
