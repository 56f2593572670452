import fs from 'node:fs';
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { PollOutcome } from '../../../src/ingest/scheduler.ts';
import { TestClock, startApp, type TestApp } from '../../helpers/app.ts';
import { niceInStat } from '../../helpers/thread-nice.ts';
import { api, sourceUrl, startFleet, startIngestApp, type TestFleet } from '../../helpers/fleet.ts';
import { waitFor } from '../../helpers/wait.ts';

// The scheduler against a real local HTTP server (the simulated fleet) where some
// sources hang, fail, send garbage, send 50 MB or drop the connection: every other
// source still ingests, and the failures show in sourceHealth and back off.

const MB = 1024 * 1024;

describe('scheduler with failing sources', () => {
  const clock = new TestClock(new Date('2026-03-02T10:00:00.000Z'));
  let fleet: TestFleet;
  let t: TestApp;
  let faulty: Record<string, string>;

  before(async () => {
    fleet = await startFleet(
      ['github', 'cloudflare', 'openai', 'google-cloud', 'perplexity', 'railway', 'linear', 'tailscale', 'hugging-face', 'microsoft-azure'],
      { clock, history: true, seed: 11 },
    );
    t = await startIngestApp(fleet, { clock });
    faulty = {
      hang: sourceUrl(fleet, 'github', '/summary.json'),
      status500: sourceUrl(fleet, 'cloudflare', '/summary.json'),
      garbage: sourceUrl(fleet, 'railway', '/summary.json'),
      huge: sourceUrl(fleet, 'google-cloud', '/incidents.json'),
      hugeDeclared: sourceUrl(fleet, 'perplexity', '/summary.json'),
      reset: sourceUrl(fleet, 'hugging-face', '/summary.json'),
      redirectLoop: sourceUrl(fleet, 'microsoft-azure', '/status/feed/'),
    };
  });
  after(async () => {
    await t.close();
    await fleet.close();
  });

  const byUrl = (outcomes: PollOutcome[], url: string) => outcomes.find((o) => o.url === url)!;

  test('a clean first round ingests every source', async () => {
    fleet.sim.fleet.openIncident('railway');
    const report = await t.app.ingest.scheduler.runRound({ force: true });
    assert.equal(
      report.outcomes.length,
      fleet.catalog.reduce((n, v) => n + v.sources.length, 0),
    );
    assert.deepEqual(
      report.outcomes.filter((o) => o.status === 'failed'),
      [],
    );
    // Railway's incidents are kept when its source turns bad later.
    assert.ok((await api(t, '/incidents?vendor=railway&timePeriod=30d')).body.total > 0);
  });

  test('hanging, failing, garbage, oversized and dropped sources do not stop the others', async () => {
    fleet.sim.setFault(faulty.hang!, { kind: 'hang' });
    fleet.sim.setFault(faulty.status500!, { kind: 'status', status: 500 });
    fleet.sim.setFault(faulty.garbage!, { kind: 'garbage' });
    fleet.sim.setFault(faulty.huge!, { kind: 'huge', bytes: 50 * MB });
    fleet.sim.setFault(faulty.hugeDeclared!, { kind: 'huge', bytes: 50 * MB, declareLength: true });
    fleet.sim.setFault(faulty.reset!, { kind: 'reset' });
    fleet.sim.setFault(faulty.redirectLoop!, { kind: 'redirect', location: faulty.redirectLoop! });
    // News on healthy vendors, to see them ingested in the same round.
    const gh = fleet.sim.fleet.openIncident('github', { impact: 'minor' });
    const li = fleet.sim.fleet.openIncident('linear', { impact: 'major' });
    fleet.sim.fleet.publishAdvisory('tailscale');
    clock.advance(60_000);

    const order: string[] = [];
    const report = await t.app.ingest.scheduler.runRound({ force: true, onResult: (o) => order.push(o.url) });
    const o = report.outcomes;

    assert.equal(byUrl(o, faulty.hang!).status, 'failed');
    assert.match(byUrl(o, faulty.hang!).error!, /timed out after 6000 ms/);
    assert.equal(byUrl(o, faulty.status500!).error, 'HTTP 500');
    assert.equal(byUrl(o, faulty.status500!).httpStatus, 500);
    assert.match(byUrl(o, faulty.garbage!).error!, /instatus: invalid JSON/);
    assert.match(byUrl(o, faulty.huge!).error!, /payload larger than 5242880 bytes/);
    assert.match(byUrl(o, faulty.hugeDeclared!).error!, /Content-Length 52428800/);
    assert.equal(byUrl(o, faulty.reset!).status, 'failed');
    assert.match(byUrl(o, faulty.redirectLoop!).error!, /more than 3 redirects/);

    const bad = new Set(Object.values(faulty));
    const healthy = o.filter((x) => !bad.has(x.url));
    assert.ok(healthy.length >= 8);
    for (const h of healthy) assert.ok(['updated', 'unchanged', 'not_modified'].includes(h.status), `${h.url}: ${h.status} ${h.error}`);
    // The hanging source finished last: nothing waited for it.
    assert.equal(order.at(-1), faulty.hang);

    // The changes of healthy sources arrived in the same round.
    assert.equal((await t.repos.incidents.get(gh.id))?.record.status, 'investigating');
    assert.equal((await t.repos.incidents.get(li.id))?.record.impact, 'major');
    // Railway's earlier records survive its garbage.
    assert.ok((await api(t, '/incidents?vendor=railway&timePeriod=30d')).body.total > 0);
  });

  test('sourceHealth shows the failure while other sources of the vendor keep succeeding', async () => {
    const cf = (await api(t, '/vendor-status/cloudflare')).body.items[0];
    assert.equal(cf.sourceHealth.lastError, 'HTTP 500');
    assert.ok(cf.sourceHealth.lastErrorAt);
    assert.ok(cf.sourceHealth.lastSuccessAt >= cf.sourceHealth.lastErrorAt, 'incidents.json still succeeded in the same round');
    const rw = (await api(t, '/vendor-status/railway')).body.items[0];
    assert.ok(rw.sourceHealth.lastErrorAt > rw.sourceHealth.lastSuccessAt, 'railway only has the broken source');
  });

  test('failures back off exponentially; a non-forced round skips sources that are not due', async () => {
    const rows = await t.repos.sources.list('cloudflare');
    const summary = rows.find((r) => r.url === faulty.status500)!;
    assert.equal(summary.consecutiveFailures, 1);
    const wait1 = Date.parse(summary.nextPollAt!) - Date.parse(summary.lastErrorAt!);
    assert.ok(wait1 >= 60_000 && wait1 <= 120_000, `first backoff ${wait1} ms within [interval, 2·interval]`);

    clock.advance(10_000);
    const notDue = await t.app.ingest.scheduler.runRound();
    assert.equal(notDue.outcomes.length, 0, 'nothing is due 10 s after a round');

    clock.advance(wait1);
    const due = await t.app.ingest.scheduler.runRound({ vendor: 'cloudflare' });
    assert.ok(due.outcomes.some((x) => x.url === faulty.status500));
    const again = (await t.repos.sources.list('cloudflare')).find((r) => r.url === faulty.status500)!;
    assert.equal(again.consecutiveFailures, 2);
    const wait2 = Date.parse(again.nextPollAt!) - Date.parse(again.lastErrorAt!);
    assert.ok(wait2 >= 120_000 && wait2 <= 240_000, `second backoff ${wait2} ms within [2·interval, 4·interval]`);
  });

  test('Retry-After is honoured, capped at an hour', async () => {
    fleet.sim.setFault(faulty.status500!, { kind: 'status', status: 503, retryAfter: 86_400 });
    clock.advance(60_000);
    await t.app.ingest.scheduler.runRound({ force: true, vendor: 'cloudflare' });
    const row = (await t.repos.sources.list('cloudflare')).find((r) => r.url === faulty.status500)!;
    assert.equal(row.lastError, 'HTTP 503');
    assert.equal(Date.parse(row.nextPollAt!) - Date.parse(row.lastErrorAt!), 3_600_000);
  });

  test('a source that recovers resets its failure count', async () => {
    fleet.sim.clearFaults();
    clock.advance(60_000);
    const report = await t.app.ingest.scheduler.runRound({ force: true });
    assert.deepEqual(
      report.outcomes.filter((o) => o.status === 'failed').map((o) => o.url),
      [],
    );
    const rows = await t.repos.sources.list();
    assert.deepEqual(
      rows.filter((r) => r.consecutiveFailures > 0).map((r) => r.url),
      [],
    );
  });
});

