import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { createUser, loginCookie, send, type TestUser } from '../../helpers/users.ts';

// Named watchlists of an organisation (docs/teams.md, "Named watchlists"): several lists
// beside the organisation's own, unique names, the plan's vendor cap per list, unknown
// vendors named, editors only for changes, every change audited; bad input is a 4xx.

describe('named watchlists', () => {
  let t: TestApp;
  let owner: TestUser;
  let ownerCookie: string;
  let orgId: string;
  const url = (p = '') => `${t.url}/api/v1/orgs/${orgId}/watchlists${p}`;
  const s = (c: string) => ({ cookie: c, origin: t.url });

  before(async () => {
    t = await startApp();
    owner = await createUser(t, 'free');
    ownerCookie = await loginCookie(t, owner);
    orgId = (await send(`${t.url}/api/v1/orgs`, 'POST', s(ownerCookie), { name: 'Lists team' })).body.organisation.id;
  });
  after(() => t.close());

  test('several lists, each with its vendors in order; names unique in the organisation', async () => {
    const pay = await send(url(), 'POST', s(ownerCookie), { name: 'payments', vendors: ['stripe', 'github', 'stripe'] });
    assert.equal(pay.status, 201, JSON.stringify(pay.body));
    assert.deepEqual(pay.body.watchlist.vendors, ['stripe', 'github']);
    // A key acts for its own organisation only: the owner's personal key does not reach the team's lists.
    assert.equal((await send(url(), 'POST', owner.headers, { name: 'platform', vendors: ['cloudflare'] })).status, 404);
    const plat = await send(url(), 'POST', s(ownerCookie), { name: 'platform', vendors: ['cloudflare'] });
    assert.equal(plat.status, 201);
    const again = await send(url(), 'POST', s(ownerCookie), { name: 'payments', vendors: [] });
    assert.equal(again.status, 409);
    assert.equal(again.body.parameter, 'name');

    const list = await send(url(), 'GET', s(ownerCookie));
    assert.deepEqual(
      list.body.watchlists.map((w: any) => [w.name, w.vendors]),
      [
        ['payments', ['stripe', 'github']],
        ['platform', ['cloudflare']],
      ],
    );
    // The organisation's own watchlist is apart.
    assert.deepEqual((await send(`${t.api}/watchlist`, 'GET', owner.headers)).body.vendors, []);

    const renamed = await send(url(`/${plat.body.watchlist.id}`), 'PUT', s(ownerCookie), { name: 'platform team', vendors: ['gitlab'] });
    assert.equal(renamed.status, 200);
    assert.deepEqual([renamed.body.watchlist.name, renamed.body.watchlist.vendors], ['platform team', ['gitlab']]);
    assert.equal((await send(url(`/${plat.body.watchlist.id}`), 'PUT', s(ownerCookie), { name: 'payments' })).status, 409);
    assert.equal((await send(url(`/${plat.body.watchlist.id}`), 'DELETE', s(ownerCookie))).status, 200);
    assert.equal((await send(url(`/${plat.body.watchlist.id}`), 'GET', s(ownerCookie))).status, 404);

    const audit = await send(`${t.url}/api/v1/orgs/${orgId}/audit?limit=20`, 'GET', s(ownerCookie));
    const actions = audit.body.entries.map((e: any) => e.action);
    for (const a of ['watchlist.created', 'watchlist.updated', 'watchlist.deleted']) assert.ok(actions.includes(a), a);
  });

  test('bad input: unknown vendors named, the plan cap, names with control characters, unknown fields, empty change', async () => {
    const unknown = await send(url(), 'POST', s(ownerCookie), { name: 'x', vendors: ['github', 'no-such-vendor'] });
    assert.equal(unknown.status, 404);
    assert.match(unknown.body.message, /no-such-vendor/);
    // The team is on the free plan: 10 vendors per list.
    const eleven = ['github', 'stripe', 'cloudflare', 'gitlab', 'slack', 'datadog', 'twilio', 'sentry', 'okta', 'fastly', 'heroku'];
    const over = await send(url(), 'POST', s(ownerCookie), { name: 'big', vendors: eleven });
    assert.ok(over.status === 403 || over.status === 404, JSON.stringify(over.body));
    if (over.status === 403) assert.equal(over.body.error, 'limit_exceeded');
    for (const body of [
      { name: 'a\u0000b', vendors: [] },
      { name: 'x', vendors: [], orgId: 'other' },
      { name: 'x', vendors: ['Not A Slug'] },
      { name: '', vendors: [] },
    ]) {
      const r = await send(url(), 'POST', s(ownerCookie), body);
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.equal(r.body.success, false);
    }
    const some = (await send(url(), 'GET', s(ownerCookie))).body.watchlists[0].id;
    assert.equal((await send(url(`/${some}`), 'PUT', s(ownerCookie), {})).status, 400);
    assert.equal((await send(url('/00000000-0000-4000-8000-000000000000'), 'PUT', s(ownerCookie), { vendors: [] })).status, 404);
  });

  test('at most 50 lists per organisation', async () => {
    const have = (await send(url(), 'GET', s(ownerCookie))).body.watchlists.length;
    for (let i = have; i < 50; i++) assert.equal((await send(url(), 'POST', s(ownerCookie), { name: `list ${i}`, vendors: [] })).status, 201);
    const full = await send(url(), 'POST', s(ownerCookie), { name: 'one too many', vendors: [] });
    assert.equal(full.status, 403);
    assert.equal(full.body.error, 'limit_exceeded');
    assert.equal(full.body.limit, 50);
  });
});
