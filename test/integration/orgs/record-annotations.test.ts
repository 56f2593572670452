import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { getJson, startApp, type TestApp } from '../../helpers/app.ts';
import { ownerViewer, userWithKey, type TestUser } from '../../helpers/access.ts';
import { incident, maintenance } from '../../helpers/records.ts';
import { send } from '../../helpers/users.ts';

// `affectedServices` on incident and maintenance records (docs/services.md "Records:
// affectedServices"): only for a member of an organisation with services, with that
// organisation's services only, and never served from or stored in a cache entry others
// read (docs/access.md "Response cache"); a change to the services shows at once.

describe('records: affectedServices for members of an organisation with services', () => {
  let t: TestApp;
  let carol: TestUser; // has services
  let dave: TestUser; // none at first
  let erin: TestUser; // none
  const headers = (u: TestUser | null): Record<string, string> => (u ? { 'x-api-key': u.secret } : {});
  const incidents = (u: TestUser | null) => getJson(`${t.api}/incidents?limit=50`, { headers: headers(u) });
  const github = (items: any[]) => items.find((i) => i.id === 'github:actions');

  before(async () => {
    t = await startApp({ env: { RATE_LIMITS: '{}' } });
    carol = await userWithKey(t, 'pro', 'carol');
    dave = await userWithKey(t, 'pro', 'dave');
    erin = await userWithKey(t, 'pro', 'erin');
    await t.repos.status.replaceComponents(
      'github',
      [{ id: 'cmp-actions', name: 'Actions', status: 'partial_outage', group: null, position: 1 }],
      new Date().toISOString(),
    );
    await t.repos.incidents.upsert(incident('github', 'actions', { title: 'Actions degraded', components: ['Actions'] }), 'f');
    await t.repos.incidents.upsert(incident('stripe', 'api', { title: 'Stripe API errors' }), 'f');
    await t.repos.maintenances.upsert(maintenance('github', 'm', { components: ['Actions'] }), 'f');
    await t.app.services.teamServices.create(ownerViewer(carol.userId, 'pro'), carol.userId, {
      name: 'ci',
      dependencies: [{ vendor: 'github', components: ['cmp-actions'] }],
    });
  });
  after(async () => {
    await t?.close();
  });

  test('the public entry carries no field; the member with services gets its own entry with it', async () => {
    const first = await incidents(erin);
    assert.equal(first.status, 200);
    assert.equal(first.headers.get('x-cache'), 'MISS');
    assert.ok(first.body.items.every((i: any) => !('affectedServices' in i)));

    const mine = await incidents(carol);
    assert.equal(mine.headers.get('x-cache'), 'MISS', 'not the shared entry');
    assert.deepEqual(github(mine.body.items).affectedServices, [
      { serviceId: github(mine.body.items).affectedServices[0].serviceId, serviceName: 'ci', confidence: 'high', reasons: ["component 'Actions' listed"] },
    ]);
    assert.deepEqual(mine.body.items.find((i: any) => i.id === 'stripe:api').affectedServices, []);
    // Read again: a hit of carol's own entry (the server's hot path), still with the field.
    const again = await incidents(carol);
    assert.equal(again.headers.get('x-cache'), 'HIT');
    assert.equal(github(again.body.items).affectedServices[0].serviceName, 'ci');

    for (const u of [dave, erin, null]) {
      const r = await incidents(u);
      assert.equal(r.status, 200);
      assert.ok(!JSON.stringify(r.body).includes('affectedServices'), `no field for ${u?.email ?? 'anonymous'}`);
      assert.ok(!JSON.stringify(r.body).includes('"ci"'));
    }
  });

  test('vendor lists and maintenance carry it too', async () => {
    const v = await getJson(`${t.api}/vendors/github/incidents`, { headers: headers(carol) });
    assert.equal(v.status, 200, JSON.stringify(v.body));
    assert.equal(github(v.body.items).affectedServices[0].confidence, 'high');
    const m = await getJson(`${t.api}/maintenance?limit=50`, { headers: headers(carol) });
    const window = m.body.items.find((i: any) => i.id === 'github:m');
    assert.equal(window.affectedServices[0].serviceName, 'ci');
    const mp = await getJson(`${t.api}/maintenance?limit=50`, { headers: headers(erin) });
    assert.ok(!JSON.stringify(mp.body).includes('affectedServices'));
  });

  test('a change to the services shows at once, never the entry of before', async () => {
    const list = await t.app.services.teamServices.list(ownerViewer(carol.userId, 'pro'), carol.userId);
    await t.app.services.teamServices.update(ownerViewer(carol.userId, 'pro'), carol.userId, list[0]!.id, {
      dependencies: [{ vendor: 'github', kind: 'soft', components: ['cmp-actions'] }],
    });
    const r = await incidents(carol);
    assert.equal(r.headers.get('x-cache'), 'MISS');
    assert.equal(github(r.body.items).affectedServices[0].confidence, 'medium');
  });

  test('another organisation with services gets its own services only', async () => {
    const made = await send(`${t.url}/api/v1/orgs/${dave.userId}/services`, 'POST', headers(dave), { name: 'dave-site', dependencies: [{ vendor: 'stripe' }] });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const r = await incidents(dave);
    assert.equal(r.headers.get('x-cache'), 'MISS');
    assert.deepEqual(github(r.body.items).affectedServices, []);
    assert.deepEqual(
      r.body.items.find((i: any) => i.id === 'stripe:api').affectedServices.map((s: any) => s.serviceName),
      ['dave-site'],
    );
    assert.ok(!JSON.stringify(r.body).includes('"ci"'));
    // Carol's answer has not changed hands.
    assert.ok(!JSON.stringify((await incidents(carol)).body).includes('dave-site'));
  });
});
