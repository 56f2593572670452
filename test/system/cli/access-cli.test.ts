import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { getJson, startApp, type TestApp } from '../../helpers/app.ts';
import { uniqueEmail } from '../../helpers/access.ts';

const exec = promisify(execFile);

// The operator commands of docs/operations.md, run as processes against the storage of a running app.

describe('operator CLI: users and keys', () => {
  let t: TestApp;
  before(async () => {
    // Plan changes made by another process reach this one without waiting for the credential cache.
    t = await startApp({ env: { AUTH_CACHE_SECONDS: '0' } });
  });
  after(async () => t.close());

  const env = () => ({
    ...process.env,
    LOG_LEVEL: 'silent',
    DATA_DIR: t.config.dataDir,
    PASSWORD_HASH_COST: '10',
    ...(t.config.databaseUrl ? { DATABASE_URL: t.config.databaseUrl, DATABASE_SCHEMA: t.config.databaseSchema! } : {}),
  });
  const cli = (args: string[]) => exec(process.execPath, ['src/cli/index.ts', ...args], { env: env() });

  test('users create prints the id; keys create prints the secret on its last line; set-plan changes the plan', async () => {
    const email = uniqueEmail('cli');
    const created = await exec('npm', ['run', '-s', 'cli', '--', 'users', 'create', '--email', email, '--password', 'operator password', '--plan', 'pro'], {
      env: env(),
    });
    const id = created.stdout.trim();
    assert.match(id, /^[0-9a-f-]{36}$/);
    const row = await t.store.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    assert.equal(row.email, email);
    // The plan is the personal organisation's (same id as the account).
    const org = await t.store.db.selectFrom('organisations').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    assert.equal(org.plan, 'pro');
    assert.equal(org.personal_user_id, id);

    const keyOut = await cli(['keys', 'create', '--email', email, '--name', 'deploy bot']);
    const lines = keyOut.stdout.trim().split('\n');
    const secret = lines[lines.length - 1];
    assert.match(secret, /^vis_[0-9A-Za-z]{40}$/);
    const r = await getJson(`${t.api}/incidents?timePeriod=90d`, { headers: { 'x-api-key': secret } });
    assert.equal(r.status, 200);
    assert.equal(r.body.dataWindow.applied, '90d');

    await cli(['users', 'set-plan', '--email', email, '--plan', 'free']);
    const after = await getJson(`${t.api}/incidents?timePeriod=90d`, { headers: { 'x-api-key': secret } });
    assert.equal(after.body.dataWindow.applied, '7d');
  });

  test('bad input exits non-zero with a message', async () => {
    await assert.rejects(cli(['users', 'create', '--email', uniqueEmail(), '--password', 'operator password', '--plan', 'platinum']), (err: any) => {
      assert.equal(err.code, 1);
      assert.match(err.stderr, /--plan must be one of/);
      return true;
    });
    // The password policy applies to operator-made accounts too (docs/security.md).
    for (const password of ['short pw', 'password1234']) {
      await assert.rejects(cli(['users', 'create', '--email', uniqueEmail(), '--password', password, '--plan', 'pro']), (err: any) => {
        assert.equal(err.code, 1);
        assert.match(err.stderr, /password/);
        return true;
      });
    }
    await assert.rejects(cli(['keys', 'create', '--email', uniqueEmail('nobody')]), (err: any) => {
      assert.equal(err.code, 1);
      assert.match(err.stderr, /No account/);
      return true;
    });
    await assert.rejects(cli(['users']), (err: any) => err.code === 2);
  });
});
