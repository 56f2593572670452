import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { incidentsRepository } from '../../../src/store/repositories/incidents-repository.ts';
import { maintenancesRepository } from '../../../src/store/repositories/maintenances-repository.ts';
import { getJson, startApp, type TestApp } from '../../helpers/app.ts';
import { incident, maintenance } from '../../helpers/records.ts';

const DAY = 86_400_000;
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

describe('public read endpoints', () => {
  let t: TestApp;
  before(async () => {
    t = await startApp();
    const inc = incidentsRepository(t.store.db);
    await inc.upsert(incident('github', 'a', { startedAt: ago(2 * 3_600_000), impact: 'major' }), 'f');
    await inc.upsert(incident('github', 'b', { startedAt: ago(3 * DAY), status: 'resolved', impact: 'minor' }), 'f');
    await inc.upsert(incident('cloudflare', 'c', { startedAt: ago(1 * DAY), status: 'monitoring', sourceStatus: 'monitoring' }), 'f');
    await inc.upsert(incident('cloudflare', 'old', { startedAt: ago(20 * DAY), status: 'resolved' }), 'f');
    const mnt = maintenancesRepository(t.store.db);
    await mnt.upsert(maintenance('github', 'm1'), 'f');
    await mnt.upsert(maintenance('cloudflare', 'm2', { scheduledFor: ago(2 * DAY), status: 'completed', completedAt: ago(2 * DAY - 3_600_000) }), 'f');
  });
  after(async () => t.close());

  test('vendor-list and its alias list the catalog', async () => {
    const a = await getJson(`${t.api}/vendor-list`);
    const b = await getJson(`${t.api}/vendors`);
    assert.equal(a.status, 200);
    assert.equal(a.body.success, true);
    assert.ok(a.body.vendors.length >= 3);
    const gh = a.body.vendors.find((v: any) => v.id === 'github');
    assert.equal(gh.name, 'GitHub');
    assert.ok(gh.availableDataTypes.includes('incidents'));
    assert.deepEqual(b.body.vendors, a.body.vendors);
  });

  test('vendor-count matches the list', async () => {
    const list = await getJson(`${t.api}/vendor-list`);
    const r = await getJson(`${t.api}/vendor-count`);
    assert.equal(r.body.items.length, 1);
    assert.equal(r.body.items[0].count, list.body.vendors.length);
  });

  test('incidents: newest first, total, filters', async () => {
    const r = await getJson(`${t.api}/incidents?timePeriod=7d`);
    assert.equal(r.status, 200);
    assert.deepEqual(
      r.body.items.map((i: any) => i.id),
      ['github:a', 'cloudflare:c', 'github:b'],
    );
    assert.equal(r.body.total, 3);
    assert.equal(r.body.items[0].vendorName, 'GitHub');
    assert.equal(r.body.items[0].durationMinutes, null);
    assert.equal(r.body.items[2].durationMinutes, 30);
    const active = await getJson(`${t.api}/incidents?activeOnly=true`);
    assert.deepEqual(
      active.body.items.map((i: any) => i.id),
      ['github:a', 'cloudflare:c'],
    );
    const mon = await getJson(`${t.api}/incidents?status=monitoring`);
    assert.deepEqual(
      mon.body.items.map((i: any) => i.id),
      ['cloudflare:c'],
    );
    const byVendor = await getJson(`${t.api}/incidents-unified?vendors=github&limit=1&offset=1`);
    assert.deepEqual(
      byVendor.body.items.map((i: any) => i.id),
      ['github:b'],
    );
    assert.equal(byVendor.body.total, 2);
  });

  test('timePeriod is clamped to the plan window and reported', async () => {
    const r = await getJson(`${t.api}/incidents?timePeriod=90d`);
    assert.deepEqual(r.body.dataWindow.capped, true);
    assert.equal(r.body.dataWindow.applied, '7d');
    assert.ok(!r.body.items.some((i: any) => i.id === 'cloudflare:old'));
  });

  test('maintenance: scheduledOnly keeps windows not completed', async () => {
    const all = await getJson(`${t.api}/maintenance`);
    assert.deepEqual(
      all.body.items.map((m: any) => m.id),
      ['github:m1', 'cloudflare:m2'],
    );
    const upcoming = await getJson(`${t.api}/maintenance-unified?scheduledOnly=true`);
    assert.deepEqual(
      upcoming.body.items.map((m: any) => m.id),
      ['github:m1'],
    );
  });

  test('vendor-scoped endpoints', async () => {
    const info = await getJson(`${t.api}/vendor-info/github`);
    assert.equal(info.body.items[0].id, 'github');
    const status = await getJson(`${t.api}/vendor-status/github`);
    assert.equal(status.body.items[0].activeIncidents.length, 1);
    assert.equal(status.body.items[0].indicator, 'partial_outage');
    const caps = await getJson(`${t.api}/vendor-capabilities/github`);
    assert.ok(caps.body.items[0].dataTypes.includes('incidents'));
    const stats = await getJson(`${t.api}/vendor-stats/github?timePeriod=7d`);
    assert.equal(stats.body.items[0].incidentCount, 2);
    assert.equal(stats.body.items[0].byImpact.major, 1);
    assert.ok(stats.body.items[0].uptimePercent < 100);
    const data = await getJson(`${t.api}/vendors/github/incidents?activeOnly=true`);
    assert.deepEqual(
      data.body.items.map((i: any) => i.id),
      ['github:a'],
    );
  });

  test('analytics endpoints', async () => {
    const agg = await getJson(`${t.api}/vendor-stats-aggregate`);
    assert.equal(agg.status, 200);
    assert.equal(agg.body.items[0].activeIncidents, 2);
    const fav = await getJson(`${t.api}/vendor-stats-favorites?vendor=github,cloudflare`);
    assert.deepEqual(
      fav.body.items.map((s: any) => s.vendor),
      ['github', 'cloudflare'],
    );
    const act = await getJson(`${t.api}/dashboard-recent-activity?vendor=github`);
    assert.ok(act.body.items.every((i: any) => i.vendor === 'github'));
    assert.ok(act.body.items.some((i: any) => i.kind === 'maintenance'));
  });

  test('400 and 404 cases name the problem', async () => {
    const list = await getJson(`${t.api}/vendor-list`);
    const noUpdates = list.body.vendors.find((v: any) => !v.availableDataTypes.includes('updates')).id;
    const cases: [string, number, string][] = [
      ['/incidents?limit=0', 400, 'limit'],
      ['/incidents?limit=201', 400, 'limit'],
      ['/incidents?offset=10001', 400, 'offset'],
      ['/incidents?status=broken', 400, 'status'],
      ['/incidents?timePeriod=7x', 400, 'timePeriod'],
      ['/incidents?vendor=Bad_Slug', 400, 'vendor'],
      ['/vendors/github/nonsense', 400, 'dataType'],
      ['/vendor-stats-favorites', 400, 'vendor'],
      ['/incidents?vendor=no-such-vendor', 404, 'no-such-vendor'],
      ['/vendor-info/no-such-vendor', 404, 'no-such-vendor'],
      [`/vendors/${noUpdates}/updates`, 404, 'updates'],
      ['/no/such/route', 404, 'not found'],
    ];
    for (const [path, status, mention] of cases) {
      const r = await getJson(`${t.api}${path}`);
      assert.equal(r.status, status, path);
      assert.equal(r.body.success, false, path);
      assert.ok(r.body.error && r.body.requestId, path);
      assert.ok(r.body.message.includes(mention), `${path}: ${r.body.message}`);
    }
  });

  test('OpenAPI document is generated with every route', async () => {
    const doc = await getJson(`${t.url}/openapi.json`);
    assert.equal(doc.body.openapi, '3.0.0');
    assert.equal(doc.body.info.version, '25.0.0');
    for (const p of ['/vendor-list', '/incidents', '/vendors/{vendor}/{dataType}', '/vendor-stats-aggregate']) {
      assert.ok(doc.body.paths[`/api/v1/infrastructure${p}`], p);
    }
    const again = await getJson(`${t.url}/docs/api/openapi.json`);
    assert.deepEqual(again.body, doc.body);
  });

  test('health endpoints', async () => {
    assert.equal((await getJson(`${t.url}/healthz`)).status, 200);
    const ready = await getJson(`${t.url}/readyz`);
    assert.equal(ready.body.status, 'ready');
  });
});
