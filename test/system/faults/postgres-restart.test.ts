// @store-independent: always a PostgreSQL server of its own; runs in one CI leg only (docs/testing.md, "Tiers").
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { getJson, type TestApp } from '../../helpers/app.ts';
import { readCatalog } from '../../../src/services/vendors/catalog-loader.ts';
import { startFleet, startIngestApp, type TestFleet } from '../../helpers/fleet.ts';
import { createThrowawayPg, type ThrowawayPg } from '../../helpers/throwaway-pg.ts';
import { createUser, send, type TestUser } from '../../helpers/users.ts';
import { sleep, waitFor } from '../../helpers/wait.ts';
import { assertUnavailable, percentile } from './support.ts';

// PostgreSQL stopped and started again under traffic (a server of the test's own; both
// CI legs run this). While it is down every request that needs it answers 503 with the
// error body at once, /readyz says not ready, /healthz stays 200; when it is back the
// same process serves again, and every write that was answered 200 is there. The
// process also polls a simulated fleet (INGEST=live, in its worker thread): polling
// resumes by itself, and an incident opened during the outage arrives with its event.

const WORKERS = 4;
/** DATABASE_QUERY_TIMEOUT_MS of the app (30 s by default; short here to keep the frozen case quick). */
const QUERY_TIMEOUT_MS = 3_000;
/** The pool's connect timeout (src/store/db.ts). */
const CONNECT_TIMEOUT_MS = 5_000;
const USERS_PER_WORKER = 6;

interface Sample {
  phase: string;
  kind: 'read' | 'write' | 'user-read';
  status: number;
  ms: number;
  startedAt: number;
  r: { status: number; headers: Headers; body: any };
}

