import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, beforeEach, describe, test } from 'node:test';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { getJson, startApp, TestClock, type TestApp } from '../../helpers/app.ts';
import { emit, incident } from '../../helpers/alerts.ts';
import { startToolFakes, type ToolFakes } from '../../helpers/incident-tool-fakes.ts';
import { createUser, loginCookie, send } from '../../helpers/users.ts';
import { referenceTag } from '../../../src/alerts/channels/grafana.ts';

// Alert routes into Grafana (annotations), ServiceNow (Event Management), FireHydrant
// (Signals) and Rootly (alerts) (docs/alerts.md): the fakes check the credential each
// product checks and answer as it documents; every body sent is validated against the
// OpenAPI document's x-webhooks schemas. Secrets are sealed at rest, masked in answers
// and absent from the delivery log and the app's log lines.

const GRAFANA_TOKEN = 'glsa_Q3nX9fakeServiceAccountToken_0a1b2c3d';
const SN = { user: 'vendor.status', password: 'Pa55 word:with colon' };
const FH_JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzb3VyY2UiOiJ2cyJ9.c2lnbmF0dXJlMTIzNA';
const ROOTLY_KEY = 'rootly_5f1e2d3c4b5a69788796a5b4c3d2e1f0';

describe('alert routes: Grafana, ServiceNow, FireHydrant, Rootly', () => {
  const clock = new TestClock(new Date());
  const logLines: string[] = [];
  let t: TestApp;
  let fx: ToolFakes;
  let cookie: string;
  let orgId: string;
  const s = () => ({ cookie, origin: t.url });
  const routes = () => `${t.url}/api/v1/orgs/${orgId}/alert-routes`;
  const all = { kinds: ['created', 'updated', 'resolved'] };
  const grafana = (token = GRAFANA_TOKEN, dashboardUid?: string) => ({
    channel: 'grafana',
    url: `${fx.rx.url}/grafana`,
    token,
    ...(dashboardUid ? { dashboardUid } : {}),
  });
  const servicenow = (password = SN.password) => ({ channel: 'servicenow', url: `${fx.rx.url}/servicenow`, username: SN.user, password });
  const firehydrant = (jwt = FH_JWT) => ({ channel: 'firehydrant', url: `${fx.rx.url}/firehydrant/v1/process/${jwt}` });
  const rowOf = async (id: string) =>
    t.store.db.selectFrom('deliveries').selectAll().where('route_id', '=', id).orderBy('created_at', 'desc').executeTakeFirstOrThrow();
  const made = async (name: string, destination: unknown, vendor: string) => {
    const r = await send(routes(), 'POST', s(), { name, destination, filters: { vendors: [vendor], ...all } });
    assert.equal(r.status, 201, JSON.stringify(r.body));
    return r.body.route;
  };

  before(async () => {
    fx = await startToolFakes({
      grafanaToken: GRAFANA_TOKEN,
      serviceNow: SN,
      fireHydrantToken: FH_JWT,
      rootlyKey: ROOTLY_KEY,
      statuspageKey: 'x',
      instatusKey: 'x',
    });
    const logStream = new Writable({
      write(chunk, _enc, done) {
        logLines.push(String(chunk));
        done();
      },
    });
    t = await startApp({
      clock,
      logStream,
      env: { LOG_LEVEL: 'debug', DELIVER: 'off', OUTBOUND_ALLOW_PRIVATE: '127.0.0.1', DELIVERY_TIMEOUT_MS: '2000', ROOTLY_API_URL: `${fx.rx.url}/rootly` },
    });
    const owner = await createUser(t, 'pro');
    cookie = await loginCookie(t, owner);
    orgId = (await send(`${t.url}/api/v1/orgs`, 'POST', s(), { name: 'Platform team' })).body.organisation.id;
    assert.equal((await send(`${t.url}/api/v1/orgs/${orgId}/switch`, 'POST', s())).status, 200);
  });
  beforeEach(() => fx.forced.clear());
  after(async () => {
    await t?.close();
    await fx?.close();
  });

  test('an incident opens, updates and closes one record in each tool; bodies match the published schemas', async () => {
    const g = await made('graf', grafana(GRAFANA_TOKEN, 'ops-overview'), 'github');
    const sn = await made('snow', servicenow(), 'github');
    const fh = await made('fh', firehydrant(), 'github');
    const ro = await made('rootly', { channel: 'rootly', apiKey: ROOTLY_KEY }, 'github');
    const host = `${new URL(fx.rx.url).protocol}//${new URL(fx.rx.url).host}/****`;
    assert.deepEqual(g.destination, { channel: 'grafana', url: host, token: `****${GRAFANA_TOKEN.slice(-4)}`, dashboardUid: 'ops-overview' });
    assert.deepEqual(sn.destination, { channel: 'servicenow', url: host, username: SN.user, password: `****${SN.password.slice(-4)}` });
    assert.deepEqual(fh.destination, { channel: 'firehydrant', url: host });
    assert.deepEqual(ro.destination, { channel: 'rootly', apiKey: `****${ROOTLY_KEY.slice(-4)}` });
    const stored = JSON.stringify(await t.store.db.selectFrom('alert_routes').selectAll().execute());
    for (const secret of [GRAFANA_TOKEN, SN.password, FH_JWT, ROOTLY_KEY]) assert.ok(!stored.includes(secret), `${secret.slice(0, 6)}… sealed at rest`);
    const listed = JSON.stringify((await getJson(routes(), { headers: { cookie } })).body);
    for (const secret of [GRAFANA_TOKEN, SN.password, FH_JWT, ROOTLY_KEY]) assert.ok(!listed.includes(secret), `${secret.slice(0, 6)}… never answered again`);

    const inc = incident('github', { impact: 'major', components: ['Actions'], title: 'Actions <b>delayed</b>' });
    // The resolution carries when it ended, an hour after the start.
    const resolved = { ...inc, status: 'resolved', resolvedAt: new Date(Date.parse(inc.startedAt) + 3_600_000).toISOString() } as unknown as typeof inc;
    for (const [type, payload] of [
      ['incident.created', inc],
      ['incident.updated', inc],
      ['incident.resolved', resolved],
    ] as const) {
      await emit(t, type, payload);
      await t.app.alerts.runOnce();
    }

    // Grafana: one annotation on the dashboard, edited, then a region up to the resolution.
    const gr = fx.rx.requests.filter((r) => r.path.startsWith('/grafana/'));
    assert.deepEqual(
      gr.map((r) => `${r.method} ${r.path}`),
      ['POST /grafana/api/annotations', 'PATCH /grafana/api/annotations/1', 'PATCH /grafana/api/annotations/1'],
    );
    assert.equal(fx.annotations.size, 1);
    const ann = fx.annotations.get(1)!;
    assert.equal(ann.dashboardUID, 'ops-overview');
    assert.equal(ann.time, Date.parse(inc.startedAt));
    assert.equal(ann.timeEnd, Date.parse(inc.startedAt) + 3_600_000);
    const ref = referenceTag({ orgId, channel: 'grafana', routeId: g.id, vendor: 'github', entityId: inc.id });
    assert.deepEqual(ann.tags, ['vendor-status', 'vendor:github', 'impact:major', 'incident', ref]);
    assert.match(ref, /^vendor-status-ref:[0-9a-f]{24}$/);
    assert.match(String(ann.text), /^Incident resolved: github: Actions <b>delayed<\/b>/);

    // ServiceNow: three events with one message key; the last clears.
    const snow = fx.rx.requests.filter((r) => r.path.startsWith('/servicenow/')).map((r) => JSON.parse(r.body).records[0]);
    assert.deepEqual(
      snow.map((e) => e.severity),
      ['2', '2', '0'],
    );
    assert.equal(new Set(snow.map((e) => e.message_key)).size, 1);
    assert.equal(snow[0].message_key, `vendor-status:github:${inc.id}`);
    assert.match(snow[0].time_of_event, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    assert.equal(JSON.parse(snow[0].additional_info).vendor, 'github');
    assert.equal(snow[0].resource, 'Actions');

    // FireHydrant: OPEN, OPEN, CLOSED on one idempotency key.
    const fire = fx.rx.requests.filter((r) => r.path.startsWith('/firehydrant/')).map((r) => JSON.parse(r.body));
    assert.deepEqual(
      fire.map((b) => b.status),
      ['OPEN', 'OPEN', 'CLOSED'],
    );
    assert.equal(new Set(fire.map((b) => b.idempotency_key)).size, 1);
    assert.equal(fire[0].level, 'ERROR');

    // Rootly: one alert (the update folds into it by key), resolved by the id Rootly answered.
    const root = fx.rx.requests.filter((r) => r.path.startsWith('/rootly/'));
    assert.deepEqual(
      root.map((r) => `${r.method} ${r.path}`),
      ['POST /rootly/v1/alerts', 'POST /rootly/v1/alerts', 'POST /rootly/v1/alerts/alrt-1/resolve'],
    );
    assert.equal(fx.rootlyAlerts.size, 1);
    assert.equal(fx.rootlyAlerts.get('alrt-1')!.status, 'resolved');

    for (const id of [g.id, sn.id, fh.id, ro.id]) assert.equal((await rowOf(id)).status, 'succeeded');

    const doc = (await getJson(`${t.url}/openapi.json`)).body;
    const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: true, logger: false });
    addFormats.default(ajv);
    ajv.addSchema(doc, 'doc');
    const check = (schema: string, body: unknown) => {
      const v = ajv.compile({ $ref: `doc#/components/schemas/${schema}` });
      assert.ok(v(body), `${schema}: ${JSON.stringify(v.errors)}`);
    };
    check('GrafanaAnnotation', JSON.parse(gr[0]!.body));
    for (const r of gr.slice(1)) check('GrafanaAnnotation', JSON.parse(r.body));
    for (const r of fx.rx.requests.filter((x) => x.path.startsWith('/servicenow/'))) check('ServiceNowEvents', JSON.parse(r.body));
    for (const b of fire) check('FireHydrantEvent', b);
    check('RootlyAlert', JSON.parse(root[0]!.body));
    check('RootlyResolve', JSON.parse(root[2]!.body));
  });

  test('a create that timed out after Grafana or Rootly wrote it: the retry finds it, no second annotation or alert', async () => {
    const g = await made('graf late', grafana(), 'cloudflare');
    const ro = await made('rootly late', { channel: 'rootly', apiKey: ROOTLY_KEY }, 'cloudflare');
    const annotations = fx.annotations.size;
    const alerts = fx.rootlyAlerts.size;
    // Each tool writes the record, then answers after the delivery deadline (2 s).
    fx.late.set('POST /grafana/api/annotations', 3_000);
    fx.late.set('POST /rootly/v1/alerts', 3_000);
    const inc = incident('cloudflare', { impact: 'minor', title: 'Workers slow' });
    await emit(t, 'incident.created', inc);
    await t.app.alerts.runOnce();
    for (const r of [g, ro]) {
      const row = await rowOf(r.id);
      assert.equal(row.status, 'pending', `${r.name}: retried, ${row.last_error}`);
      assert.equal(Number(row.attempts), 1);
    }
    assert.equal(fx.annotations.size, annotations + 1, 'Grafana wrote the annotation before the timeout');
    assert.equal(fx.rootlyAlerts.size, alerts + 1, 'Rootly wrote the alert before the timeout');

    clock.advance(15 * 60_000);
    await t.app.alerts.runOnce();
    for (const r of [g, ro]) assert.equal((await rowOf(r.id)).status, 'succeeded', r.name);
    assert.equal(fx.annotations.size, annotations + 1, 'the retry edited the annotation instead of adding one');
    assert.equal(fx.rootlyAlerts.size, alerts + 1, 'the retry folded into the alert by its deduplication key');
    const id = [...fx.annotations.keys()].at(-1)!;
    const gr = fx.rx.requests.filter((r) => r.path.startsWith('/grafana/')).slice(-2);
    assert.deepEqual(
      gr.map((r) => `${r.method} ${r.path.split('?')[0]}`),
      ['GET /grafana/api/annotations', `PATCH /grafana/api/annotations/${id}`],
    );

    // The found annotation is the record's from now on: the resolution ends that one.
    const resolved = { ...inc, status: 'resolved', resolvedAt: new Date(Date.parse(inc.startedAt) + 600_000).toISOString() } as unknown as typeof inc;
    await emit(t, 'incident.resolved', resolved);
    await t.app.alerts.runOnce();
    assert.equal(fx.annotations.size, annotations + 1);
    assert.equal(fx.annotations.get(id)!.timeEnd, Date.parse(inc.startedAt) + 600_000);
    assert.equal([...fx.rootlyAlerts.values()].at(-1)!.status, 'resolved');
  });

  test('refused credentials and deleted sources switch the route off with the reason; a 400 fails only that alert', async () => {
    const g = await made('graf bad token', grafana('glsa_revokedTokenXXXXXXXXXXXX'), 'stripe');
    const sn = await made('snow bad password', servicenow('wrong-password-123'), 'stripe');
    const fh = await made('fh deleted source', firehydrant('eyJ.deleted.source'), 'stripe');
    const ro = await made('rootly revoked', { channel: 'rootly', apiKey: 'rootly_revokedKey0000000000' }, 'stripe');
    await emit(t, 'incident.created', incident('stripe', { impact: 'critical' }));
    await t.app.alerts.runOnce();
    for (const [r, why] of [
      [g, /Grafana: HTTP 401: invalid API key/],
      [sn, /ServiceNow: HTTP 401: User Not Authenticated/],
      [fh, /FireHydrant: HTTP 404: event source not found/],
      [ro, /Rootly: HTTP 401/],
    ] as const) {
      const row = await rowOf(r.id);
      assert.equal(row.status, 'failed', r.name);
      assert.match(String(row.last_error), why);
      const route = (await getJson(`${routes()}/${r.id}`, { headers: { cookie } })).body.route;
      assert.equal(route.enabled, false, r.name);
      assert.match(route.disabledReason, why);
    }
    // Nothing secret in the delivery log or in the app's log lines.
    const log = JSON.stringify(await t.store.db.selectFrom('deliveries').select(['last_error']).execute()) + logLines.join('');
    for (const secret of [
      GRAFANA_TOKEN,
      'glsa_revokedTokenXXXXXXXXXXXX',
      SN.password,
      'wrong-password-123',
      FH_JWT,
      'eyJ.deleted.source',
      ROOTLY_KEY,
      'rootly_revokedKey0000000000',
    ]) {
      assert.ok(!log.includes(secret), `${secret.slice(0, 6)}… not logged`);
    }

    // A payload the tool refuses (400) fails that one alert; the route stays on.
    const fh2 = await made('fh refuses one', firehydrant(), 'twilio');
    fx.forced.set('/firehydrant/', { status: 400, headers: { 'content-type': 'application/json' }, body: '{"errors":["summary is too long"]}' });
    await emit(t, 'incident.created', incident('twilio'));
    await t.app.alerts.runOnce();
    const row = await rowOf(fh2.id);
    assert.equal(row.status, 'failed');
    assert.match(String(row.last_error), /FireHydrant: HTTP 400: summary is too long/);
    assert.equal((await getJson(`${routes()}/${fh2.id}`, { headers: { cookie } })).body.route.enabled, true);
  });

  test('5xx and timeouts are retried with backoff, then delivered', async () => {
    const sn = await made('snow flaky', servicenow(), 'slack');
    const ro = await made('rootly slow', { channel: 'rootly', apiKey: ROOTLY_KEY }, 'slack');
    fx.forced.set('/servicenow/', { status: 503, body: '{"error":{"message":"Service Unavailable"}}' });
    fx.forced.set('/rootly/', { status: 201, hang: true });
    await emit(t, 'incident.created', incident('slack'));
    await t.app.alerts.runOnce();
    const first = { sn: await rowOf(sn.id), ro: await rowOf(ro.id) };
    assert.equal(first.sn.status, 'pending');
    assert.equal(first.sn.last_status_code, 503);
    assert.equal(first.ro.status, 'pending');
    assert.match(String(first.ro.last_error), /timed out|aborted/i);
    for (const r of [first.sn, first.ro]) assert.ok(Date.parse(String(r.next_attempt_at)) > clock.now().getTime(), 'not due at once: backoff');
    fx.forced.clear();
    clock.advance(10 * 60_000);
    await t.app.alerts.runOnce();
    for (const id of [sn.id, ro.id]) {
      const row = await rowOf(id);
      assert.equal(row.status, 'succeeded');
      assert.equal(row.attempts, 2);
    }
    assert.equal((await getJson(`${routes()}/${sn.id}`, { headers: { cookie } })).body.route.enabled, true);
  });

  test('hostile destinations are refused with the field named, never stored', async () => {
    const bad: [string, unknown][] = [
      ['grafana metadata address', { channel: 'grafana', url: 'https://169.254.169.254/', token: GRAFANA_TOKEN }],
      ['grafana plain http', { channel: 'grafana', url: 'http://grafana.example.com', token: GRAFANA_TOKEN }],
      ['grafana token with space', { channel: 'grafana', url: 'https://grafana.example.com', token: 'a b c d e f g h' }],
      ['grafana dashboard path', { channel: 'grafana', url: 'https://grafana.example.com', token: GRAFANA_TOKEN, dashboardUid: '../admin' }],
      ['servicenow localhost', { channel: 'servicenow', url: 'https://localhost/', username: 'u', password: 'p' }],
      ['servicenow credentials in url', { channel: 'servicenow', url: 'https://u:p@acme.service-now.com', username: 'u', password: 'p' }],
      ['servicenow colon user', { channel: 'servicenow', url: 'https://acme.service-now.com', username: 'a:b', password: 'p' }],
      ['servicenow control password', { channel: 'servicenow', url: 'https://acme.service-now.com', username: 'u', password: 'p\r\nX-Evil: 1' }],
      ['firehydrant private', { channel: 'firehydrant', url: 'https://10.0.0.8/v1/process/x' }],
      ['rootly key newline', { channel: 'rootly', apiKey: 'abc\ndefghijk' }],
      ['rootly extra field', { channel: 'rootly', apiKey: ROOTLY_KEY, url: 'https://evil.example' }],
    ];
    const count = async () => (await t.store.db.selectFrom('alert_routes').select('id').execute()).length;
    const before = await count();
    for (const [why, destination] of bad) {
      const r = await send(routes(), 'POST', s(), { name: 'bad', destination });
      assert.equal(r.status, 400, `${why}: ${JSON.stringify(r.body)}`);
      assert.equal(r.body.success, false);
    }
    assert.equal(await count(), before);
  });
});
