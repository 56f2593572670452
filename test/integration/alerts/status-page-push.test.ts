import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { getJson, startApp, TestClock, type TestApp } from '../../helpers/app.ts';
import { emit, incident } from '../../helpers/alerts.ts';
import { startToolFakes, type ToolFakes } from '../../helpers/incident-tool-fakes.ts';
import { createUser, loginCookie, send } from '../../helpers/users.ts';
import type { ComponentRecord } from '../../../src/domain/records.ts';

// Our own status page (docs/alert-routes.md "Our own status page"): a route maps vendor
// components to components of the team's Atlassian Statuspage or Instatus page, and each
// incident or maintenance event of the vendor sets them to the status we observe. The fakes
// check each product's credential and keep the page's component statuses.

const SP_KEY = 'a1b2c3d4-statuspage-api-key-0001';
const IN_KEY = 'instatus-api-key-9f8e7d6c5b4a';

describe('status page push: Statuspage and Instatus', () => {
  const clock = new TestClock(new Date());
  let t: TestApp;
  let fx: ToolFakes;
  let cookie: string;
  let orgId: string;
  const s = () => ({ cookie, origin: t.url });
  const routes = () => `${t.url}/api/v1/orgs/${orgId}/alert-routes`;
  const all = { kinds: ['created', 'updated', 'resolved'] };
  const observe = (vendor: string, list: Pick<ComponentRecord, 'id' | 'name' | 'status'>[]) =>
    t.repos.status.replaceComponents(
      vendor,
      list.map((c, i) => ({ ...c, group: null, position: i })),
      clock.now().toISOString(),
    );
  const rowsOf = (id: string) => t.store.db.selectFrom('deliveries').selectAll().where('route_id', '=', id).orderBy('created_at', 'desc').execute();

  before(async () => {
    fx = await startToolFakes({
      grafanaToken: 'x',
      serviceNow: { user: 'x', password: 'x' },
      fireHydrantToken: 'x',
      rootlyKey: 'x',
      statuspageKey: SP_KEY,
      instatusKey: IN_KEY,
    });
    t = await startApp({
      clock,
      env: {
        DELIVER: 'off',
        OUTBOUND_ALLOW_PRIVATE: '127.0.0.1',
        DELIVERY_TIMEOUT_MS: '2000',
        STATUSPAGE_API_URL: `${fx.rx.url}/statuspage`,
        INSTATUS_API_URL: `${fx.rx.url}/instatus`,
      },
    });
    const owner = await createUser(t, 'pro');
    cookie = await loginCookie(t, owner);
    orgId = (await send(`${t.url}/api/v1/orgs`, 'POST', s(), { name: 'Page team' })).body.organisation.id;
    assert.equal((await send(`${t.url}/api/v1/orgs/${orgId}/switch`, 'POST', s())).status, 200);
  });
  beforeEach(() => {
    fx.forced.clear();
    fx.rx.requests.length = 0;
  });
  after(async () => {
    await t?.close();
    await fx?.close();
  });

  test('mapped components follow the vendor status we observe; unobserved ones and other vendors are left alone', async () => {
    for (const id of ['cmpactions', 'cmpapi', 'cmppages']) fx.pageComponents.set(`pg0001/${id}`, 'degraded_performance');
    fx.pageComponents.set('inpage01/inactions', 'OPERATIONAL');
    const sp = await send(routes(), 'POST', s(), {
      name: 'our statuspage',
      destination: {
        channel: 'statuspage',
        pageId: 'pg0001',
        apiKey: SP_KEY,
        components: [
          { vendor: 'github', component: 'Actions', pageComponentId: 'cmpactions' },
          { vendor: 'github', component: 'gh-api', pageComponentId: 'cmpapi' },
          { vendor: 'github', component: 'Pages', pageComponentId: 'cmppages' },
        ],
      },
      filters: { vendors: ['github', 'stripe'], ...all },
    });
    assert.equal(sp.status, 201, JSON.stringify(sp.body));
    assert.equal(sp.body.route.destination.apiKey, `****${SP_KEY.slice(-4)}`);
    assert.equal(sp.body.route.destination.components.length, 3);
    const ins = await send(routes(), 'POST', s(), {
      name: 'our instatus',
      destination: {
        channel: 'instatus',
        pageId: 'inpage01',
        apiKey: IN_KEY,
        components: [{ vendor: 'github', component: 'Actions', pageComponentId: 'inactions' }],
      },
      filters: { vendors: ['github'], ...all },
    });
    assert.equal(ins.status, 201, JSON.stringify(ins.body));
    const stored = JSON.stringify(await t.store.db.selectFrom('alert_routes').selectAll().execute());
    for (const secret of [SP_KEY, IN_KEY]) assert.ok(!stored.includes(secret), 'sealed at rest');

    // A test send reads the mapped components and changes nothing.
    const tested = await send(`${routes()}/${sp.body.route.id}/test`, 'POST', s());
    assert.equal(tested.status, 200, JSON.stringify(tested.body));
    assert.deepEqual(
      fx.rx.requests.map((r) => r.method),
      ['GET', 'GET', 'GET'],
    );
    assert.equal(fx.pageComponents.get('pg0001/cmpactions'), 'degraded_performance');
    fx.rx.requests.length = 0;

    await observe('github', [
      { id: 'gh-actions', name: 'Actions', status: 'major_outage' },
      { id: 'gh-api', name: 'API Requests', status: 'operational' },
      { id: 'gh-pages', name: 'Pages', status: 'unknown' },
    ]);
    const inc = incident('github', { impact: 'critical', components: ['Actions'] });
    await emit(t, 'incident.created', inc);
    await t.app.alerts.runOnce();
    assert.equal(fx.pageComponents.get('pg0001/cmpactions'), 'major_outage');
    assert.equal(fx.pageComponents.get('pg0001/cmpapi'), 'operational');
    // Not observed: never set to anything, least of all operational.
    assert.equal(fx.pageComponents.get('pg0001/cmppages'), 'degraded_performance');
    assert.equal(fx.pageComponents.get('inpage01/inactions'), 'MAJOROUTAGE');
    const patch = fx.rx.requests.find((r) => r.path === '/statuspage/v1/pages/pg0001/components/cmpactions')!;
    assert.equal(patch.method, 'PATCH');
    assert.equal(patch.headers.authorization, `OAuth ${SP_KEY}`);
    const put = fx.rx.requests.find((r) => r.path === '/instatus/v1/inpage01/components/inactions')!;
    assert.equal(put.method, 'PUT');
    assert.equal(put.headers.authorization, `Bearer ${IN_KEY}`);

    await observe('github', [
      { id: 'gh-actions', name: 'Actions', status: 'operational' },
      { id: 'gh-api', name: 'API Requests', status: 'operational' },
      { id: 'gh-pages', name: 'Pages', status: 'unknown' },
    ]);
    await emit(t, 'incident.resolved', { ...inc, status: 'resolved' });
    await t.app.alerts.runOnce();
    assert.equal(fx.pageComponents.get('pg0001/cmpactions'), 'operational');
    assert.equal(fx.pageComponents.get('inpage01/inactions'), 'OPERATIONAL');
    for (const r of await rowsOf(sp.body.route.id)) assert.equal(r.status, 'succeeded');

    // A vendor the mapping does not name makes no row, though the route's filters take it.
    const before = (await rowsOf(sp.body.route.id)).length;
    await emit(t, 'incident.created', incident('stripe'));
    await t.app.alerts.runOnce();
    assert.equal((await rowsOf(sp.body.route.id)).length, before);

    const doc = (await getJson(`${t.url}/openapi.json`)).body;
    const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: true, logger: false });
    addFormats.default(ajv);
    ajv.addSchema(doc, 'doc');
    for (const r of fx.rx.requests.filter((x) => x.method !== 'GET')) {
      const schema = r.path.startsWith('/statuspage/') ? 'StatuspageComponentUpdate' : 'InstatusComponentUpdate';
      const v = ajv.compile({ $ref: `doc#/components/schemas/${schema}` });
      assert.ok(v(JSON.parse(r.body)), `${schema}: ${JSON.stringify(v.errors)}`);
    }
  });

  test('rate limits (420) are retried after the wait; a refused key switches the route off with the reason', async () => {
    fx.pageComponents.set('pg0002/cmpcore', 'operational');
    await observe('twilio', [{ id: 'tw-sms', name: 'SMS', status: 'partial_outage' }]);
    const mapping = [{ vendor: 'twilio', component: 'SMS', pageComponentId: 'cmpcore' }];
    const ok = await send(routes(), 'POST', s(), {
      name: 'limited',
      destination: { channel: 'statuspage', pageId: 'pg0002', apiKey: SP_KEY, components: mapping },
      filters: { vendors: ['twilio'], ...all },
    });
    const revoked = await send(routes(), 'POST', s(), {
      name: 'revoked',
      destination: { channel: 'statuspage', pageId: 'pg0002', apiKey: 'revoked-key-00000000', components: mapping },
      filters: { vendors: ['twilio'], ...all },
    });
    assert.equal(ok.status, 201);
    assert.equal(revoked.status, 201);
    let n = 0;
    const original = fx.rx.reply;
    fx.rx.reply = (req, i) => {
      // The first call of each route is throttled; the revoked key is refused after that.
      if (++n <= 2) return { status: 420, headers: { 'retry-after': '30', 'content-type': 'application/json' }, body: '{"error":"rate limited"}' };
      return original(req, i);
    };
    try {
      await emit(t, 'incident.created', incident('twilio', { components: ['SMS'] }));
      await t.app.alerts.runOnce();
      const [first] = await rowsOf(ok.body.route.id);
      assert.equal(first!.status, 'pending');
      assert.equal(first!.last_status_code, 420);
      const wait = Date.parse(String(first!.next_attempt_at)) - clock.now().getTime();
      assert.ok(wait >= 29_000, `waits for Retry-After, ${wait} ms`);
      clock.advance(60_000);
      await t.app.alerts.runOnce();
      assert.equal((await rowsOf(ok.body.route.id))[0]!.status, 'succeeded');
      assert.equal(fx.pageComponents.get('pg0002/cmpcore'), 'partial_outage');
      const gone = (await getJson(`${routes()}/${revoked.body.route.id}`, { headers: { cookie } })).body.route;
      assert.equal(gone.enabled, false);
      assert.match(gone.disabledReason, /Statuspage: HTTP 401: Could not authenticate/);
      assert.ok(!JSON.stringify(await rowsOf(revoked.body.route.id)).includes('revoked-key-00000000'));
    } finally {
      fx.rx.reply = original;
    }
  });

  test('a vendor whose source has been failing is not observed now: nothing is pushed, the row says why', async () => {
    fx.pageComponents.set('pg0003/cmpdns', 'major_outage');
    await observe('cloudflare', [{ id: 'cf-dns', name: 'DNS', status: 'operational' }]);
    const sources = await t.store.db.selectFrom('sources').select('id').where('vendor', '=', 'cloudflare').execute();
    assert.ok(sources.length > 0, 'the catalog gives cloudflare a source');
    const r = await send(routes(), 'POST', s(), {
      name: 'stale',
      destination: {
        channel: 'statuspage',
        pageId: 'pg0003',
        apiKey: SP_KEY,
        components: [{ vendor: 'cloudflare', component: 'DNS', pageComponentId: 'cmpdns' }],
      },
      filters: { vendors: ['cloudflare'], ...all },
    });
    assert.equal(r.status, 201, JSON.stringify(r.body));
    // Failing for an hour: the operational status we hold was read before that.
    const hourAgo = new Date(clock.now().getTime() - 3_600_000).toISOString();
    await t.store.db
      .updateTable('sources')
      .set({ consecutive_failures: 60, failing_since: hourAgo, last_error_at: clock.now().toISOString(), last_error: 'HTTP 503' })
      .where('vendor', '=', 'cloudflare')
      .execute();
    await emit(t, 'incident.resolved', { ...incident('cloudflare'), status: 'resolved' });
    await t.app.alerts.runOnce();
    const [row] = await rowsOf(r.body.route.id);
    assert.equal(row!.status, 'failed');
    assert.match(String(row!.last_error), /nothing pushed: the status page of cloudflare has not been read for a while/);
    assert.equal(fx.pageComponents.get('pg0003/cmpdns'), 'major_outage', 'the page is not set to operational on an old reading');
    assert.equal(fx.rx.requests.filter((x) => x.method === 'PATCH').length, 0);
  });

  test('hostile destinations are refused with the field named, never stored', async () => {
    const m = (o: Record<string, unknown> = {}) => ({ vendor: 'github', component: 'Actions', pageComponentId: 'cmp1', ...o });
    const bad: [string, unknown][] = [
      ['page id path', { channel: 'statuspage', pageId: '../../v1/pages', apiKey: SP_KEY, components: [m()] }],
      ['component id path', { channel: 'statuspage', pageId: 'pg0001', apiKey: SP_KEY, components: [m({ pageComponentId: 'a/b' })] }],
      ['no mapping', { channel: 'instatus', pageId: 'pg0001', apiKey: IN_KEY, components: [] }],
      ['driven twice', { channel: 'statuspage', pageId: 'pg0001', apiKey: SP_KEY, components: [m(), m({ component: 'API Requests' })] }],
      [
        'too many',
        { channel: 'statuspage', pageId: 'pg0001', apiKey: SP_KEY, components: Array.from({ length: 26 }, (_, i) => m({ pageComponentId: `cmp${i}` })) },
      ],
      ['vendor not a slug', { channel: 'statuspage', pageId: 'pg0001', apiKey: SP_KEY, components: [m({ vendor: 'Git Hub' })] }],
      ['component control characters', { channel: 'instatus', pageId: 'pg0001', apiKey: IN_KEY, components: [m({ component: 'Act\nions' })] }],
      ['key with newline', { channel: 'statuspage', pageId: 'pg0001', apiKey: 'abc\r\ndefghij', components: [m()] }],
      ['base url smuggled', { channel: 'statuspage', pageId: 'pg0001', apiKey: SP_KEY, components: [m()], url: 'https://169.254.169.254' }],
    ];
    const count = async () => (await t.store.db.selectFrom('alert_routes').select('id').execute()).length;
    const before = await count();
    for (const [why, destination] of bad) {
      const r = await send(routes(), 'POST', s(), { name: 'bad', destination });
      assert.equal(r.status, 400, `${why}: ${JSON.stringify(r.body)}`);
    }
    assert.equal(await count(), before);
  });
});
