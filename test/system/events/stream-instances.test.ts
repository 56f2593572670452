import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { getJson, startApp, TestClock, type TestApp } from '../../helpers/app.ts';
import { startFleet, startIngestApp, type TestFleet } from '../../helpers/fleet.ts';
import { commitEvents, openStream } from '../../helpers/stream.ts';
import { sleep } from '../../helpers/wait.ts';

// The stream end to end: a change in the simulated fleet, polled through the real
// fetcher and adapters, reaches SSE clients of the polling instance and of a second
// instance that shares the database and Redis.

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const path = '/incidents/stream';

describe('stream across two instances sharing Redis', () => {
  const clock = new TestClock(new Date('2026-03-02T10:00:00.000Z'));
  let fleet: TestFleet;
  let a: TestApp;
  let b: TestApp;

  const round = async () => {
    clock.advance(61_000);
    const report = await a.app.ingest.scheduler.runRound({ force: true });
    assert.deepEqual(
      report.outcomes.filter((o) => o.status === 'failed'),
      [],
    );
    return report;
  };

  before(async () => {
    fleet = await startFleet(['github', 'openai'], { clock });
    const env = { REDIS_URL, RATE_LIMITS: JSON.stringify({ anonymous: { concurrentStreams: 2 } }) };
    a = await startIngestApp(fleet, { clock, env });
    b = await startApp({ clock, env, shareStoreWith: a, catalogFile: fleet.catalogFile });
    await round(); // first poll: history, no events
  });
  after(async () => {
    await b?.close();
    await a?.close();
    await fleet?.close();
  });

  test('a simulator change polled by one instance reaches clients of both, each once and in order', async (t) => {
    const onA = openStream(`${a.api}${path}`);
    const onB = openStream(`${b.api}${path}?vendor=github`);
    t.after(() => {
      // Closed whatever happens, so a failure here does not hold the shared stream slots.
      onA.close();
      onB.close();
    });
    await Promise.all([onA.waitFor(1), onB.waitFor(1)]);

    const gh = fleet.sim.fleet.openIncident('github', { impact: 'major' });
    const oa = fleet.sim.fleet.openIncident('openai', { impact: 'minor' });
    await round();
    fleet.sim.fleet.resolveIncident(gh.id);
    await round();

    const log = (await a.repos.events.after(0, 100)).filter((e) => e.entityKind === 'incident');
    assert.deepEqual(
      log.map((e) => [e.type, e.entityId]).sort(),
      [
        ['incident.created', gh.id],
        ['incident.created', oa.id],
        ['incident.resolved', gh.id],
      ].sort(),
    );
    const gotA = (await onA.waitFor(4)).slice(1);
    assert.deepEqual(
      gotA.map((r) => Number(r.id)),
      log.map((e) => e.seq),
    );
    const gotB = (await onB.waitFor(3)).slice(1);
    const ghLog = log.filter((e) => e.vendor === 'github');
    assert.deepEqual(
      gotB.map((r) => Number(r.id)),
      ghLog.map((e) => e.seq),
    );
    assert.deepEqual(
      gotB.map((r) => r.type),
      ['incident.created', 'incident.resolved'],
    );
    assert.equal(gotB[0]!.data.incident.id, gh.id);
    assert.equal(gotB[1]!.data.incident.status, 'resolved');

    // No echo of A's own Redis message, no second copy on B.
    await sleep(300);
    // B got them over Redis pub/sub. On a loaded machine a few may be read from the log
    // instead: two polls' announcements can arrive out of order (a gap B fills from the log),
    // or the periodic catch-up can run before an announcement lands. Without pub/sub every
    // one of them would come from the log.
    const all = (await a.repos.events.after(0, 100)).length;
    const { filled, caughtUp } = b.app.streams.hub.stats;
    assert.ok(filled + caughtUp < all, `B read ${filled + caughtUp} of ${all} events from the log: pub/sub did not carry them`);
    assert.equal(onA.received.length, 4);
    assert.equal(onB.received.length, 3);

    // The concurrent-stream cap is shared: two open (one per instance), a third is refused on either.
    const third = await getJson(`${b.api}${path}`);
    assert.equal(third.status, 429);
    assert.equal(third.body.limit, 2);
    onA.close();
    onB.close();
  });

  test('an announcement lost on the way is filled from the event log, in order', async () => {
    const onB = openStream(`${b.api}${path}`);
    await onB.waitFor(1);
    // Committed on A but never published (a pub/sub message lost), then a later one that is.
    const lost = await commitEvents(a, [{ vendor: 'github', id: 'lost-1', type: 'incident.created' }], { publish: false });
    const seen = await commitEvents(a, [{ vendor: 'openai', id: 'seen-1', type: 'incident.created' }]);
    const got = (await onB.waitFor(3)).slice(1);
    assert.deepEqual(
      got.map((r) => Number(r.id)),
      [lost[0]!.seq, seen[0]!.seq],
    );
    // Read from the log: by the gap the next announcement revealed, or by the periodic catch-up.
    const { filled, caughtUp } = b.app.streams.hub.stats;
    assert.ok(filled + caughtUp >= 1);
    onB.close();
  });
});
