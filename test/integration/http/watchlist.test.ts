import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { getJson, startApp, type TestApp } from '../../helpers/app.ts';
import { createUser, loginCookie, send, type TestUser } from '../../helpers/users.ts';

// The watchlist over a real listening server, with real accounts and API keys.

const ORIGIN = 'https://dashboard.example.com';

describe('watchlist', () => {
  let t: TestApp;
  let slugs: string[];
  let free: TestUser;
  let other: TestUser;
  let pro: TestUser;
  const wl = (path = '') => `${t.api}/watchlist${path}`;

  before(async () => {
    t = await startApp({ env: { API_KEY_MIN_PLAN: 'free', WEB_ORIGINS: ORIGIN } });
    slugs = (await getJson(`${t.api}/vendor-list`)).body.vendors.map((v: { id: string }) => v.id);
    assert.ok(slugs.length >= 30);
    [free, other, pro] = await Promise.all([createUser(t, 'free'), createUser(t, 'free'), createUser(t, 'pro')]);
  });
  after(async () => t.close());

  test('every watchlist endpoint needs a key or a session: 401 otherwise', async () => {
    const calls: [string, string, unknown?][] = [
      ['GET', ''],
      ['PUT', '', { vendors: ['github'] }],
      ['POST', '/github'],
      ['DELETE', '/github'],
    ];
    for (const [method, path, body] of calls) {
      const none = await send(wl(path), method, {}, body);
      assert.equal(none.status, 401, `${method} ${path}`);
      assert.equal(none.body.success, false);
      assert.equal(none.body.error, 'unauthorized');
      const wrong = await send(wl(path), method, { 'x-api-key': 'vis_wrongwrongwrongwrongwrongwrongwrong' }, body);
      assert.equal(wrong.status, 401, `${method} ${path} wrong key`);
    }
  });

  test('a new free account starts empty with limit 10; a pro account is unlimited', async () => {
    const r = await send(wl(), 'GET', free.headers);
    assert.equal(r.status, 200);
    assert.deepEqual(r.body, { success: true, vendors: [], count: 0, limit: 10, remaining: 10, isUnlimited: false });
    const p = await send(wl(), 'GET', { authorization: `Bearer ${pro.key}` });
    assert.deepEqual(p.body, { success: true, vendors: [], count: 0, isUnlimited: true });
  });

  test('POST adds once (idempotent), DELETE removes, order is the order of adding', async () => {
    const a = await send(wl('/github'), 'POST', free.headers);
    assert.equal(a.status, 200);
    assert.deepEqual(a.body.vendors, ['github']);
    const again = await send(wl('/github'), 'POST', free.headers);
    assert.deepEqual(again.body, a.body);
    await send(wl('/cloudflare'), 'POST', free.headers);
    const list = await send(wl(), 'GET', free.headers);
    assert.deepEqual(list.body.vendors, ['github', 'cloudflare']);
    assert.equal(list.body.remaining, 8);
    const del = await send(wl('/github'), 'DELETE', free.headers);
    assert.deepEqual(del.body.vendors, ['cloudflare']);
    const delAgain = await send(wl('/github'), 'DELETE', free.headers);
    assert.equal(delAgain.status, 200, 'removing a vendor that is not listed is a no-op');
    assert.deepEqual(delAgain.body.vendors, ['cloudflare']);
  });

  test('unknown slugs: 404 naming them; malformed slugs and bodies: 400', async () => {
    const before = (await send(wl(), 'GET', free.headers)).body;
    for (const [method, path, body] of [
      ['POST', '/no-such-vendor'],
      ['DELETE', '/no-such-vendor'],
      ['PUT', '', { vendors: ['github', 'no-such-vendor', 'nor-this-one'] }],
    ] as const) {
      const r = await send(wl(path), method, free.headers, body);
      assert.equal(r.status, 404, `${method} ${path}`);
      assert.match(r.body.message, /no-such-vendor/);
      if (method === 'PUT') assert.match(r.body.message, /nor-this-one/);
    }
    const bad: [string, string, unknown][] = [
      ['POST', '/Not_A_Slug', undefined],
      ['PUT', '', { vendors: 'github' }],
      ['PUT', '', { vendors: ['github'], extra: true }],
      ['PUT', '', { vendor: ['github'] }],
      ['PUT', '', '[not json'],
      ['PUT', '', undefined],
      ['PUT', '', { vendors: [1] }],
    ];
    for (const [method, path, body] of bad) {
      const r = await send(wl(path), method, free.headers, body);
      assert.equal(r.status, 400, `${method} ${path} ${JSON.stringify(body)}`);
      assert.equal(r.body.success, false);
      assert.ok(r.body.message && r.body.requestId);
    }
    const unknown = await send(wl(), 'PUT', free.headers, { vendors: [], extra: 1, more: 2 });
    assert.match(unknown.body.message, /'extra'.*'more'/);
    assert.deepEqual((await send(wl(), 'GET', free.headers)).body, before, 'nothing changed');
  });

  test('PUT replaces the list; duplicates collapse and order is kept', async () => {
    const r = await send(wl(), 'PUT', free.headers, { vendors: ['amazon-web-services', 'github', 'amazon-web-services', 'stripe', 'github'] });
    assert.equal(r.status, 200);
    assert.deepEqual(r.body.vendors, ['amazon-web-services', 'github', 'stripe']);
    assert.equal(r.body.count, 3);
    assert.equal(r.body.remaining, 7);
    const added = await send(wl('/openai'), 'POST', free.headers);
    assert.deepEqual(added.body.vendors, ['amazon-web-services', 'github', 'stripe', 'openai']);
    const empty = await send(wl(), 'PUT', free.headers, { vendors: [] });
    assert.deepEqual(empty.body.vendors, []);
  });

  test('free plan over 10: 403 with currentPlan, limit and hint, and nothing changed', async () => {
    await send(wl(), 'PUT', free.headers, { vendors: slugs.slice(0, 3) });
    const r = await send(wl(), 'PUT', free.headers, { vendors: slugs.slice(0, 11) });
    assert.equal(r.status, 403);
    assert.equal(r.body.success, false);
    assert.equal(r.body.currentPlan, 'free');
    assert.equal(r.body.limit, 10);
    assert.ok(r.body.hint);
    assert.deepEqual((await send(wl(), 'GET', free.headers)).body.vendors, slugs.slice(0, 3));

    const ten = await send(wl(), 'PUT', free.headers, { vendors: slugs.slice(0, 10) });
    assert.equal(ten.status, 200);
    assert.equal(ten.body.remaining, 0);
    const eleventh = await send(wl(`/${slugs[10]}`), 'POST', free.headers);
    assert.equal(eleventh.status, 403);
    assert.equal(eleventh.body.currentPlan, 'free');
    assert.equal(eleventh.body.limit, 10);
    assert.ok(eleventh.body.hint);
    const existing = await send(wl(`/${slugs[0]}`), 'POST', free.headers);
    assert.equal(existing.status, 200, 'adding a listed vendor at the cap is still a no-op success');
    assert.equal((await send(wl(), 'GET', free.headers)).body.count, 10);

    const big = await send(wl(), 'PUT', pro.headers, { vendors: slugs.slice(0, 30) });
    assert.equal(big.status, 200, 'paid plans have no cap');
    assert.equal(big.body.count, 30);
  });

  test('20 concurrent POST /watchlist/{vendor} on the free plan never exceed the cap', async () => {
    const u = await createUser(t, 'free');
    const results = await Promise.all(slugs.slice(0, 20).map((s) => send(wl(`/${s}`), 'POST', u.headers)));
    const statuses = results.map((r) => r.status).sort();
    assert.equal(statuses.filter((s) => s === 200).length, 10, statuses.join(','));
    assert.equal(statuses.filter((s) => s === 403).length, 10, statuses.join(','));
    const after = await send(wl(), 'GET', u.headers);
    assert.equal(after.body.count, 10);
    assert.equal(new Set(after.body.vendors).size, 10);
    // Every 200 answer saw at most the cap.
    for (const r of results) if (r.status === 200) assert.ok(r.body.count <= 10);
  });

  test('concurrent adds through two instances over one database also stop at the cap', async () => {
    const second = await startApp({ shareStoreWith: t, env: { API_KEY_MIN_PLAN: 'free', WEB_ORIGINS: ORIGIN } });
    try {
      const u = await createUser(t, 'free');
      await send(wl(), 'PUT', u.headers, { vendors: slugs.slice(0, 4) });
      const results = await Promise.all(slugs.slice(4, 24).map((s, i) => send(`${i % 2 ? second.api : t.api}/watchlist/${s}`, 'POST', u.headers)));
      assert.equal(results.filter((r) => r.status === 200).length, 6);
      assert.equal(results.filter((r) => r.status === 403).length, 14);
      assert.equal((await send(wl(), 'GET', u.headers)).body.count, 10);
    } finally {
      await second.close();
    }
  });

  test("one user's calls never read or change another's watchlist", async () => {
    const a = await createUser(t, 'free');
    const b = await createUser(t, 'free');
    await send(wl(), 'PUT', a.headers, { vendors: ['github', 'amazon-web-services'] });
    await send(wl(), 'PUT', b.headers, { vendors: ['stripe'] });
    assert.deepEqual((await send(wl(), 'GET', b.headers)).body.vendors, ['stripe']);
    await send(wl('/github'), 'DELETE', b.headers);
    await send(wl('/openai'), 'POST', b.headers);
    await send(wl(), 'PUT', b.headers, { vendors: ['cloudflare', 'openai'] });
    assert.deepEqual((await send(wl(), 'GET', a.headers)).body.vendors, ['github', 'amazon-web-services']);
    assert.deepEqual((await send(wl(), 'GET', b.headers)).body.vendors, ['cloudflare', 'openai']);
    // Another account's key never reaches these rows, whatever the path says.
    assert.deepEqual((await send(wl(), 'GET', other.headers)).body.vendors, []);
  });

  test('a web session works too; its state-changing calls need an allowed Origin', async () => {
    const u = await createUser(t, 'free');
    const cookie = await loginCookie(t, u);
    const put = await send(wl(), 'PUT', { cookie, origin: ORIGIN }, { vendors: ['github'] });
    assert.equal(put.status, 200);
    assert.deepEqual((await send(wl(), 'GET', { cookie })).body.vendors, ['github']);
    const noOrigin = await send(wl('/aws'), 'POST', { cookie });
    assert.equal(noOrigin.status, 403);
    const foreign = await send(wl('/aws'), 'POST', { cookie, origin: 'https://evil.example' });
    assert.equal(foreign.status, 403);
    assert.deepEqual((await send(wl(), 'GET', u.headers)).body.vendors, ['github'], 'the key sees the same rows');
  });

  test('after a downgrade the list stays; adds are refused until below the cap', async () => {
    const u = await createUser(t, 'pro');
    await send(wl(), 'PUT', u.headers, { vendors: slugs.slice(0, 12) });
    await t.app.services.accounts.setPlan(u.email, 'free');
    const r = await send(wl(), 'GET', u.headers);
    assert.equal(r.body.count, 12);
    assert.equal(r.body.limit, 10);
    assert.equal(r.body.remaining, 0);
    assert.equal((await send(wl(`/${slugs[20]}`), 'POST', u.headers)).status, 403);
    assert.equal((await send(wl(`/${slugs[0]}`), 'DELETE', u.headers)).body.count, 11);
  });

  test('deleting an account removes its watchlist rows', async () => {
    const u = await createUser(t, 'free');
    await send(wl(), 'PUT', u.headers, { vendors: ['github'] });
    await t.store.db.deleteFrom('users').where('id', '=', u.id).execute();
    const left = await t.store.db.selectFrom('watchlist_vendors').select('vendor').where('org_id', '=', u.id).execute();
    assert.deepEqual(left, []);
  });
});