describe('PostgreSQL stopped and restarted under traffic', () => {
  let pg: ThrowawayPg;
  let fleet: TestFleet;
  let t: TestApp;
  let slugs: string[];
  const users: TestUser[][] = [];
  /** user id → vendors whose add was answered 200. */
  const accepted = new Map<string, Set<string>>();
  const samples: Sample[] = [];
  let phase = 'up';
  let traffic: Promise<void>[] = [];
  let running = false;
  /** When the last outage was seen to be over (every kind of request succeeded again). */
  let recoveredAt = 0;

  before(async () => {
    pg = await createThrowawayPg();
    fleet = await startFleet(['github', 'perplexity'], { clock: { now: () => new Date() } });
    // Every catalog vendor (for the watchlist writes), only the fleet's polled.
    const catalogFile = path.join(path.dirname(fleet.catalogFile), 'all-vendors.json');
    const polled = new Map(fleet.catalog.map((v) => [v.slug, v]));
    fs.writeFileSync(catalogFile, JSON.stringify(readCatalog().map((v) => polled.get(v.slug) ?? { ...v, sources: [] })));
    t = await startIngestApp(
      { ...fleet, catalogFile },
      {
        env: {
          DATABASE_URL: pg.url,
          DATABASE_SCHEMA: 'faults',
          DATABASE_QUERY_TIMEOUT_MS: String(QUERY_TIMEOUT_MS),
          INGEST: 'live',
          POLL_INTERVAL_SECONDS: '5',
          INGEST_TIMEOUT_MS: '1000',
        },
      },
    );
    slugs = (await getJson(`${t.api}/vendor-list`)).body.vendors.map((v: { id: string }) => v.id);
    for (let w = 0; w < WORKERS; w++) {
      users.push([]);
      for (let i = 0; i < USERS_PER_WORKER; i++) {
        const u = await createUser(t, 'pro');
        users[w]!.push(u);
        accepted.set(u.id, new Set());
      }
    }
  });
  after(async () => {
    running = false;
    await Promise.allSettled(traffic);
    try {
      // The app drops its schema on close: the server must be up (and not frozen) for that.
      pg?.thaw();
      if (pg && !pg.running) await pg.start();
      await t?.close();
    } finally {
      // Whatever failed above, the server and the fleet go.
      await pg?.close();
      await fleet?.close();
    }
  });

  /** One worker: an uncached public read, an add to its user's watchlist, the user's watchlist; again and again. */
  async function worker(w: number) {
    let user = 0;
    let next = 0;
    const timed = async (kind: Sample['kind'], call: () => Promise<Sample['r']>) => {
      const startedAt = performance.now();
      const p = phase;
      const r = await call();
      samples.push({ phase: p, kind, status: r.status, ms: performance.now() - startedAt, startedAt, r });
      return r;
    };
    while (running) {
      await timed('read', () => getJson(`${t.api}/incidents?skipCache=true&limit=5`));
      const u = users[w]![user]!;
      const vendor = slugs[next]!;
      const r = await timed('write', () => send(`${t.api}/watchlist/${vendor}`, 'POST', u.headers));
      if (r.status === 200) accepted.get(u.id)!.add(vendor);
      if (++next === slugs.length) {
        next = 0;
        user = (user + 1) % USERS_PER_WORKER;
      }
      await timed('user-read', () => getJson(`${t.api}/watchlist`, { headers: u.headers }));
      await sleep(10);
    }
  }

  const answeredSince = (since: number, kind: Sample['kind'], status: number) =>
    samples.some((s) => s.startedAt >= since && s.kind === kind && s.status === status);

  /** Stops the server, checks the outage, starts it, and returns the figures of this cycle. */
  async function outage(mode: 'fast' | 'immediate', whileDown?: () => string) {
    phase = `stopping (${mode})`;
    const stopAt = performance.now();
    await pg.stop(mode);
    const stopped = performance.now();
    phase = `down (${mode})`;
    // Every kind of request that needs the database is refused promptly.
    for (const kind of ['read', 'write', 'user-read'] as const) {
      await waitFor(() => answeredSince(stopped, kind, 503), { message: `a 503 to a ${kind} after the stop`, timeoutMs: 10_000, retryErrors: true });
    }
    const firstRefusal = samples.find((s) => s.startedAt >= stopAt && s.status === 503)!;
    const health = await getJson(`${t.url}/healthz`);
    assert.equal(health.status, 200, 'liveness does not depend on the database');
    const ready = await getJson(`${t.url}/readyz`);
    assert.equal(ready.status, 503);
    assert.equal(ready.body.status, 'not_ready');
    assert.deepEqual(
      ready.body.checks.find((c: any) => c.name === 'database'),
      { name: 'database', ok: false, error: 'unreachable' },
    );
    // The web pages say the same in HTML.
    const page = await fetch(`${t.url}/vendors/github`);
    assert.equal(page.status, 503);
    assert.match(page.headers.get('content-type') ?? '', /text\/html/);
    assert.match(await page.text(), /Temporarily unavailable/);
    const news = whileDown?.();
    await sleep(1_000);

    phase = `starting (${mode})`;
    await pg.start();
    const started = performance.now();
    phase = `back (${mode})`;
    // No restart of the app: its pool makes new connections by itself.
    await waitFor(() => (['read', 'write', 'user-read'] as const).every((k) => answeredSince(started, k, 200)), {
      message: 'every kind of request to succeed again',
      timeoutMs: 20_000,
      retryErrors: true,
    });
    recoveredAt = performance.now();
    const recoveryMs = Math.round(recoveredAt - started);
    assert.equal((await getJson(`${t.url}/readyz`)).status, 200);
    // Polling goes on by itself; news from the outage arrives, announced once. (A source whose
    // poll was cut by the stop keeps its lease, 33 s here, and is polled after it.)
    let pollResumedMs: number | null = null;
    if (news) {
      const back = new Date().toISOString();
      const waitingSince = performance.now();
      await waitFor(async () => (await t.repos.sources.list()).some((x) => (x.lastSuccessAt ?? '') > back), {
        message: 'a poll stored after the restart',
        timeoutMs: 45_000,
        intervalMs: 200,
        retryErrors: true,
      });
      pollResumedMs = Math.round(performance.now() - waitingSince);
      await waitFor(async () => (await t.repos.incidents.get(news)) !== null, {
        message: 'the incident opened during the outage',
        timeoutMs: 45_000,
        intervalMs: 200,
        retryErrors: true,
      });
      const events = await t.repos.events.after(0, 10_000);
      assert.deepEqual(
        events.filter((e) => e.entityId === news).map((e) => e.type),
        ['incident.created'],
      );
    }
    const during = samples.filter((s) => s.startedAt >= stopped && s.startedAt < started);
    return {
      firstRefusalMs: Math.round(firstRefusal.startedAt + firstRefusal.ms - stopAt),
      recoveryMs,
      downRequests: during.length,
      downP99Ms: Math.round(
        percentile(
          during.map((s) => s.ms),
          99,
        ),
      ),
      pollResumedMs,
    };
  }

  test('503 while it is down, served again when it is back, no write answered 200 is lost', async (ctx) => {
    running = true;
    traffic = Array.from({ length: WORKERS }, (_, w) => worker(w));
    await waitFor(() => samples.filter((s) => s.status === 200).length >= 30, { message: 'traffic flowing', timeoutMs: 20_000, retryErrors: true });

    await waitFor(async () => (await t.repos.sources.list()).every((x) => x.lastSuccessAt !== null), {
      message: 'a first round of polls',
      timeoutMs: 20_000,
      retryErrors: true,
    });
    const fast = await outage('fast', () => fleet.sim.fleet.openIncident('github', { impact: 'major' }).id);
    const crash = await outage('immediate');
    await sleep(500);
    running = false;
    await Promise.all(traffic);

    // Only two answers exist: 200, or 503 with the error body. No 500, no hang.
    const other = samples.filter((s) => s.status !== 200 && s.status !== 503);
    assert.deepEqual(
      other.map((s) => `${s.phase} ${s.kind} ${s.status} ${JSON.stringify(s.r.body)}`),
      [],
    );
    for (const s of samples.filter((x) => x.status === 503)) assertUnavailable(s.r, `${s.phase} ${s.kind}`);
    const slowest = Math.max(...samples.map((s) => s.ms));
    assert.ok(slowest < 10_000, `slowest answer ${Math.round(slowest)} ms`);
    // Requests started while the server was down did not succeed by accident, and were all refused.
    for (const mode of ['fast', 'immediate']) {
      const down = samples.filter((s) => s.phase === `down (${mode})`);
      assert.ok(down.length > 0);
      assert.deepEqual([...new Set(down.map((s) => s.status))], [503], `down (${mode})`);
    }
    // After the last recovery everything succeeds.
    const tail = samples.filter((s) => s.startedAt > recoveredAt);
    assert.ok(tail.length > 0);
    assert.deepEqual(
      [...new Set(tail.map((s) => `${s.kind} ${s.status}`))].filter((x) => !x.endsWith(' 200')),
      [],
    );

    // Nothing accepted is lost: every add answered 200 is in the user's watchlist.
    let acceptedAdds = 0;
    for (const list of users) {
      for (const u of list) {
        const want = accepted.get(u.id)!;
        acceptedAdds += want.size;
        const have = new Set<string>((await getJson(`${t.api}/watchlist`, { headers: u.headers })).body.vendors);
        for (const v of want) assert.ok(have.has(v), `${u.email}: ${v} was accepted and is missing`);
      }
    }
    assert.ok(acceptedAdds > 0);

    const count = (s: number) => samples.filter((x) => x.status === s).length;
    ctx.diagnostic(
      `postgres: ${samples.length} requests (${count(200)} × 200, ${count(503)} × 503), ${acceptedAdds} accepted writes kept; ` +
        `fast stop: first 503 ${fast.firstRefusalMs} ms after the stop began, ${fast.downRequests} requests while down (p99 ${fast.downP99Ms} ms), ` +
        `recovered ${fast.recoveryMs} ms after start, a poll stored ${fast.pollResumedMs} ms after that; immediate stop: first 503 ${crash.firstRefusalMs} ms, ` +
        `p99 while down ${crash.downP99Ms} ms, recovered ${crash.recoveryMs} ms after start; slowest answer ${Math.round(slowest)} ms`,
    );
  });

  test('frozen (SIGSTOP): every request answers 503 within the deadlines, and all is well after SIGCONT', { timeout: 40_000 }, async (ctx) => {
    const u = users[0]![0]!;
    const calls: [Sample['kind'] | 'readyz', () => Promise<Sample['r']>][] = [];
    // More requests at once than the pool has connections (10).
    for (let i = 0; i < 4; i++) {
      calls.push(['read', () => getJson(`${t.api}/incidents?skipCache=true&limit=${i + 1}`)]);
      calls.push(['write', () => send(`${t.api}/watchlist/${slugs[i]}`, 'DELETE', u.headers)]);
      calls.push(['user-read', () => getJson(`${t.api}/watchlist`, { headers: u.headers })]);
    }
    calls.push(['readyz', () => getJson(`${t.url}/readyz`)]);
    pg.freeze();
    const t0 = performance.now();
    let answers: { kind: string; r: Sample['r']; ms: number }[];
    let healthMs: number;
    try {
      const health = getJson(`${t.url}/healthz`).then((r) => {
        healthMs = performance.now() - t0;
        return r;
      });
      answers = await Promise.all(calls.map(async ([kind, call]) => ({ kind, r: await call(), ms: performance.now() - t0 })));
      assert.equal((await health).status, 200);
    } finally {
      pg.thaw();
    }
    for (const a of answers) {
      if (a.kind === 'readyz') assert.equal(a.r.status, 503);
      else assertUnavailable(a.r, `${a.kind} while frozen`);
    }
    // One wait for a connection or one statement's deadline; a GET with an API key waits twice
    // (the server-level cache hot path authenticates, fails, and the full pipeline tries again).
    const slowest = Math.max(...answers.map((a) => a.ms));
    assert.ok(slowest < 2 * Math.max(QUERY_TIMEOUT_MS, CONNECT_TIMEOUT_MS) + 2_000, `slowest answer ${Math.round(slowest)} ms`);
    assert.ok(healthMs! < 1_000, `liveness answered in ${Math.round(healthMs!)} ms`);

    const t1 = performance.now();
    await waitFor(
      async () => {
        const rs = await Promise.all(calls.map(([, call]) => call()));
        return rs.every((r) => r.status === 200);
      },
      { message: 'requests to succeed after SIGCONT', timeoutMs: 20_000, retryErrors: true },
    );
    const recoveredMs = Math.round(performance.now() - t1);
    const fastest = Math.min(...answers.map((a) => a.ms));
    const slowestOf = (k: string) => Math.round(Math.max(...answers.filter((a) => a.kind === k).map((a) => a.ms)));
    ctx.diagnostic(
      `postgres frozen: ${answers.length} requests answered 503 in ${Math.round(fastest)}–${Math.round(slowest)} ms ` +
        `(slowest read ${slowestOf('read')}, write ${slowestOf('write')}, keyed GET ${slowestOf('user-read')}, readyz ${slowestOf('readyz')} ms) ` +
        `(statement deadline ${QUERY_TIMEOUT_MS} ms, connect timeout ${CONNECT_TIMEOUT_MS} ms); served again ${recoveredMs} ms after SIGCONT`,
    );
  });
});
