import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { emit, incident } from '../../helpers/alerts.ts';
import { opsgenieReply } from '../../helpers/chat-fakes.ts';
import { type HttpReceiver, startReceiver } from '../../helpers/receivers.ts';
import { createUser, loginCookie, send, type TestUser } from '../../helpers/users.ts';

// A team's alert route to Jira Service Management Operations, Opsgenie's successor
// (docs/alerts.md "Jira Service Management"): the integration events API with a GenieKey,
// one alert per incident by alias, notes for updates, closed on resolution; the key sealed
// at rest and masked in answers. The fake speaks the documented API under its JSM path.

const KEY = '8f6d8c7e-1b2a-4c3d-9e8f-0a1b2c3d4e5f';

describe('alert routes: Jira Service Management', () => {
  let t: TestApp;
  let jsm: HttpReceiver;
  let fake: ReturnType<typeof opsgenieReply>;
  let owner: TestUser;
  let cookie: string;
  let orgId: string;
  const s = () => ({ cookie, origin: t.url });
  const routes = (p = '') => `${t.url}/api/v1/orgs/${orgId}/alert-routes${p}`;

  before(async () => {
    fake = opsgenieReply({ apiKey: KEY, prefix: '/jsm/ops/integration' });
    jsm = await startReceiver(fake.reply);
    t = await startApp({ env: { DELIVER: 'off', OUTBOUND_ALLOW_PRIVATE: '127.0.0.1', JSM_API_URL: jsm.url } });
    owner = await createUser(t, 'pro');
    cookie = await loginCookie(t, owner);
    orgId = (await send(`${t.url}/api/v1/orgs`, 'POST', s(), { name: 'JSM team' })).body.organisation.id;
    assert.equal((await send(`${t.url}/api/v1/orgs/${orgId}/switch`, 'POST', s())).status, 200);
  });
  after(async () => {
    await t?.close();
    await jsm?.close();
  });

  test('an incident opens one JSM alert by alias, its update adds a note, its resolution closes it', async () => {
    const made = await send(routes(), 'POST', s(), {
      name: 'on-call',
      destination: { channel: 'jsm', apiKey: KEY },
      filters: { vendors: ['github'], kinds: ['created', 'updated', 'resolved'] },
    });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    assert.deepEqual(made.body.route.destination, { channel: 'jsm', apiKey: `****${KEY.slice(-4)}` });
    const row = await t.store.db.selectFrom('alert_routes').selectAll().where('id', '=', made.body.route.id).executeTakeFirstOrThrow();
    assert.ok(!JSON.stringify(row).includes(KEY), 'the key is sealed at rest');

    const inc = incident('github', { impact: 'major', title: 'Actions runs delayed' });
    await emit(t, 'incident.created', inc);
    await t.app.alerts.runOnce();
    await emit(t, 'incident.updated', inc);
    await t.app.alerts.runOnce();
    await emit(t, 'incident.resolved', inc);
    await t.app.alerts.runOnce();

    const paths = jsm.requests.map((r) => r.path);
    const alias = encodeURIComponent(`github:${inc.id}`);
    assert.deepEqual(paths, [
      '/jsm/ops/integration/v2/alerts',
      `/jsm/ops/integration/v2/alerts/${alias}/notes?identifierType=alias`,
      `/jsm/ops/integration/v2/alerts/${alias}/close?identifierType=alias`,
    ]);
    for (const r of jsm.requests) assert.equal(r.headers.authorization, `GenieKey ${KEY}`);
    const alert = fake.alerts.get(`github:${inc.id}`)!;
    assert.equal(alert.priority, 'P2');
    assert.equal(alert.notes.length, 1);
    assert.equal(alert.status, 'closed');
  });

  test('bad keys are refused with the field named; a key JSM refuses fails its row with the reason', async () => {
    for (const apiKey of ['nope', `${KEY}x`, 'GenieKey 8f6d8c7e-1b2a-4c3d-9e8f-0a1b2c3d4e5f', `${KEY.slice(0, -1)}\u0000`]) {
      const r = await send(routes(), 'POST', s(), { name: 'bad', destination: { channel: 'jsm', apiKey } });
      assert.equal(r.status, 400, apiKey);
      assert.equal(r.body.success, false);
    }
    // A region is Opsgenie's, not JSM's: an unknown field.
    assert.equal((await send(routes(), 'POST', s(), { name: 'bad', destination: { channel: 'jsm', apiKey: KEY, region: 'eu' } })).status, 400);

    const other = '11111111-2222-4333-8444-555555555555';
    const made = await send(routes(), 'POST', s(), { name: 'wrong key', destination: { channel: 'jsm', apiKey: other }, filters: { vendors: ['stripe'] } });
    assert.equal(made.status, 201);
    jsm.requests.length = 0;
    await emit(t, 'incident.created', incident('stripe', { impact: 'critical' }));
    await t.app.alerts.runOnce();
    assert.equal(jsm.requests.length, 1);
    const rows = await t.store.db.selectFrom('deliveries').selectAll().where('route_id', '=', made.body.route.id).execute();
    assert.equal(rows.length, 1);
    assert.match(String(rows[0]!.last_error), /Jira Service Management.*401/);
  });
});
