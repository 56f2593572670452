import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createRepositories } from '../../src/services/index.ts';
import { login, userWithKey } from '../helpers/access.ts';
import { getJson, startApp, type TestApp } from '../helpers/app.ts';
import { incident, maintenance } from '../helpers/records.ts';
import { connect, textOf } from '../helpers/mcp.ts';
import { send } from '../helpers/users.ts';

// "Not monitored" is a state, not a promise (docs/web.md "Not monitored"): a catalog vendor
// without a machine-readable status source (Hetzner, docs/catalog.md) says so in the API, on the
// web, in badges and MCP answers, is never counted operational, and following it warns.

const SENTENCE = 'Not monitored: no machine-readable status source';

describe('not monitored', () => {
  let t: TestApp;
  let h: Record<string, string>;
  let cookie: string;

  before(async () => {
    t = await startApp();
    const repos = createRepositories(t.store);
    // A row left from when it had a source (or written by mistake) must not make it operational.
    await repos.status.setStatus('hetzner', { indicator: 'operational', description: 'All Systems Operational', checkedAt: new Date().toISOString() });
    await repos.status.replaceComponents('hetzner', [{ id: 'api', name: 'API', status: 'operational', group: null, position: 1 }], new Date().toISOString());
    // Records left open from when it had a source: not its state now either.
    const hourAgo = new Date(Date.now() - 3_600_000).toISOString();
    await repos.incidents.upsert(
      incident('hetzner', 'left-open', { title: 'Left open by a source that is gone', status: 'investigating', startedAt: hourAgo }),
      'f',
    );
    await repos.maintenances.upsert(
      maintenance('hetzner', 'left-running', { title: 'Window left running', status: 'in_progress', scheduledFor: hourAgo }),
      'f',
    );
    await repos.status.setStatus('github', { indicator: 'degraded', description: 'Partially Degraded Service', checkedAt: new Date().toISOString() });
    const owner = await userWithKey(t, 'pro', 'not-monitored');
    h = { 'x-api-key': owner.secret };
    cookie = await login(t, owner.email, owner.password);
  });
  after(async () => t?.close());

  test('the API says so on the vendor object, the capabilities and the status', async () => {
    const list = await getJson(`${t.api}/vendor-list`);
    const byId = new Map(list.body.vendors.map((v: any) => [v.id, v]));
    assert.equal((byId.get('hetzner') as any).monitored, false);
    assert.equal((byId.get('github') as any).monitored, true);
    const unmonitored = list.body.vendors.filter((v: any) => !v.monitored);
    assert.ok(
      unmonitored.every((v: any) => v.availableDataTypes.length === 0),
      'exactly the vendors without a status source',
    );

    const info = await getJson(`${t.api}/vendor-info/hetzner`);
    assert.equal(info.body.items[0].monitored, false);

    const caps = (await getJson(`${t.api}/vendor-capabilities/hetzner`)).body.items[0];
    assert.deepEqual([caps.monitored, caps.monitoring, caps.features.status], [false, 'not monitored: no machine-readable status source', false]);
    const githubCaps = (await getJson(`${t.api}/vendor-capabilities/github`)).body.items[0];
    assert.deepEqual([githubCaps.monitored, githubCaps.monitoring, githubCaps.features.status], [true, null, true]);

    const s = (await getJson(`${t.api}/vendor-status/hetzner?skipCache=true`)).body.items[0];
    assert.deepEqual([s.monitored, s.indicator, s.description, s.sourceDescription], [false, 'unknown', SENTENCE, null]);
    assert.deepEqual(s.components, [], 'no leftover component says "operational"');
    assert.deepEqual([s.activeIncidents, s.activeMaintenance], [[], []], 'no leftover record is ongoing');
  });

  test("the page's own description is kept beside the normalised one", async () => {
    const s = (await getJson(`${t.api}/vendor-status/github?skipCache=true`)).body.items[0];
    assert.deepEqual([s.monitored, s.indicator, s.description, s.sourceDescription], [true, 'degraded', 'Minor Service Outage', 'Partially Degraded Service']);
  });

  test('the aggregate counts it apart, never as operational', async () => {
    const a = (await getJson(`${t.api}/vendor-stats-aggregate`)).body.items[0];
    const list = (await getJson(`${t.api}/vendor-list`)).body.vendors;
    const expected = list.filter((v: any) => !v.monitored).length;
    assert.ok(expected >= 1);
    assert.equal(a.notMonitored, expected);
    assert.equal(a.indicators.not_monitored, expected);
    // Hetzner's stored "operational" row is not counted; no other vendor was read.
    assert.equal(a.indicators.operational ?? 0, 0);
    // Nor are the records its gone source left open.
    assert.deepEqual([a.activeIncidents, a.activeMaintenance], [0, 0]);
  });

  test('adding it to the watchlist works and warns; a monitored vendor gives no warning', async () => {
    const added = await send(`${t.api}/watchlist/hetzner`, 'POST', h);
    assert.equal(added.status, 200, JSON.stringify(added.body));
    assert.ok(added.body.vendors.includes('hetzner'));
    assert.deepEqual(added.body.warnings, [
      'Hetzner is not monitored: no machine-readable status source; following it will show no status, incidents or alerts.',
    ]);
    // Replayed: still listed once, still warned.
    const again = await send(`${t.api}/watchlist/hetzner`, 'POST', h);
    assert.equal(again.status, 200);
    assert.equal(again.body.vendors.filter((v: string) => v === 'hetzner').length, 1);
    assert.equal(again.body.warnings.length, 1);

    const github = await send(`${t.api}/watchlist/github`, 'POST', h);
    assert.equal(github.status, 200);
    assert.equal('warnings' in github.body, false);

    const replaced = await send(`${t.api}/watchlist`, 'PUT', h, { vendors: ['github', 'hetzner', 'pagerduty', 'hetzner'] });
    assert.equal(replaced.status, 200, JSON.stringify(replaced.body));
    assert.deepEqual(replaced.body.vendors, ['github', 'hetzner', 'pagerduty']);
    assert.equal(replaced.body.warnings.length, 2);
    assert.match(replaced.body.warnings[0], /^Hetzner is not monitored/);
    assert.match(replaced.body.warnings[1], /^PagerDuty is not monitored/);

    const read = await send(`${t.api}/watchlist`, 'GET', h);
    assert.equal('warnings' in read.body, false, 'a read carries no warning');
  });

  test('hostile watchlist input around the new answer: still 4xx with the error body', async () => {
    for (const [method, path, body] of [
      ['POST', '/watchlist/hetzner%00', undefined],
      ['POST', '/watchlist/STRIPE', undefined],
      ['POST', `/watchlist/${'s'.repeat(500)}`, undefined],
      ['PUT', '/watchlist', { vendors: ['hetzner'], warnings: ['fake'] }],
      ['PUT', '/watchlist', { vendors: 'hetzner' }],
      ['PUT', '/watchlist', { vendors: ['hetzner\u0007'] }],
    ] as const) {
      const r = await send(`${t.api}${path}`, method, h, body);
      assert.ok(r.status >= 400 && r.status < 500, `${method} ${path}: ${r.status}`);
      assert.equal(r.body.success, false, `${method} ${path}`);
    }
    const unknown = await send(`${t.api}/watchlist/no-such-vendor-x`, 'POST', h);
    assert.equal(unknown.status, 404);
  });

  test('a board with it is published with a warning, and shows it as not monitored', async () => {
    const made = await send(`${t.url}/api/v1/boards`, 'POST', h, { title: 'Payments' });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    assert.deepEqual(
      made.body.warnings.map((w: string) => w.split(' is ')[0]),
      ['Hetzner', 'PagerDuty'],
    );
    const page = await (await fetch(made.body.url)).text();
    const card = page.match(/<li class="vendor-card[^"]*"[^>]*data-vendor="hetzner"[\s\S]*?<\/li>/)?.[0] ?? '';
    assert.match(card, /data-monitored="no"/);
    assert.match(card, /Not monitored<\/span>/);
    assert.match(card, new RegExp(SENTENCE));
    assert.doesNotMatch(card, /pill--operational/);
    assert.match(page, /summary summary--(unknown|problems)/);
    assert.match(page, /2 not monitored/);
  });

  test('the web: overview card and vendor page say not monitored, never "not read yet"', async () => {
    const home = await (await fetch(`${t.url}/?scope=all`)).text();
    const card = home.match(/<li class="vendor-card[^"]*"[^>]*data-vendor="hetzner"[\s\S]*?<\/li>/)?.[0] ?? '';
    assert.match(card, /^<li class="vendor-card vendor-card--unknown vendor-card--unmonitored" data-monitored="no"/);
    assert.doesNotMatch(card, /Operational/);
    assert.doesNotMatch(card, /Left open by a source that is gone|Window left running/);

    const page = await (await fetch(`${t.url}/vendors/hetzner`)).text();
    assert.match(page, /data-source-health="not-monitored"/);
    assert.doesNotMatch(page, /has not been read yet/);
    assert.doesNotMatch(page, /Last checked/);
    assert.match(page, /<strong>Not monitored<\/strong>: no machine-readable status source/);

    // Signed in: the warning stands beside "Add to watchlist".
    const signed = await (await fetch(`${t.url}/vendors/hetzner`, { headers: { cookie } })).text();
    assert.match(signed, /data-watch-warning>Hetzner is not monitored: no machine-readable status source/);
    const github = await (await fetch(`${t.url}/vendors/github`, { headers: { cookie } })).text();
    assert.doesNotMatch(github, /data-watch-warning/);
    assert.match(github, /The page says: “Partially Degraded Service”/);
  });

  test('badges and MCP answers say not monitored', async () => {
    const badge = await getJson(`${t.url}/badges/hetzner.json`);
    assert.deepEqual([badge.body.message, badge.body.color], ['not monitored', 'lightgrey']);

    const c = await connect(`${t.url}/mcp`);
    try {
      const status = await c.client.callTool({ name: 'get_vendor_status', arguments: { vendor: 'hetzner' } });
      const text = textOf(status);
      assert.match(text, /^Hetzner: not monitored: no machine-readable status source\./m, text);
      assert.doesNotMatch(text, /No ongoing incidents/);
      assert.equal((status.structuredContent as any).monitored, false);
      assert.equal((status.structuredContent as any).indicator, 'unknown');

      const list = await c.client.callTool({ name: 'list_vendors', arguments: { search: 'hetzner' } });
      assert.match(textOf(list), /Hetzner \(id: hetzner, cloud\): not monitored: no machine-readable status source/);
      assert.equal((list.structuredContent as any).vendors[0].monitored, false);

      const active = textOf(await c.client.callTool({ name: 'get_active_incidents', arguments: { vendors: ['hetzner'] } }));
      assert.match(active, /^No ongoing incidents known for Hetzner\.$/m, active);
      assert.match(active, /^Not monitored: 1 of 1 vendor \(no machine-readable status source\)/m, active);
    } finally {
      await c.close();
    }
  });
});
