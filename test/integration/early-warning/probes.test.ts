import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { ProbeSpec } from '../../../src/domain/probes.ts';
import type { CatalogVendor } from '../../../src/domain/records.ts';
import { createProbeRunner, type ProbeRunner } from '../../../src/probes/index.ts';
import { loadConfig } from '../../../src/infra/config.ts';
import { startApp, TestClock, type TestApp } from '../../helpers/app.ts';
import { createUser, loginCookie, send } from '../../helpers/users.ts';

// Probes of vendors' public endpoints (docs/early-warning.md "Probes") over the real store and
// real sockets: samples build the baseline, a run of failures (never one) becomes `probe`
// observations for the organisations that follow the vendor and opens a signal, a dismissal
// relaxes the probe, two runners over one store measure each probe once, and hostile
// endpoints (private targets, redirects, hanging answers, huge bodies) are bounded.

const ALLOW = ['localhost'];

describe('probes', () => {
  const clock = new TestClock(new Date('2026-11-29T12:00:00Z'));
  let t: TestApp;
  let cookie: string;
  let orgId: string;
  let otherOrg: string;
  let otherCookie: string;
  let watchOrg: string;
  let watchCookie: string;
  let status = 200;
  let hits = 0;
  let redirectedHits = 0;
  let hugeSent = 0;
  const servers: net.Server[] = [];
  let port = 0;
  let redirectedPort = 0;
  let tcpPort = 0;
  let closedPort = 0;
  const runners: ProbeRunner[] = [];
  const s = (c = cookie) => ({ cookie: c, origin: t.url });

  const listen = async (srv: net.Server) => {
    servers.push(srv);
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
    return (srv.address() as net.AddressInfo).port;
  };
  const runner = (owner: string, timeoutMs = 800, concurrency = 4) => {
    const r = createProbeRunner({
      probes: t.app.services.earlyWarning.probes,
      allowList: ALLOW,
      concurrency,
      hostConcurrency: 2,
      timeoutMs,
      tickMs: 60_000,
      now: () => clock.now().getTime(),
      log: { warn() {} },
      owner,
    });
    runners.push(r);
    return r;
  };
  const probesOf = (vendor: string, probes: ProbeSpec[]) => [{ slug: vendor, probes } as CatalogVendor];
  const health = () => t.app.services.earlyWarning.probes.health();

  before(async () => {
    port = await listen(
      http.createServer((req, res) => {
        hits++;
        if (req.url === '/hang') return; // never answers
        if (req.url === '/redirect') {
          res.writeHead(302, { location: `http://127.0.0.1:${redirectedPort}/` });
          return res.end();
        }
        if (req.url === '/huge') {
          res.writeHead(200, { 'content-type': 'application/octet-stream' });
          const chunk = Buffer.alloc(64 * 1024, 120);
          const pump = () => {
            while (hugeSent < 50 * 1024 * 1024) {
              hugeSent += chunk.length;
              if (!res.write(chunk)) return res.once('drain', pump);
            }
            res.end();
          };
          res.on('error', () => {});
          return pump();
        }
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end('{}');
      }),
    );
    redirectedPort = await listen(
      http.createServer((_req, res) => {
        redirectedHits++;
        res.end('inside');
      }),
    );
    tcpPort = await listen(net.createServer((sock) => sock.on('error', () => {})));
    const tmp = net.createServer();
    closedPort = await listen(tmp);
    await new Promise<void>((r) => tmp.close(() => r()));
    servers.splice(servers.indexOf(tmp), 1);

    t = await startApp({ clock, env: { DELIVER: 'off', OUTBOUND_ALLOW_PRIVATE: ALLOW.join(',') } });
    const owner = await createUser(t, 'pro');
    cookie = await loginCookie(t, owner);
    orgId = (await send(`${t.url}/api/v1/orgs`, 'POST', s(), { name: 'Probe team' })).body.organisation.id;
    assert.equal((await send(`${t.url}/api/v1/orgs/${orgId}/switch`, 'POST', s())).status, 200);
    const svc = await send(`${t.url}/api/v1/orgs/${orgId}/services`, 'POST', s(), {
      name: 'checkout',
      criticality: 'critical',
      dependencies: [{ vendor: 'github' }],
    });
    assert.equal(svc.status, 201, JSON.stringify(svc.body));
    // Another organisation that does not follow github: it must observe nothing.
    const u = await createUser(t, 'pro');
    otherCookie = await loginCookie(t, u);
    otherOrg = (await send(`${t.url}/api/v1/orgs`, 'POST', s(otherCookie), { name: 'Elsewhere' })).body.organisation.id;
    assert.equal((await send(`${t.url}/api/v1/orgs/${otherOrg}/switch`, 'POST', s(otherCookie))).status, 200);
    // An organisation that follows github only through its own (main) watchlist: no service,
    // no named watchlist. It follows the vendor all the same.
    const w = await createUser(t, 'pro');
    watchCookie = await loginCookie(t, w);
    watchOrg = (await send(`${t.url}/api/v1/orgs`, 'POST', s(watchCookie), { name: 'Watch only' })).body.organisation.id;
    assert.equal((await send(`${t.url}/api/v1/orgs/${watchOrg}/switch`, 'POST', s(watchCookie))).status, 200);
    const put = await send(`${t.url}/api/v1/infrastructure/watchlist`, 'PUT', s(watchCookie), { vendors: ['github'] });
    assert.equal(put.status, 200, JSON.stringify(put.body));
  });
  after(async () => {
    for (const r of runners) await r.stop();
    await t?.close();
    for (const srv of servers) srv.close();
  });

  test('PROBES: off in tests unless set, on with live ingestion, refused when not a boolean', () => {
    assert.equal(t.app.probeRunner, null);
    assert.equal(loadConfig({ INGEST: 'off' }).probes, false);
    assert.equal(loadConfig({ INGEST: 'live' }).probes, true);
    assert.equal(loadConfig({ INGEST: 'off', PROBES: 'on' }).probes, true);
    assert.equal(loadConfig({ INGEST: 'live', PROBES: 'off' }).probes, false);
    assert.throws(() => loadConfig({ PROBES: 'maybe' }), /PROBES/);
  });

  test('the shipped catalog has probes, all on documented API hosts, and they become rows', async () => {
    const rows = await health();
    assert.ok(rows.length >= 30, `${rows.length} probes`);
    assert.ok(new Set(rows.map((r) => r.vendor)).size >= 30);
    // Nothing measured yet: unknown, with no figures.
    assert.ok(rows.every((r) => r.state === 'unknown' && r.p50Ms === null && r.errorRate === null && r.samples === 0));
  });

  test('a run of failures, never one, becomes observations for followers and opens a signal; dismissal relaxes the probe', async () => {
    const probes = t.app.services.earlyWarning.probes;
    await probes.syncCatalog(probesOf('github', [{ kind: 'http', url: `http://localhost:${port}/ok`, expect: [200] }]));
    const r = runner('runner-a');
    status = 200;
    for (let i = 0; i < 25; i++) {
      const out = await r.runOnce();
      assert.equal(out.measured, 1);
      assert.equal(out.observations, 0);
      clock.advance(61_000);
    }
    let [h] = await health();
    assert.equal(h!.state, 'ok');
    assert.equal(h!.samples, 25);
    assert.equal(h!.errorRate, 0);
    assert.ok(h!.p50Ms !== null && h!.p99Ms !== null && h!.p99Ms >= h!.p50Ms);
    // Not due yet: nothing is measured twice within its interval.
    clock.advance(-61_000);
    assert.equal((await r.runOnce()).measured, 0);
    clock.advance(61_000);

    status = 503;
    const first = await r.runOnce();
    assert.equal(first.observations, 0, 'one failure is no anomaly');
    clock.advance(61_000);
    assert.equal((await r.runOnce()).observations, 2, 'the second failure: both followers observe (by a service, by the own watchlist)');
    [h] = await health();
    assert.equal(h!.state, 'anomalous');
    assert.match(h!.reason!, /2 of the last 3 .*status 503/);
    for (let i = 0; i < 4; i++) {
      clock.advance(61_000);
      await r.runOnce();
    }
    const signals = (await send(`${t.url}/api/v1/orgs/${orgId}/signals`, 'GET', { cookie })).body.signals as any[];
    assert.equal(signals.length, 1);
    assert.equal(signals[0].vendor, 'github');
    assert.equal(signals[0].state, 'suspected');
    assert.ok(signals[0].evidence.every((e: any) => e.source === 'probe'));
    assert.ok(signals[0].evidence.length >= 3);
    const others = (await send(`${t.url}/api/v1/orgs/${otherOrg}/signals`, 'GET', { cookie: otherCookie })).body.signals as any[];
    assert.equal(others.length, 0, 'an organisation that does not follow the vendor observes nothing');
    const watched = (await send(`${t.url}/api/v1/orgs/${watchOrg}/signals`, 'GET', { cookie: watchCookie })).body.signals as any[];
    assert.equal(watched.length, 1, 'an organisation following the vendor through its own watchlist gets the signal too');
    assert.equal(watched[0].vendor, 'github');
    assert.ok(watched[0].evidence.every((e: any) => e.source === 'probe'));

    // Recovery: good answers make no observation while more than one of the last eight
    // failed (still degraded); then one weak observation ends the run, and no more follow.
    status = 200;
    for (let i = 0; i < 6; i++) {
      clock.advance(61_000);
      assert.equal((await r.runOnce()).observations, 0);
    }
    [h] = await health();
    assert.equal(h!.state, 'anomalous');
    assert.match(h!.reason!, /still degraded/);
    clock.advance(61_000);
    assert.equal((await r.runOnce()).observations, 2);
    [h] = await health();
    assert.equal(h!.state, 'ok');
    clock.advance(61_000);
    assert.equal((await r.runOnce()).observations, 0);
    const evidence = (await send(`${t.url}/api/v1/orgs/${orgId}/signals`, 'GET', { cookie })).body.signals[0].evidence as any[];
    const newest = evidence.reduce((a: any, b: any) => (a.observedAt >= b.observedAt ? a : b));
    assert.ok(newest.strength <= 0.05, JSON.stringify(newest));
    assert.match(newest.summary, /as usual again/);

    const dismissed = await send(`${t.url}/api/v1/orgs/${orgId}/signals/${signals[0].id}/dismiss`, 'POST', s(), { reason: 'our proxy' });
    assert.equal(dismissed.status, 200, JSON.stringify(dismissed.body));
    [h] = await health();
    assert.equal(h!.relaxSteps, 1);
    // Relaxed: two failures in a row no longer make an anomaly; a third does.
    status = 503;
    for (let i = 0; i < 2; i++) {
      clock.advance(61_000);
      await r.runOnce();
    }
    [h] = await health();
    assert.equal(h!.state, 'ok');
    clock.advance(61_000);
    await r.runOnce();
    [h] = await health();
    assert.equal(h!.state, 'anomalous');
    status = 200;
  });

  test('two runners over one store measure each due probe once', async () => {
    const probes = t.app.services.earlyWarning.probes;
    const specs: ProbeSpec[] = Array.from({ length: 6 }, (_, i) => ({ kind: 'http', url: `http://localhost:${port}/ok?n=${i}`, expect: [200] }));
    await probes.syncCatalog(probesOf('gitlab', specs));
    clock.advance(3_600_000);
    const before = hits;
    const [a, b] = await Promise.all([runner('runner-b').runOnce(), runner('runner-c').runOnce()]);
    assert.equal(a.measured + b.measured, 6);
    assert.equal(hits - before, 6);
    assert.equal((await health()).length, 6, 'the earlier probe is retired from the list');
  });

  test('hostile endpoints: private targets refused, redirects not followed, hangs and huge bodies bounded', async () => {
    const probes = t.app.services.earlyWarning.probes;
    const cases: [ProbeSpec, (h: { state: string; reason: string | null; errorRate: number | null; p50Ms: number | null }) => void][] = [
      [{ kind: 'http', url: `http://127.0.0.1:${port}/ok`, expect: [200] }, (h) => assert.equal(h.errorRate, 1)],
      [{ kind: 'http', url: `http://vm:${port}/ok`, expect: [200] }, (h) => assert.equal(h.errorRate, 1)],
      [{ kind: 'http', url: `http://localhost:${port}/redirect`, expect: [200] }, (h) => assert.equal(h.errorRate, 1)],
      [{ kind: 'http', url: `http://localhost:${port}/hang`, expect: [200] }, (h) => assert.equal(h.errorRate, 1)],
      [{ kind: 'http', url: `http://localhost:${port}/huge`, expect: [200] }, (h) => assert.equal(h.errorRate, 0)],
      [{ kind: 'tcp', host: `localhost:${tcpPort}` }, (h) => assert.equal(h.errorRate, 0)],
      [{ kind: 'tcp', host: `127.0.0.1:${tcpPort}` }, (h) => assert.equal(h.errorRate, 1)],
      [{ kind: 'tcp', host: `localhost:${closedPort}` }, (h) => assert.equal(h.errorRate, 1)],
      [{ kind: 'tls', host: `localhost:${tcpPort}` }, (h) => assert.equal(h.errorRate, 1)],
      [{ kind: 'dns', name: 'localhost' }, (h) => assert.equal(h.errorRate, 0)],
      [{ kind: 'dns', name: 'vm' }, (h) => assert.equal(h.errorRate, 1)],
      [{ kind: 'dns', name: 'nothing.invalid' }, (h) => assert.equal(h.errorRate, 1)],
    ];
    await probes.syncCatalog(
      probesOf(
        'stripe',
        cases.map(([spec]) => spec),
      ),
    );
    clock.advance(3_600_000);
    const started = performance.now();
    const redirectedBefore = redirectedHits;
    const round = await runner('runner-d', 700, 8).runOnce();
    assert.equal(round.measured, cases.length);
    const took = performance.now() - started;
    assert.ok(took < 5_000, `one round with a hanging endpoint took ${Math.round(took)} ms`);
    assert.equal(redirectedHits, redirectedBefore, 'the redirect was not followed');
    assert.ok(hugeSent < 50 * 1024 * 1024, `the huge body was cut off (${hugeSent} bytes sent)`);
    const rows = await t.app.services.earlyWarning.probes.health('stripe');
    const byTarget = new Map(rows.map((r) => [`${r.kind} ${r.target}`, r]));
    assert.equal(rows.length, cases.length);
    for (const [spec, check] of cases) {
      const target = spec.kind === 'http' ? spec.url : spec.kind === 'dns' ? spec.name : spec.host;
      const h = byTarget.get(`${spec.kind} ${target}`)!;
      assert.equal(h.samples, 1, target);
      check(h);
    }
    // The reasons as recorded: read them from the store through the raw samples.
    const reasons = new Map<string, string | null>();
    for (const spec of cases.map(([x]) => x)) {
      const target = spec.kind === 'http' ? spec.url : spec.kind === 'dns' ? spec.name : spec.host;
      const row = (await t.repos.probes.list('stripe')).find(
        (p) => p.spec.kind === spec.kind && (p.spec.kind === 'http' ? p.spec.url : p.spec.kind === 'dns' ? p.spec.name : p.spec.host) === target,
      )!;
      reasons.set(`${spec.kind} ${target}`, row.samples[0]!.reason);
    }
    assert.equal(reasons.get(`http http://127.0.0.1:${port}/ok`), 'refused: not a public address');
    assert.equal(reasons.get(`http http://vm:${port}/ok`), 'refused: not a public address');
    assert.equal(reasons.get(`http http://localhost:${port}/redirect`), 'status 302');
    assert.equal(reasons.get(`http http://localhost:${port}/hang`), 'timeout');
    assert.equal(reasons.get(`tcp 127.0.0.1:${tcpPort}`), 'refused: not a public address');
    assert.equal(reasons.get(`tcp localhost:${closedPort}`), 'ECONNREFUSED');
    assert.equal(reasons.get('dns vm'), 'refused: not a public address');
    assert.equal(reasons.get('dns nothing.invalid'), 'ENOTFOUND');
    assert.equal(reasons.get(`tls localhost:${tcpPort}`), 'timeout', 'a plain TCP endpoint never completes a TLS handshake');
  });

  test('instances starting together sync the same probes at once: none fails, each probe is one row', async () => {
    const probes = t.app.services.earlyWarning.probes;
    const specs: ProbeSpec[] = Array.from({ length: 40 }, (_, i) => ({ kind: 'http', url: `http://localhost:${port}/together?n=${i}`, expect: [200] }));
    // Each sync on a connection of its own (PostgreSQL), as separate processes would.
    const results = await Promise.allSettled(Array.from({ length: 3 }, () => probes.syncCatalog(probesOf('gitlab', specs))));
    assert.deepEqual(
      results.map((r) => (r.status === 'rejected' ? String(r.reason) : 'ok')),
      ['ok', 'ok', 'ok'],
    );
    const rows = await health();
    assert.equal(rows.length, specs.length);
    assert.equal(new Set(rows.map((r) => r.target)).size, specs.length);
  });
});
