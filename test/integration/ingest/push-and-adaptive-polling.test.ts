import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import parsePrometheus from 'parse-prometheus-text-format';
import { TestClock, type TestApp } from '../../helpers/app.ts';
import { startFleet, startIngestApp, type TestFleet } from '../../helpers/fleet.ts';

// Adaptive polling and vendor push (docs/ingestion.md "Adaptive polling", "Push from
// vendors") against the simulated fleet on loopback: real HTTP, real adapters, the store.

const statuspageWebhook = JSON.stringify({
  meta: {
    unsubscribe: 'https://example.statuspage.io/?unsubscribe=x',
    documentation: 'https://doers.statuspage.io/customer-notifications/webhooks/',
    generated_at: '2026-11-29T12:00:00Z',
  },
  page: { id: 'p', status_indicator: 'minor', status_description: 'Minor Service Outage' },
  component_update: {
    id: 'cu',
    component_id: 'c',
    old_status: 'operational',
    new_status: 'degraded_performance',
    created_at: '2026-11-29T12:00:00Z',
    component_type: 'Component',
  },
  component: { id: 'c', page_id: 'p', group_id: null, name: 'API', status: 'degraded_performance' },
});

describe('adaptive polling and vendor push', () => {
  const clock = new TestClock(new Date('2026-11-29T12:00:00.000Z'));
  let fleet: TestFleet;
  let t: TestApp;
  const row = async (vendor: string) => (await t.repos.sources.list(vendor))[0]!;
  const push = (token: string, body = statuspageWebhook, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
    fetch(`${t.url}/api/v1/push/${token}`, { method: 'POST', headers, body });

  before(async () => {
    fleet = await startFleet(['railway', 'openai'], { clock });
    t = await startIngestApp(fleet, { clock });
    await t.app.ingest.scheduler.runRound({ force: true });
  });
  after(async () => {
    await t?.close();
    await fleet?.close();
  });

  test('an open incident polls its vendor four times as often; a quiet one is polled at its interval, then slower', async () => {
    const quiet = await row('openai');
    assert.deepEqual([quiet.hot, quiet.scheduleSeconds, quiet.scheduleReason], [false, 60, 'default']);

    fleet.sim.fleet.openIncident('railway', { impact: 'major' });
    // Past the first interval and its +10 % jitter.
    clock.advance(67_000);
    await t.app.ingest.scheduler.runRound();
    const hot = await row('railway');
    assert.deepEqual([hot.hot, hot.scheduleSeconds, hot.scheduleReason], [true, 15, 'open incident']);
    const wait = Date.parse(hot.nextPollAt!) - clock.now().getTime();
    assert.ok(wait >= 13_500 && wait <= 16_500, `next poll in ${wait} ms`);

    // openai answers 304 round after round: after five it counts as quiet.
    for (let i = 0; i < 5; i++) {
      clock.advance(200_000);
      await t.app.ingest.scheduler.runRound({ vendor: 'openai' });
    }
    const slow = await row('openai');
    assert.ok(slow.quietPolls >= 5, `${slow.quietPolls} answers 304 in a row`);
    assert.deepEqual([slow.scheduleSeconds, slow.scheduleReason], [72, 'quiet']);

    // The schedule shows in the sources CLI's JSON (same rows).
    assert.equal(typeof slow.scheduleSeconds, 'number');
  });

  test('a push makes the vendor due now: the next round polls it and reads the change', async () => {
    const { token, path, hook } = await t.app.services.push.create('openai');
    assert.match(token, /^vpush_[A-Za-z0-9_-]{43}$/);
    assert.equal(path, `/api/v1/push/${token}`);
    // The token is kept only as its digest.
    const stored = await t.store.db.selectFrom('push_hooks').selectAll().where('id', '=', hook.id).executeTakeFirstOrThrow();
    assert.notEqual(stored.token_hash, token);
    assert.ok(!JSON.stringify(stored).includes(token.slice(6)));

    // Polled lately and quiet: not due for a while.
    clock.advance(60_000);
    const inc = fleet.sim.fleet.openIncident('openai', { impact: 'minor', title: 'Elevated errors on the Responses API' });
    const notDue = await t.app.ingest.scheduler.runRound({ vendor: 'openai' });
    assert.equal(notDue.outcomes.length, 0, 'not due without the push');

    const res = await push(token);
    assert.equal(res.status, 202);
    assert.deepEqual(await res.json(), { success: true });
    const requests = fleet.sim.stats.requests;
    const round = await t.app.ingest.scheduler.runRound({ vendor: 'openai' });
    assert.equal(round.outcomes.length, 1);
    assert.equal(round.outcomes[0]!.status, 'updated');
    assert.equal(fleet.sim.stats.requests, requests + 1);
    assert.equal((await t.repos.incidents.get(inc.id))?.record.title, 'Elevated errors on the Responses API');
    const [listed] = await t.app.services.push.list('openai');
    assert.equal(listed!.pushes, 1);
  });

  test('forged, malformed and replayed pushes cost at most one poll and change nothing', async () => {
    const { token } = await t.app.services.push.create('railway');
    const before = fleet.sim.stats.requests;
    // Unknown tokens: 404 with the error body; malformed ones 400.
    const forged = await push(`vpush_${'A'.repeat(43)}`);
    assert.equal(forged.status, 404);
    assert.equal((await forged.json()).success, false);
    for (const bad of ['vpush_short', `${'x'.repeat(49)}`, `vpush_${'A'.repeat(42)}%00`, `vpush_${'A'.repeat(42)}%0A`]) {
      const r = await push(bad);
      assert.equal(r.status, 400, bad);
    }
    // Not JSON at all, or too large: refused before anything else.
    assert.equal((await push(token, '<xml/>', { 'content-type': 'application/xml' })).status, 415);
    assert.equal((await push(token, `{"a":"${'x'.repeat(1_100_000)}"}`)).status, 413);
    // Twenty replays in a burst: one poll.
    clock.advance(60_000);
    await t.app.ingest.scheduler.runRound({ vendor: 'railway' });
    const polled = fleet.sim.stats.requests;
    const answers = await Promise.all(Array.from({ length: 20 }, () => push(token)));
    assert.deepEqual([...new Set(answers.map((a) => a.status))], [202]);
    const first = await t.app.ingest.scheduler.runRound({ vendor: 'railway' });
    // Polled within 5 s of its previous poll it waits for the gap: nothing yet.
    assert.equal(first.outcomes.length, 0);
    clock.advance(10_000);
    const second = await t.app.ingest.scheduler.runRound({ vendor: 'railway' });
    assert.equal(second.outcomes.length, 1);
    clock.advance(1_000);
    assert.equal((await t.app.ingest.scheduler.runRound({ vendor: 'railway' })).outcomes.length, 0);
    assert.equal(fleet.sim.stats.requests, polled + 1);
    assert.ok(fleet.sim.stats.requests - before <= 2);
  });

  test('a push during a poll is followed by another poll 5 s after that one started', async () => {
    const { token } = await t.app.services.push.create('openai');
    clock.advance(300_000);
    const started = clock.now().getTime();
    const source = (await row('openai')).url;
    // The page answers slowly; the push arrives while the poll waits for it.
    fleet.sim.setFault(source, { kind: 'slow', delayMs: 400 });
    try {
      const round = t.app.ingest.scheduler.runRound({ vendor: 'openai' });
      await new Promise((r) => setTimeout(r, 150));
      clock.advance(2_000);
      assert.equal((await push(token)).status, 202);
      await round;
    } finally {
      fleet.sim.setFault(source, null);
    }
    const r = await row('openai');
    assert.equal(new Date(Date.parse(r.nextPollAt!)).toISOString(), new Date(started + 5_000).toISOString());
    // Without a push after its start, a poll keeps its own schedule.
    clock.advance(10_000);
    await t.app.ingest.scheduler.runRound({ vendor: 'openai' });
    assert.ok(Date.parse((await row('openai')).nextPollAt!) - clock.now().getTime() >= 13_000);
  });

  test('the freshness of each change shows on /metrics by kind and trigger: vendor publication to our record', async () => {
    const { token } = await t.app.services.push.create('railway');
    clock.advance(600_000);
    // Found by the schedule, seven seconds after the vendor published it.
    fleet.sim.fleet.openIncident('openai', { impact: 'minor' });
    clock.advance(7_000);
    await t.app.ingest.scheduler.runRound({ vendor: 'openai', force: true });
    // Pushed by the vendor two seconds after publishing; the push makes the source due.
    fleet.sim.fleet.openIncident('railway', { impact: 'minor' });
    clock.advance(2_000);
    assert.equal((await push(token)).status, 202);
    await t.app.ingest.scheduler.runRound({ vendor: 'railway' });

    const text = await (await fetch(`${t.url}/metrics`)).text();
    // The parser reads the exposition format; it folds a histogram's labelled series into one,
    // so the series are read from their sample lines.
    assert.equal(parsePrometheus(text).find((f) => f.name === 'vis_ingest_freshness_seconds')?.type, 'HISTOGRAM');
    const samples = [...text.matchAll(/^vis_ingest_freshness_seconds_(bucket|count)\{([^}]*)\} (\S+)$/gm)].map((m) => ({
      what: m[1]!,
      labels: Object.fromEntries([...m[2]!.matchAll(/(\w+)="([^"]*)"/g)].map((l) => [l[1]!, l[2]!])),
      value: Number(m[3]),
    }));
    // Bounded labels: two kinds of record times two triggers, present before any observation.
    const names = new Set(samples.filter((x) => x.what === 'count').map((x) => `${x.labels.kind}/${x.labels.trigger}`));
    assert.deepEqual([...names].sort(), ['incident/push', 'incident/schedule', 'maintenance/push', 'maintenance/schedule']);
    const sample = (kind: string, trigger: string, le?: string) =>
      samples.find((x) => x.what === (le ? 'bucket' : 'count') && x.labels.kind === kind && x.labels.trigger === trigger && (!le || x.labels.le === le))?.value;
    const of = (kind: string, trigger: string) => ({ count: sample(kind, trigger) });
    const bucket = (kind: string, trigger: string, le: string) => sample(kind, trigger, le);
    assert.ok(of('incident', 'schedule').count! >= 1);
    assert.ok(bucket('incident', 'schedule', '10')! - bucket('incident', 'schedule', '5')! >= 1, 'seven seconds: in the 10 s bucket, not the 5 s one');
    assert.ok(of('incident', 'push').count! >= 1);
    assert.ok(bucket('incident', 'push', '2')! - bucket('incident', 'push', '1')! >= 1, 'two seconds after publishing');
    assert.equal(Number(of('maintenance', 'push').count), 0);
  });
});
