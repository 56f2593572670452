import assert from 'node:assert/strict';
import net from 'node:net';
import { PassThrough } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { getJson, startApp, type TestApp, UNLIMITED_RATE_LIMITS } from '../helpers/app.ts';
import { startFleet, startIngestApp, type TestFleet } from '../helpers/fleet.ts';
import { loadCatalog } from '../../src/services/vendors/catalog-loader.ts';
import { webhookUser } from '../helpers/alerts.ts';
import { type HttpReceiver, startReceiver } from '../helpers/receivers.ts';
import { waitFor } from '../helpers/wait.ts';
import { createUser } from '../helpers/users.ts';

// GET /metrics (docs/operations.md): real requests, a cache hit at each layer, a 429,
// a polling round on the ingestion worker thread, a webhook delivery and an open
// stream, then a scrape that must show each of them with the right labels. Also the
// METRICS_TOKEN guard, readiness against a database and a Redis that are down, and
// request ids in the log lines.

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

function parse(text: string): Sample[] {
  const out: Sample[] = [];
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    assert.ok(m, `unparsable exposition line: ${line}`);
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[l[1]!] = l[2]!;
    out.push({ name: m[1]!, labels, value: Number(m[3]) });
  }
  return out;
}

/** Sum of the samples of `name` whose labels include `labels` (undefined when there is none). */
function sum(samples: Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  const hits = samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  return hits.length ? hits.reduce((n, s) => n + s.value, 0) : undefined;
}

async function scrape(t: TestApp, headers: Record<string, string> = {}) {
  const res = await fetch(`${t.url}/metrics`, { headers });
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'text/plain; version=0.0.4; charset=utf-8');
  const text = await res.text();
  return { text, samples: parse(text) };
}

