import { PUBLIC_AUDIENCE } from '../../../src/domain/audience.ts';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { PollOutcome, RoundReport } from '../../../src/ingest/scheduler.ts';
import { getJson, type TestApp } from '../../helpers/app.ts';
import { startFleet, startIngestApp, type TestFleet } from '../../helpers/fleet.ts';
import { sleep } from '../../helpers/wait.ts';
import { percentile } from './support.ts';

// Vendor pages that misbehave in the ways a real one can: no answer at all (no
// headers), a body trickling in past the poll deadline, 10 MB (over INGEST_MAX_BYTES),
// bytes that are not UTF-8. Each sits behind a small proxy in front of the simulated
// fleet, so it first serves its real page and then turns bad. The round runs on the
// ingestion worker thread (as the schedule does) while the API is called: every bad
// poll fails on its own with the reason in sourceHealth, the vendor keeps its previous
// snapshot, the healthy sources of the same round are ingested, the API keeps answering.
// Error statuses, garbage, resets, redirect loops and 50 MB bodies are covered by
// test/integration/ingest/scheduler.test.ts, the fetcher's limits by test/system/ingest/fetch.test.ts.

const MB = 1024 * 1024;
const TIMEOUT_MS = 3_000;
type Mode = 'pass' | 'hang' | 'trickle' | 'huge' | 'bad-utf8';