describe('leases', () => {
  const clock = new TestClock(new Date('2026-03-02T10:00:00.000Z'));
  let fleet: TestFleet;
  let a: TestApp;
  let b: TestApp;

  before(async () => {
    fleet = await startFleet(['github', 'perplexity'], { clock });
    a = await startIngestApp(fleet, { clock });
    b = await startApp({ clock, catalogFile: fleet.catalogFile, shareStoreWith: a, env: { INGEST_TIMEOUT_MS: '6000' } });
  });
  after(async () => {
    await b.close();
    await a.close();
    await fleet.close();
  });

  test('a source leased by another instance is not polled until the lease expires', async () => {
    const [src] = await a.repos.sources.list('perplexity');
    const held = await a.repos.sources.claimOne(src!.id, { owner: 'other-instance', now: clock.now(), leaseMs: 60_000 });
    assert.ok(held);
    const r1 = await b.app.ingest.scheduler.runRound({ force: true });
    const skipped = r1.outcomes.find((o) => o.sourceId === src!.id)!;
    assert.equal(skipped.status, 'skipped');
    assert.ok(r1.outcomes.filter((o) => o.vendor === 'github').every((o) => o.status === 'updated' || o.status === 'unchanged'));

    clock.advance(61_000); // the holder died: its lease runs out
    const r2 = await b.app.ingest.scheduler.runRound({ force: true, vendor: 'perplexity' });
    assert.ok(['updated', 'unchanged'].includes(r2.outcomes[0]!.status), r2.outcomes[0]!.error ?? '');
  });

  test('two instances racing over the same sources poll each exactly once', async () => {
    fleet.sim.fleet.openIncident('github');
    clock.advance(4 * 3_600_000); // every source is due, feeds included
    const [ra, rb] = await Promise.all([a.app.ingest.scheduler.runRound(), b.app.ingest.scheduler.runRound()]);
    const polled = [...ra.outcomes, ...rb.outcomes]
      .filter((o) => o.status !== 'skipped')
      .map((o) => o.sourceId)
      .sort();
    const all = (await a.repos.sources.list()).map((s) => s.id).sort();
    assert.deepEqual(polled, all);
    const created = (await a.repos.events.after(0, 100)).filter((e) => e.type === 'incident.created');
    assert.equal(created.length, 1);
  });

  test('a result arriving after the lease was taken over is discarded', async () => {
    const url = sourceUrl(fleet, 'perplexity', '/summary.json');
    fleet.sim.setFault(url, { kind: 'slow', delayMs: 1_500 });
    const inc = fleet.sim.fleet.openIncident('perplexity');
    clock.advance(120_000);
    const round = a.app.ingest.scheduler.runRound({ force: true, vendor: 'perplexity' });
    // Once this instance holds the lease (its request is now waiting on the slow page) ...
    const src = await waitFor(
      async () => {
        const row = (await a.repos.sources.list('perplexity'))[0]!;
        return row.leaseOwner ? row : undefined;
      },
      { message: 'the lease of the slow source', timeoutMs: 30_000, intervalMs: 10 },
    );
    // ... another instance takes the source over, the lease having (by its clock) expired.
    const stolen = await b.repos.sources.claimOne(src.id, { owner: 'thief', now: new Date(clock.now().getTime() + 3_600_000), leaseMs: 60_000 });
    assert.ok(stolen);
    const report = await round;
    assert.equal(report.outcomes[0]!.status, 'skipped');
    assert.match(report.outcomes[0]!.error!, /lease/);
    assert.equal(await a.repos.incidents.get(inc.id), null, 'nothing was written');
    fleet.sim.clearFaults();
  });
});