describe('operations metrics', () => {
  let fleet: TestFleet;
  let hook: HttpReceiver;
  let t: TestApp;
  before(async () => {
    hook = await startReceiver();
    fleet = await startFleet(['github'], { clock: { now: () => new Date() } });
    const rateLimits = { ...JSON.parse(UNLIMITED_RATE_LIMITS), free: { perMinute: 2, perDay: 1000 } };
    t = await startIngestApp(fleet, { env: { RATE_LIMITS: JSON.stringify(rateLimits), OUTBOUND_ALLOW_PRIVATE: '127.0.0.1', DELIVER: 'off' } });
  });
  after(async () => {
    await t?.close();
    await fleet?.close();
    await hook?.close();
  });

  test('requests, cache, 429, polls from the worker thread, deliveries, streams and events show up with their labels', async () => {
    const before = (await scrape(t)).samples;
    assert.ok(sum(before, 'process_cpu_user_seconds_total') !== undefined, 'process metrics are exposed');
    assert.ok(sum(before, 'nodejs_eventloop_lag_seconds') !== undefined, 'event-loop metrics are exposed');
    // This app's own registry: nothing of the other apps of this process.
    assert.equal(sum(before, 'vis_ingest_polls_total'), undefined);
    assert.equal(sum(before, 'vis_http_requests_total', { route: '/api/v1/infrastructure/incidents' }), undefined);

    // Requests: a key caller's miss, then its hit answered at the HTTP server; an anonymous
    // caller's miss (its plan's history window is another cache entry), then its hit inside Fastify.
    const pro = await createUser(t, 'pro');
    const list = `${t.api}/incidents?limit=5`;
    const cacheOf = async (headers: Record<string, string> = {}) => (await getJson(list, { headers })).headers.get('x-cache');
    assert.deepEqual([await cacheOf(pro.headers), await cacheOf(pro.headers)], ['MISS', 'HIT']);
    assert.deepEqual([await cacheOf(), await cacheOf()], ['MISS', 'HIT']);
    assert.equal((await getJson(`${t.api}/vendor-status/github`)).status, 200);
    assert.equal((await getJson(`${t.api}/no-such-route/secret-looking-path`)).status, 404);
    // A free key over its 2 requests a minute.
    const free = await createUser(t, 'free');
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await getJson(`${t.api}/vendor-list`, { headers: free.headers })).status);
    assert.deepEqual(statuses, [200, 200, 429]);

    // A round on the ingestion worker thread: its outcomes are counted in this thread's registry.
    const inc = fleet.sim.fleet.openIncident('github');
    await webhookUser(t, ['github'], `${hook.url}/alerts`);
    const report = await t.app.ingest.roundInWorker({ force: true });
    assert.ok(report.outcomes.length >= 3);
    assert.deepEqual(
      report.outcomes.filter((o) => o.status === 'failed'),
      [],
    );
    await waitFor(async () => Boolean(await t.repos.incidents.get(inc.id)), { message: 'the incident is stored' });

    // The alert: dispatched (pending), then sent to the webhook.
    assert.ok((await t.app.alerts.dispatcher.runOnce()) >= 1);
    const dispatched = (await scrape(t)).samples;
    assert.ok((sum(dispatched, 'vis_alert_deliveries_pending', { channel: 'webhook' }) ?? 0) >= 1);
    await t.app.alerts.worker.runOnce();
    assert.ok(hook.requests.length >= 1, 'the webhook received the alert');

    // An open stream.
    const ac = new AbortController();
    const stream = await fetch(`${t.api}/incidents/stream`, { signal: ac.signal });
    assert.equal(stream.status, 200);
    const reader = stream.body!.getReader();
    let got = '';
    while (!got.includes('event: snapshot')) got += new TextDecoder().decode((await reader.read()).value);
    let during: Sample[] = [];
    await waitFor(
      async () => {
        during = (await scrape(t)).samples;
        return sum(during, 'vis_streams_open') === 1;
      },
      { message: 'the open stream is counted', timeoutMs: 15_000 },
    );
    ac.abort();
    await reader.cancel().catch(() => {});

    const { text, samples: s } = await scrape(t);
    const http = (labels: Record<string, string>) => sum(s, 'vis_http_requests_total', labels) ?? 0;
    const list1 = '/api/v1/infrastructure/incidents';
    assert.equal(http({ method: 'GET', route: list1, status: '200' }), 4, 'two misses, a hit at the server, a hit in the app');
    assert.equal(sum(s, 'vis_http_request_duration_seconds_count', { method: 'GET', route: list1, status: '200' }), 4);
    assert.equal(http({ route: '/api/v1/infrastructure/vendor-status/:vendor', status: '200' }), 1);
    assert.equal(http({ route: 'unmatched', status: '404' }), 1);
    assert.equal(http({ route: '/api/v1/infrastructure/vendor-list', status: '429' }), 1);
    assert.ok(!text.includes('secret-looking-path'), 'raw URLs never become labels');
    assert.ok(!text.includes('limit=5'), 'query strings never become labels');

    assert.equal(sum(s, 'vis_response_cache_requests_total', { route: list1, result: 'miss', layer: 'app' }), 2);
    assert.equal(sum(s, 'vis_response_cache_requests_total', { route: list1, result: 'hit', layer: 'server' }), 1);
    assert.equal(sum(s, 'vis_response_cache_requests_total', { route: list1, result: 'hit', layer: 'app' }), 1);
    assert.equal(sum(s, 'vis_rate_limit_refusals_total', { plan: 'free', kind: 'minute' }), 1);

    // Every source of the round, counted per vendor and result (never per source row), with
    // its duration in one histogram per result.
    const sources = await t.repos.sources.list('github');
    assert.equal(sum(s, 'vis_ingest_polls_total', { vendor: 'github' }), sources.length);
    assert.ok(s.filter((x) => x.name === 'vis_ingest_polls_total').every((x) => Object.keys(x.labels).sort().join() === 'result,vendor'));
    assert.ok((sum(s, 'vis_ingest_polls_total', { vendor: 'github', result: 'updated' }) ?? 0) >= 1);
    assert.equal(sum(s, 'vis_ingest_poll_duration_seconds_count'), sources.length);
    assert.ok(s.filter((x) => x.name.startsWith('vis_ingest_poll_duration_seconds')).every((x) => !('vendor' in x.labels)));
    assert.ok((sum(s, 'vis_events_published_total', { type: 'incident.created' }) ?? 0) >= 1);

    assert.equal(sum(s, 'vis_alert_delivery_attempts_total', { channel: 'webhook', result: 'succeeded' }), hook.requests.length);
    assert.equal(sum(s, 'vis_alert_delivery_lag_seconds_count', { channel: 'webhook' }), hook.requests.length);
    assert.equal(sum(s, 'vis_alert_deliveries_pending', { channel: 'webhook' }) ?? 0, 0);
    assert.equal(http({ route: '/metrics', status: '200' }) >= 3, true, 'the scrapes themselves are counted');
  });

  test('/metrics is neither rate limited nor cached', async () => {
    const res = await fetch(`${t.url}/metrics`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('x-cache'), null);
    assert.equal(res.headers.get('ratelimit'), null);
    assert.equal(res.headers.get('cache-control'), 'no-store');
    await res.text();
  });
});

