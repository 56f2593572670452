import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { getJson, startApp, type TestApp } from '../../helpers/app.ts';
import { createUser, loginCookie, send } from '../../helpers/users.ts';

// The per-plan API key cap under concurrency (docs/security.md, "API key cap under
// concurrency"): on PostgreSQL, 30 concurrent creations by one account made 29 keys under
// a cap of 5, as each counted the keys before any had inserted. Runs on the store the
// environment names: SQLite by default, PostgreSQL with DATABASE_URL (both must hold).

describe('API key cap under concurrent creations', () => {
  let t: TestApp;
  before(async () => {
    t = await startApp();
  });
  after(async () => t?.close());

  test('30 concurrent creations on a standard account (cap 5, one key held) make exactly 4 keys', async () => {
    const u = await createUser(t, 'standard');
    const web = { cookie: await loginCookie(t, u), origin: t.url };
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => send(`${t.url}/api/v1/account/keys`, 'POST', web, { name: `burst ${i}` })));
    const statuses = answers.map((a) => a.status);
    assert.equal(statuses.filter((s) => s === 201).length, 4, JSON.stringify(statuses));
    assert.equal(statuses.filter((s) => s === 403).length, 26, JSON.stringify(statuses));
    for (const a of answers.filter((x) => x.status === 403)) assert.equal(a.body.error, 'limit_exceeded');
    const listed = await getJson(`${t.url}/api/v1/account/keys`, { headers: { cookie: web.cookie } });
    assert.equal(listed.status, 200, JSON.stringify(listed.body));
    assert.equal(listed.body.keys.length, 5);
    const rows = await t.store.db.selectFrom('api_keys').select('id').where('user_id', '=', u.id).where('revoked_at', 'is', null).execute();
    assert.equal(rows.length, 5, 'the store holds the cap, no more');
  });
});