describe('the running scheduler', () => {
  const allPolled = async (t: TestApp, total: number) => {
    let done = 0;
    // The caller asserts the count, which says how many were polled.
    await waitFor(async () => (done = (await t.repos.sources.list()).filter((s) => s.lastSuccessAt).length) === total, {
      message: 'every source polled',
      timeoutMs: 60_000,
    }).catch(() => {});
    return done;
  };

  test('INGEST=live on this thread (INGEST_WORKER=false) polls every source on its own and stops cleanly', async () => {
    const fleet = await startFleet(['github', 'openai', 'tailscale'], { clock: { now: () => new Date() }, history: true });
    const t = await startIngestApp(fleet, { env: { INGEST: 'live', INGEST_WORKER: 'false' } });
    try {
      const total = fleet.catalog.reduce((n, v) => n + v.sources.length, 0);
      assert.equal(await allPolled(t, total), total);
      assert.ok(t.app.ingest.scheduler.running);
      const rows = await t.repos.sources.list();
      assert.ok(rows.every((r) => r.nextPollAt !== null));
    } finally {
      await t.close();
      await fleet.close();
    }
  });

  test('INGEST=live in the worker thread polls every source, and its events reach this thread’s bus', async () => {
    const fleet = await startFleet(['github', 'perplexity'], { clock: { now: () => new Date() }, history: true });
    const inc = fleet.sim.fleet.openIncident('perplexity');
    const t = await startIngestApp(fleet, { env: { INGEST: 'live', INGEST_WORKER: 'true', INGEST_WORKER_NICE: '10' } });
    const published: string[] = [];
    t.app.bus.subscribe((events) => published.push(...events.map((e) => `${e.type} ${e.entityId}`)));
    try {
      const total = fleet.catalog.reduce((n, v) => n + v.sources.length, 0);
      assert.equal(await allPolled(t, total), total);
      assert.equal(t.app.ingest.scheduler.running, false, 'the schedule runs in the worker, not here');
      if (fs.existsSync('/proc/thread-self')) {
        // The worker runs at INGEST_WORKER_NICE (10) above this thread (docs/ingestion.md "The API thread first").
        const own = niceInStat(fs.readFileSync('/proc/thread-self/stat', 'utf8'));
        const lowered = fs.readdirSync('/proc/self/task').filter((tid) => {
          try {
            return niceInStat(fs.readFileSync(`/proc/self/task/${tid}/stat`, 'utf8')) === Math.min(19, own + 10);
          } catch {
            return false;
          }
        });
        assert.equal(lowered.length, 1, 'one thread, the ingestion worker, runs at the lower priority');
      }
      await waitFor(() => published.includes(`incident.created ${inc.id}`), { message: 'the event on this bus', intervalMs: 20 }).catch(() => {});
      assert.ok(published.includes(`incident.created ${inc.id}`), published.join(', '));
    } finally {
      await t.close();
      await fleet.close();
    }
  });

  test('a round can run on the worker thread on request, with its events reaching this thread', async () => {
    const fleet = await startFleet(['github', 'perplexity'], { clock: { now: () => new Date() } });
    const inc = fleet.sim.fleet.openIncident('github');
    const t = await startIngestApp(fleet);
    const published: string[] = [];
    t.app.bus.subscribe((events) => published.push(...events.map((e) => e.entityId)));
    try {
      const report = await t.app.ingest.roundInWorker({ force: true });
      assert.equal(report.outcomes.length, 5);
      assert.deepEqual(
        report.outcomes.filter((o) => o.status === 'failed'),
        [],
      );
      assert.equal(report.events, 1);
      assert.ok(await t.repos.incidents.get(inc.id));
      await waitFor(() => published.length > 0, { message: 'the event on this bus', intervalMs: 20 }).catch(() => {});
      assert.deepEqual(published, [inc.id]);
    } finally {
      await t.close();
      await fleet.close();
    }
  });
});