describe('METRICS_TOKEN', () => {
  const token = 'metrics-token-0123456789';
  let t: TestApp;
  before(async () => {
    t = await startApp({ env: { METRICS_TOKEN: token } });
  });
  after(async () => t?.close());

  test('without the bearer token: 401 with the error body; with it: the metrics', async () => {
    const refused: Record<string, string>[] = [{}, { authorization: 'Bearer wrong-token-0123456789' }, { authorization: token }, { 'x-api-key': token }];
    for (const headers of refused) {
      const r = await getJson(`${t.url}/metrics`, { headers });
      assert.equal(r.status, 401, JSON.stringify(headers));
      assert.equal(r.body.success, false);
      assert.equal(r.body.error, 'unauthorized');
      assert.equal(r.body.requestId, r.headers.get('x-request-id'));
      assert.equal(r.headers.get('www-authenticate'), 'Bearer realm="metrics"');
    }
    const { samples } = await scrape(t, { authorization: `Bearer ${token}` });
    assert.equal(sum(samples, 'vis_http_requests_total', { route: '/metrics', status: '401' }), 4);
  });

  test('the document describes the route and its token', async () => {
    const doc = (await getJson(`${t.url}/openapi.json`)).body;
    const op = doc.paths['/metrics'].get;
    assert.equal(op.operationId, 'getMetrics');
    assert.deepEqual(Object.keys(op.responses['200'].content), ['text/plain; version=0.0.4']);
    assert.ok(op.responses['401']);
    assert.deepEqual(op.security, [{}, { metricsToken: [] }]);
    assert.equal(doc.components.securitySchemes.metricsToken.scheme, 'bearer');
  });
});

describe('readiness and request logs', () => {
  test('/readyz: ready with the database (and Redis when configured); degraded without Redis; 503 without the database', async () => {
    const t = await startApp();
    try {
      const r = await getJson(`${t.url}/readyz`);
      assert.equal(r.status, 200);
      assert.equal(r.body.status, 'ready');
      const expected = [{ name: 'database', ok: true }, ...(t.config.redisUrl ? [{ name: 'redis', ok: true }] : [])];
      assert.deepEqual(r.body.checks, expected);
      assert.deepEqual((await getJson(`${t.url}/healthz`)).body, { success: true, status: 'ok' });
    } finally {
      await t.close();
    }

    // Redis configured but unreachable: a port nothing listens on.
    const closed = await new Promise<number>((resolve) => {
      const s = net.createServer().listen(0, '127.0.0.1', () => {
        const { port } = s.address() as net.AddressInfo;
        s.close(() => resolve(port));
      });
    });
    const d = await startApp({ env: { REDIS_URL: `redis://127.0.0.1:${closed}` } });
    try {
      const r = await getJson(`${d.url}/readyz`);
      assert.equal(r.status, 200);
      assert.equal(r.body.status, 'degraded');
      assert.deepEqual(r.body.checks, [
        { name: 'database', ok: true },
        { name: 'redis', ok: false, error: 'unreachable' },
      ]);
    } finally {
      await d.close();
    }

    // The database gone (its connections closed under the running app).
    const g = await startApp();
    try {
      await g.store.close();
      g.store.close = async () => {};
      const r = await getJson(`${g.url}/readyz`);
      assert.equal(r.status, 503);
      assert.equal(r.body.success, false);
      assert.equal(r.body.status, 'not_ready');
      assert.deepEqual(r.body.checks[0], { name: 'database', ok: false, error: 'unreachable' });
    } finally {
      await g.close();
    }
  });

  test('every log line of a request carries its request id (the caller’s X-Request-Id when sane), never its key', async () => {
    const lines: string[] = [];
    const stream = new PassThrough();
    stream.on('data', (chunk) => lines.push(...String(chunk).split('\n').filter(Boolean)));
    // Request lines are logged at debug (docs/operations.md "Logs").
    const t = await startApp({ env: { LOG_LEVEL: 'debug' }, logStream: stream });
    try {
      const user = await createUser(t, 'pro');
      const r = await getJson(`${t.api}/vendor-list`, { headers: { ...user.headers, 'x-request-id': 'ops-test-0001' } });
      assert.equal(r.status, 200);
      assert.equal(r.headers.get('x-request-id'), 'ops-test-0001');
      const own = await getJson(`${t.api}/vendor-list`, { headers: { 'x-request-id': 'not a sane id!' } });
      const generated = own.headers.get('x-request-id')!;
      assert.match(generated, /^[0-9a-f-]{36}$/);
      await waitFor(() => lines.filter((l) => l.includes(generated)).length >= 2, { message: 'log lines of the second request', timeoutMs: 10_000 });
      const entries = lines.map((l) => JSON.parse(l));
      const first = entries.filter((e) => e.reqId === 'ops-test-0001');
      assert.deepEqual(
        first.map((e) => e.msg),
        ['incoming request', 'request completed'],
      );
      assert.equal(first[0].req.url, '/api/v1/infrastructure/vendor-list');
      assert.equal(first[1].res.statusCode, 200);
      assert.equal(entries.filter((e) => e.reqId === generated).length, 2);
      assert.ok(!lines.some((l) => l.includes(user.key)), 'the API key is not logged');
    } finally {
      await t.close();
    }
  });
});

