import assert from 'node:assert/strict';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startApp, TestClock, type TestApp } from '../../helpers/app.ts';
import { createUser, loginCookie, send, type TestUser } from '../../helpers/users.ts';
import { sleep } from '../../helpers/wait.ts';

// Prometheus connectors (docs/early-warning.md "Prometheus connectors") against a REAL
// Prometheus (Debian's package), started on a free port with a temporary config scraping a
// fake exporter (text exposition format) every second: an error ratio above the threshold for
// the duration becomes telemetry observations and a signal; a PromQL error, a timeout and a
// non-JSON answer each mark only their own connector unhealthy; NaN and +Inf are no reading;
// REST by role, with hostile bodies and another organisation's ids.

const PROMETHEUS = spawnSync('sh', ['-c', 'command -v prometheus'], { encoding: 'utf8' }).stdout.trim();
const skip = PROMETHEUS ? false : 'the prometheus binary is missing (apt-get install -y prometheus): the connector tests need a real Prometheus';

const listen = (srv: http.Server) => new Promise<number>((r) => srv.listen(0, '127.0.0.1', () => r((srv.address() as net.AddressInfo).port)));
const freePort = async () => {
  const srv = http.createServer();
  const port = await listen(srv);
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
};

describe('telemetry connectors', { skip }, () => {
  const clock = new TestClock(new Date('2026-11-29T12:00:00Z'));
  let t: TestApp;
  let owner: TestUser;
  let cookie: string;
  let orgId: string;
  let viewerCookie: string;
  let otherCookie: string;
  let otherOrg: string;
  let prom: ChildProcess | null = null;
  let promUrl = '';
  let dir = '';
  let ratio = 0.5;
  const servers: http.Server[] = [];
  let hangUrl = '';
  let htmlUrl = '';
  const s = (c = cookie) => ({ cookie: c, origin: t.url });
  const api = (p = '', id = orgId) => `${t.url}/api/v1/orgs/${id}/telemetry-connectors${p}`;
  const QUERY = 'max(vendor_error_ratio{server_address="api.stripe.com"})';

  before(async () => {
    const exporter = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4' });
      res.end(
        `# HELP vendor_error_ratio Failed share of outbound calls.\n# TYPE vendor_error_ratio gauge\nvendor_error_ratio{server_address="api.stripe.com"} ${ratio}\n`,
      );
    });
    servers.push(exporter);
    const exporterPort = await listen(exporter);
    const hang = http.createServer(() => {});
    servers.push(hang);
    hangUrl = `http://127.0.0.1:${await listen(hang)}`;
    const html = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>sign in</html>');
    });
    servers.push(html);
    htmlUrl = `http://127.0.0.1:${await listen(html)}`;

    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'prom-'));
    fs.writeFileSync(
      path.join(dir, 'prometheus.yml'),
      `global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\nscrape_configs:\n  - job_name: fake\n    static_configs:\n      - targets: ['127.0.0.1:${exporterPort}']\n`,
    );
    const port = await freePort();
    promUrl = `http://127.0.0.1:${port}`;
    prom = spawn(
      PROMETHEUS,
      [
        `--config.file=${path.join(dir, 'prometheus.yml')}`,
        `--storage.tsdb.path=${path.join(dir, 'data')}`,
        `--web.listen-address=127.0.0.1:${port}`,
        '--storage.tsdb.retention.time=1h',
        '--log.level=warn',
      ],
      { stdio: 'ignore' },
    );
    // Ready, and the exporter scraped: the query answers a value.
    for (let i = 0; ; i++) {
      assert.ok(i < 300, 'Prometheus did not come up with the exporter scraped within 30 s');
      try {
        const r = await fetch(`${promUrl}/api/v1/query?query=${encodeURIComponent(QUERY)}`);
        const body = (await r.json()) as any;
        if (body.data?.result?.length) break;
      } catch {}
      await sleep(100);
    }

    t = await startApp({ clock, env: { DELIVER: 'off', OUTBOUND_ALLOW_PRIVATE: '127.0.0.1', TELEMETRY_TIMEOUT_MS: '1500' } });
    owner = await createUser(t, 'pro');
    cookie = await loginCookie(t, owner);
    orgId = (await send(`${t.url}/api/v1/orgs`, 'POST', s(), { name: 'Telemetry team' })).body.organisation.id;
    assert.equal((await send(`${t.url}/api/v1/orgs/${orgId}/switch`, 'POST', s())).status, 200);
    const v = await createUser(t, 'free');
    viewerCookie = await loginCookie(t, v);
    const inv = await send(`${t.url}/api/v1/orgs/${orgId}/invitations`, 'POST', s(), { email: v.email, role: 'editor' });
    assert.equal((await send(`${t.url}/api/v1/invitations/${inv.body.invitation.link.split('/').pop()}/accept`, 'POST', s(viewerCookie))).status, 200);
    assert.equal((await send(`${t.url}/api/v1/orgs/${orgId}/switch`, 'POST', s(viewerCookie))).status, 200);
    const u = await createUser(t, 'pro');
    otherCookie = await loginCookie(t, u);
    otherOrg = (await send(`${t.url}/api/v1/orgs`, 'POST', s(otherCookie), { name: 'Other team' })).body.organisation.id;
    assert.equal((await send(`${t.url}/api/v1/orgs/${otherOrg}/switch`, 'POST', s(otherCookie))).status, 200);
  });
  after(async () => {
    await t?.close();
    if (prom) {
      prom.kill('SIGTERM');
      await new Promise((r) => prom!.once('exit', r));
    }
    for (const srv of servers) srv.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  const connector = (o: Record<string, unknown> = {}) => ({
    name: 'prod prometheus',
    baseUrl: promUrl,
    token: 'prom-token-abcd',
    queries: [{ vendor: 'stripe', query: QUERY, threshold: 0.2, durationSeconds: 120 }],
    ...o,
  });

  test('admins write, members read; the token is sealed and shown by its last four only', async () => {
    const made = await send(api(), 'POST', s(), connector());
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const c = made.body.connector;
    assert.match(c.id, /^tlm_[0-9a-f]{32}$/);
    assert.deepEqual(c.token, { lastFour: 'abcd' });
    assert.equal(c.health, 'unknown');
    assert.equal(c.queries[0].value, null);
    assert.ok(!JSON.stringify(made.body).includes('prom-token'));
    const row = await t.store.db.selectFrom('telemetry_connectors').select('token').where('id', '=', c.id).executeTakeFirstOrThrow();
    assert.ok(row.token && !row.token.includes('prom-token'), 'sealed at rest');
    // An editor reads but may not write.
    assert.equal((await send(api(), 'GET', { cookie: viewerCookie })).body.connectors.length, 1);
    assert.equal((await send(api(), 'POST', s(viewerCookie), connector({ name: 'mine' }))).status, 403);
    assert.equal((await send(api(`/${c.id}`), 'PUT', s(viewerCookie), { enabled: false })).status, 403);
    assert.equal((await send(api(`/${c.id}`), 'DELETE', s(viewerCookie))).status, 403);
    // Another organisation: its ids and ours are out of each other's reach.
    assert.equal((await send(api(`/${c.id}`, otherOrg), 'GET', { cookie: otherCookie })).status, 404);
    assert.equal((await send(api(`/${c.id}`), 'GET', { cookie: otherCookie })).status, 404);
    assert.equal((await send(api(`/${c.id}`, otherOrg), 'PUT', s(otherCookie), { enabled: false })).status, 404);
    assert.equal((await send(api(`/${c.id}`, otherOrg), 'DELETE', s(otherCookie))).status, 404);
    assert.equal((await send(api(), 'GET', { cookie })).body.connectors[0].enabled, true);
    assert.equal((await send(api(), 'POST', s(), connector())).status, 409, 'names are unique in an organisation');
  });

  test('hostile bodies are 400 with the error body, never a 500', async () => {
    const cases: unknown[] = [
      connector({ name: 'bad\u0000name' }),
      connector({ name: 'x'.repeat(81) }),
      connector({ name: 'q1', queries: [{ vendor: 'stripe', query: 'up\nor vector(1)', threshold: 0.2, durationSeconds: 60 }] }),
      connector({ name: 'q2', queries: [{ vendor: 'stripe', query: 'x'.repeat(2001), threshold: 0.2, durationSeconds: 60 }] }),
      connector({ name: 'q3', queries: [{ vendor: 'stripe', query: 'up', threshold: '0.2', durationSeconds: 60 }] }),
      connector({ name: 'q4', queries: [{ vendor: 'stripe', query: 'up', threshold: 0.2, durationSeconds: 3601 }] }),
      connector({ name: 'q5', queries: [{ vendor: 'stripe', query: 'up', threshold: 0.2, durationSeconds: 60, extra: 1 }] }),
      connector({ name: 'q6', queries: [] }),
      connector({ name: 'q7', queries: Array.from({ length: 21 }, () => ({ vendor: 'stripe', query: 'up', threshold: 0.2, durationSeconds: 60 })) }),
      connector({ name: 'q8', queries: [{ vendor: 'Not A Slug', query: 'up', threshold: 0.2, durationSeconds: 60 }] }),
      connector({ name: 'u1', baseUrl: 'http://10.1.2.3:9090' }),
      connector({ name: 'u2', baseUrl: 'http://169.254.169.254/' }),
      connector({ name: 'u3', baseUrl: 'not a url' }),
      connector({ name: 'u4', baseUrl: `${promUrl}/?x=1` }),
      connector({ name: 't1', token: 'has space' }),
      connector({ name: 't2', token: 'tab\there' }),
      connector({ name: 'f1', unknown: true }),
      { name: 'only a name' },
      'not an object',
      [],
    ];
    for (const body of cases) {
      const r = await send(api(), 'POST', s(), body);
      assert.equal(r.status, 400, `${JSON.stringify(body).slice(0, 120)} → ${r.status} ${JSON.stringify(r.body)}`);
      assert.equal(r.body.success, false);
    }
    const unknownVendor = await send(
      api(),
      'POST',
      s(),
      connector({ name: 'v1', queries: [{ vendor: 'no-such-vendor', query: 'up', threshold: 0.2, durationSeconds: 60 }] }),
    );
    assert.equal(unknownVendor.status, 404);
    const [c] = (await send(api(), 'GET', { cookie })).body.connectors;
    assert.equal((await send(api(`/${c.id}`), 'PUT', s(), {})).status, 400);
    assert.equal((await send(api('/no_such_connector'), 'PUT', s(), { enabled: false })).status, 404);
    assert.equal((await send(api('/bad id!'), 'GET', { cookie })).status, 400);
  });

  test('above the threshold for the duration: telemetry observations open a signal; broken connectors are unhealthy, alone', async () => {
    const broken = [
      connector({ name: 'syntax', token: null, queries: [{ vendor: 'stripe', query: 'sum(vendor_error_ratio', threshold: 0.2, durationSeconds: 0 }] }),
      connector({ name: 'hangs', baseUrl: hangUrl, token: null }),
      connector({ name: 'html', baseUrl: htmlUrl, token: null }),
      connector({
        name: 'nan',
        token: null,
        queries: [
          { vendor: 'stripe', query: 'vector(0) / 0', threshold: 0.2, durationSeconds: 0 },
          { vendor: 'stripe', query: 'vector(1) / 0', threshold: 0.2, durationSeconds: 0 },
        ],
      }),
    ];
    for (const b of broken) assert.equal((await send(api(), 'POST', s(), b)).status, 201);
    ratio = 0.5;
    const started = performance.now();
    const first = await t.app.telemetryRunner.runOnce();
    assert.ok(performance.now() - started < 5_000, 'a hanging Prometheus holds only its own connector, within its deadline');
    assert.equal(first.evaluated, 5);
    assert.equal(first.unhealthy, 3);
    assert.equal(first.observations, 0, 'not above for the duration yet');
    const byName = new Map(((await send(api(), 'GET', { cookie })).body.connectors as any[]).map((c) => [c.name, c]));
    const prod = byName.get('prod prometheus');
    assert.equal(prod.health, 'ok');
    assert.equal(prod.queries[0].value, 0.5);
    assert.equal(prod.queries[0].aboveSince, clock.now().toISOString());
    assert.equal(byName.get('syntax').health, 'unhealthy');
    assert.match(byName.get('syntax').lastError, /HTTP 400: bad_data: .*parse error/);
    assert.equal(byName.get('hangs').health, 'unhealthy');
    assert.match(byName.get('hangs').lastError, /timeout/);
    assert.equal(byName.get('html').health, 'unhealthy');
    assert.match(byName.get('html').lastError, /not JSON/);
    const nan = byName.get('nan');
    assert.equal(nan.health, 'ok');
    assert.deepEqual(
      nan.queries.map((q: any) => [q.value, q.breaching]),
      [
        [null, false],
        [null, false],
      ],
      'NaN and +Inf are no reading',
    );

    // Not due again before the interval.
    assert.equal((await t.app.telemetryRunner.runOnce()).evaluated, 0);
    let observations = 0;
    for (let i = 0; i < 8; i++) {
      clock.advance(61_000);
      observations += (await t.app.telemetryRunner.runOnce()).observations;
    }
    assert.ok(observations >= 6, `${observations} observations`);
    const signals = (await send(`${t.url}/api/v1/orgs/${orgId}/signals`, 'GET', { cookie })).body.signals as any[];
    assert.equal(signals.length, 1);
    assert.equal(signals[0].vendor, 'stripe');
    assert.ok(signals[0].evidence.every((e: any) => e.source === 'telemetry'));
    assert.match(signals[0].evidence[0].summary, /prod prometheus: 0.5 above 0.2/);
    assert.equal((await send(`${t.url}/api/v1/orgs/${otherOrg}/signals`, 'GET', { cookie: otherCookie })).body.signals.length, 0);

    // Back below: one weak observation ends the breach.
    ratio = 0.01;
    await sleep(2_500);
    clock.advance(61_000);
    const back = await t.app.telemetryRunner.runOnce();
    assert.equal(back.observations, 1);
    const prodAfter = (await send(api(`/${prod.id}`), 'GET', { cookie })).body.connector;
    assert.equal(prodAfter.queries[0].breaching, false);
    assert.equal(prodAfter.queries[0].value, 0.01);
    clock.advance(61_000);
    assert.equal((await t.app.telemetryRunner.runOnce()).observations, 0);
  });

  test('delete by an admin; audited', async () => {
    const list = (await send(api(), 'GET', { cookie })).body.connectors as any[];
    const one = list.find((c) => c.name === 'html');
    assert.equal((await send(api(`/${one.id}`), 'DELETE', s())).status, 200);
    assert.equal((await send(api(`/${one.id}`), 'GET', { cookie })).status, 404);
    const audit = await send(`${t.url}/api/v1/orgs/${orgId}/audit?action=telemetry_connector.deleted`, 'GET', { cookie });
    assert.equal(audit.status, 200, JSON.stringify(audit.body));
    assert.ok(JSON.stringify(audit.body).includes(one.id));
  });
});