/** Serves the simulator's pages, or misbehaves per path. */
async function startProxy(target: string) {
  const modes = new Map<string, Mode>();
  const served = new Map<string, number>();
  const sockets = new Set<import('node:net').Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const upstream = (req: http.IncomingMessage, headers: http.OutgoingHttpHeaders) =>
    new Promise<http.IncomingMessage>((resolve, reject) => {
      http.get(`${target}${req.url}`, { headers }, resolve).on('error', reject);
    });
  const server = http.createServer(async (req, res) => {
    const p = new URL(req.url!, 'http://x').pathname;
    served.set(p, (served.get(p) ?? 0) + 1);
    switch (modes.get(p) ?? 'pass') {
      case 'hang':
        return; // accepted, never a header
      case 'trickle': {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"page":{"id":"x","name":"');
        const timer = setInterval(() => res.write('a'), 100);
        timers.add(timer);
        res.on('close', () => {
          clearInterval(timer);
          timers.delete(timer);
        });
        return;
      }
      case 'huge': {
        res.writeHead(200, { 'content-type': 'application/json' });
        const chunk = Buffer.alloc(64 * 1024, 0x20);
        let left = 10 * MB;
        const pump = () => {
          while (left > 0) {
            left -= chunk.length;
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
          res.end();
        };
        res.on('close', () => (left = 0));
        return pump();
      }
      case 'bad-utf8': {
        // The real page, with two bytes that are not UTF-8 inside its first string.
        const up = await upstream(req, { accept: String(req.headers.accept ?? '*/*') });
        const chunks: Buffer[] = [];
        for await (const c of up) chunks.push(c as Buffer);
        const body = Buffer.concat(chunks);
        const at = body.indexOf('":"') + 3;
        const bad = Buffer.concat([body.subarray(0, at), Buffer.from([0xc3, 0x28, 0xff]), body.subarray(at)]);
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': bad.length });
        return res.end(bad);
      }
      default: {
        const headers: http.OutgoingHttpHeaders = {};
        for (const h of ['accept', 'accept-encoding', 'if-none-match', 'if-modified-since']) if (req.headers[h]) headers[h] = req.headers[h];
        const up = await upstream(req, headers);
        res.writeHead(up.statusCode!, up.headers);
        up.pipe(res);
      }
    }
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    modes,
    served,
    async close() {
      for (const t of timers) clearInterval(t);
      for (const s of sockets) s.destroy();
      await new Promise((r) => server.close(r));
    },
  };
}

describe('upstream pages that hang, trickle, are huge or are not UTF-8', () => {
  const BAD: Record<string, Mode> = { openai: 'hang', cohere: 'trickle', railway: 'huge', perplexity: 'bad-utf8' };
  const HEALTHY = ['github', 'docker', 'planetscale'];
  let fleet: TestFleet;
  let proxy: Awaited<ReturnType<typeof startProxy>>;
  let t: TestApp;
  let dir: string;
  const before1 = new Map<string, { incidents: string[]; status: any }>();
  const openIds = new Map<string, string>();

  before(async () => {
    fleet = await startFleet([...Object.keys(BAD), ...HEALTHY], { clock: { now: () => new Date() }, history: true, seed: 7 });
    proxy = await startProxy(fleet.sim.url);
    // The bad vendors' only source goes through the proxy.
    const catalog = fleet.catalog.map((v) =>
      BAD[v.slug] ? { ...v, sources: v.sources.map((s) => ({ ...s, url: s.url.replace(fleet.sim.url, proxy.url) })) } : v,
    );
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vis-upstreams-'));
    const catalogFile = path.join(dir, 'vendors.json');
    fs.writeFileSync(catalogFile, JSON.stringify(catalog));
    for (const slug of Object.keys(BAD)) openIds.set(slug, fleet.sim.fleet.openIncident(slug, { impact: 'major' }).id);
    t = await startIngestApp({ ...fleet, catalogFile }, { env: { INGEST_TIMEOUT_MS: String(TIMEOUT_MS) } });
  });
  after(async () => {
    await t?.close();
    await proxy?.close();
    await fleet?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  const urlOf = async (slug: string) => (await t.repos.sources.list(slug))[0]!.url;
  const snapshot = async (slug: string) => ({
    incidents: (await getJson(`${t.api}/incidents?vendor=${slug}&timePeriod=30d&limit=100&skipCache=true`)).body.items
      .map((i: any) => `${i.id} ${i.status}`)
      .sort(),
    status: await t.app.services.status.vendorStatus(slug, PUBLIC_AUDIENCE).then((v) => ({
      indicator: v.indicator,
      description: v.description,
      components: v.components,
      active: v.activeIncidents.map((i) => i.id),
      checkedAt: v.checkedAt,
    })),
  });

  test('first round: every page is healthy and ingested', async () => {
    const report = await t.app.ingest.roundInWorker({ force: true });
    assert.deepEqual(
      report.outcomes.filter((o) => o.status === 'failed').map((o) => `${o.url}: ${o.error}`),
      [],
    );
    for (const slug of Object.keys(BAD)) {
      const s = await snapshot(slug);
      assert.ok(
        s.incidents.some((i: string) => i.startsWith(`${openIds.get(slug)} `)),
        `${slug} has its open incident`,
      );
      assert.ok(s.status.active.includes(openIds.get(slug)!), `${slug} shows it as active`);
      before1.set(slug, s);
    }
  });

  test('bad pages fail one by one, within the deadline, while the rest is ingested and the API answers', async (ctx) => {
    for (const [slug, mode] of Object.entries(BAD)) proxy.modes.set(new URL(await urlOf(slug)).pathname, mode);
    const fresh = HEALTHY.map((slug) => fleet.sim.fleet.openIncident(slug, { impact: 'minor' }));

    // The API is called all through the round.
    const api: { status: number; ms: number }[] = [];
    let polling = true;
    const caller = (async () => {
      for (let i = 0; polling; i++) {
        const t0 = performance.now();
        const r = await getJson(`${t.api}/${i % 2 ? 'incidents?skipCache=true&limit=20' : 'vendor-status/github'}`);
        api.push({ status: r.status, ms: performance.now() - t0 });
        await sleep(20);
      }
    })();
    const t0 = performance.now();
    let report: RoundReport;
    try {
      report = await t.app.ingest.roundInWorker({ force: true });
    } finally {
      polling = false;
      await caller;
    }
    const roundMs = performance.now() - t0;
    const byVendor = (slug: string) => report.outcomes.find((o) => o.vendor === slug)!;
    const failed = (slug: string): PollOutcome => {
      const o = byVendor(slug);
      assert.equal(o.status, 'failed', `${slug}: ${o.status}`);
      return o;
    };

    assert.equal(failed('openai').error, `timed out after ${TIMEOUT_MS} ms`);
    assert.equal(failed('cohere').error, `timed out after ${TIMEOUT_MS} ms`);
    assert.equal(failed('railway').error, 'payload larger than 5242880 bytes');
    assert.match(failed('perplexity').error!, /^instatus: body is not valid UTF-8/);
    for (const slug of Object.keys(BAD)) assert.ok(proxy.served.get(new URL(await urlOf(slug)).pathname)! >= 2, `${slug} was asked twice`);
    // A poll that hangs costs its own slot for the deadline, not the round much more.
    assert.ok(roundMs < TIMEOUT_MS + 5_000, `round took ${Math.round(roundMs)} ms`);

    // Every healthy source was polled in the same round, and its news arrived.
    for (const o of report.outcomes.filter((x) => HEALTHY.includes(x.vendor))) {
      assert.ok(['updated', 'unchanged', 'not_modified'].includes(o.status), `${o.url}: ${o.status} ${o.error}`);
    }
    for (const inc of fresh) assert.equal((await t.repos.incidents.get(inc.id))?.record.status, 'investigating');

    // The API kept answering.
    assert.ok(api.length >= 10, `${api.length} API calls during the round`);
    assert.deepEqual([...new Set(api.map((a) => a.status))], [200]);
    const p99 = percentile(
      api.map((a) => a.ms),
      99,
    );
    assert.ok(p99 < 2_000, `API p99 ${Math.round(p99)} ms during the round`);
    ctx.diagnostic(
      `upstreams: round with 4 bad pages took ${Math.round(roundMs)} ms (deadline ${TIMEOUT_MS} ms); ` +
        `${api.length} API calls meanwhile, p50 ${Math.round(
          percentile(
            api.map((a) => a.ms),
            50,
          ),
        )} ms, p99 ${Math.round(p99)} ms`,
    );
  });

  test('each bad vendor shows its error in sourceHealth and keeps its previous snapshot', async () => {
    const expected: Record<string, RegExp> = {
      openai: /^timed out after/,
      cohere: /^timed out after/,
      railway: /^payload larger than/,
      perplexity: /not valid UTF-8/,
    };
    for (const slug of Object.keys(BAD)) {
      // What /vendor-status computes (its answers are cached for 30 s, so ask the service).
      const v = await t.app.services.status.vendorStatus(slug, PUBLIC_AUDIENCE);
      assert.match(v.sourceHealth.lastError ?? '', expected[slug]!, slug);
      assert.ok(v.sourceHealth.lastErrorAt! > v.sourceHealth.lastSuccessAt!, `${slug}: the error is newer than the last success`);
      // Nothing was resolved, removed or changed by a poll that failed.
      assert.deepEqual(await snapshot(slug), before1.get(slug), slug);
      const [row] = await t.repos.sources.list(slug);
      assert.equal(row!.consecutiveFailures, 1);
      assert.equal(row!.leaseOwner, null, 'the lease was given back');
    }
  });

  test('when the pages are good again the next round succeeds everywhere', async () => {
    proxy.modes.clear();
    const report = await t.app.ingest.roundInWorker({ force: true });
    assert.deepEqual(
      report.outcomes.filter((o) => o.status === 'failed').map((o) => `${o.url}: ${o.error}`),
      [],
    );
    const rows = await t.repos.sources.list();
    assert.deepEqual(
      rows.filter((r) => r.consecutiveFailures > 0).map((r) => r.url),
      [],
    );
  });
});