describe('metrics cardinality', () => {
  let fleet: TestFleet;
  let t: TestApp;
  before(async () => {
    fleet = await startFleet(['github', 'cloudflare', 'openai'], { clock: { now: () => new Date() } });
    t = await startIngestApp(fleet, { env: { DELIVER: 'off' } });
  });
  after(async () => {
    await t?.close();
    await fleet?.close();
  });

  const series = (samples: Sample[], prefix: string) => samples.filter((x) => x.name.startsWith(prefix)).length;

  test('replaced sources add no series; a vendor that leaves the catalog loses its series', async () => {
    const move = async (round: number) => {
      const moved = fleet.catalog.map((v) => ({
        ...v,
        sources: v.sources.map((src) => ({ ...src, url: `${src.url}${src.url.includes('?') ? '&' : '?'}v=${round}` })),
      }));
      await loadCatalog(t.repos.vendors, moved, new Date());
      await t.app.ingest.roundInWorker({ force: true });
    };
    await t.app.ingest.roundInWorker({ force: true });
    // Every source gets a new URL (a new source id) and is polled again, twice.
    await move(1);
    const first = (await scrape(t)).samples;
    const polls = series(first, 'vis_ingest_polls_total');
    const durations = series(first, 'vis_ingest_poll_duration_seconds');
    assert.ok(sum(first, 'vis_ingest_polls_total', { vendor: 'cloudflare' })! > 0);
    assert.ok(polls <= 3 * 5, `at most vendors × results series (${polls})`);
    await move(2);
    const later = (await scrape(t)).samples;
    assert.equal(series(later, 'vis_ingest_polls_total'), polls, 'the same series, counting on');
    assert.equal(series(later, 'vis_ingest_poll_duration_seconds'), durations);
    assert.ok(sum(later, 'vis_ingest_polls_total')! > sum(first, 'vis_ingest_polls_total')!);

    // Cloudflare leaves the catalog: its series go at the next scrape.
    await loadCatalog(
      t.repos.vendors,
      fleet.catalog.filter((v) => v.slug !== 'cloudflare'),
      new Date(),
    );
    const gone = (await scrape(t)).samples;
    assert.equal(sum(gone, 'vis_ingest_polls_total', { vendor: 'cloudflare' }), undefined);
    assert.ok(sum(gone, 'vis_ingest_polls_total', { vendor: 'github' })! > 0);
  });
});
