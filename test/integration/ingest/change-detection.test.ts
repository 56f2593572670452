import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { StoredEvent } from '../../../src/domain/events.ts';
import { TestClock, type TestApp } from '../../helpers/app.ts';
import { api, eventsOf, startFleet, startIngestApp, type TestFleet } from '../../helpers/fleet.ts';

// Change detection end to end: the simulated fleet changes, one polling round runs
// through the real HTTP fetcher and adapters, and the event log must hold exactly
// one event per real change — none for a re-poll of an unchanged page.

describe('change detection and the event log', () => {
  const clock = new TestClock(new Date('2026-03-02T10:00:00.000Z'));
  let fleet: TestFleet;
  let t: TestApp;
  const published: StoredEvent[] = [];

  const round = async () => {
    clock.advance(61_000);
    const report = await t.app.ingest.scheduler.runRound({ force: true });
    const failed = report.outcomes.filter((o) => o.status === 'failed');
    assert.deepEqual(failed, [], 'no source fails');
    return report;
  };

  before(async () => {
    fleet = await startFleet(['github', 'perplexity', 'google-cloud', 'openai'], { clock });
    t = await startIngestApp(fleet, { clock });
    t.app.bus.subscribe((events) => published.push(...events));
  });
  after(async () => {
    await t.close();
    await fleet.close();
  });

  test('the first round of a quiet fleet writes status and components but no events', async () => {
    const report = await round();
    assert.equal(report.events, 0);
    assert.equal((await eventsOf(t)).length, 0);
    const status = await api(t, '/vendor-status/github');
    assert.equal(status.body.items[0].indicator, 'operational');
    assert.ok(status.body.items[0].components.length >= 3);
    assert.ok(status.body.items[0].sourceHealth.lastSuccessAt);
  });

  test('a new incident is announced once although two sources list it', async () => {
    const inc = fleet.sim.fleet.openIncident('github', { impact: 'major' });
    const report = await round();
    const events = await eventsOf(t, inc.id);
    assert.deepEqual(
      events.map((e) => e.type),
      ['incident.created'],
    );
    assert.equal(report.events, 1);
    const list = await api(t, '/incidents?vendor=github&activeOnly=true');
    assert.deepEqual(
      list.body.items.map((i: any) => i.id),
      [inc.id],
    );
    assert.equal(list.body.items[0].impact, 'major');
    const status = await api(t, '/vendor-status/github');
    assert.equal(status.body.items[0].indicator, 'partial_outage');
  });

  test('re-polling unchanged pages writes nothing (and is answered with 304)', async () => {
    const before304 = fleet.sim.stats.notModified;
    const seq = await t.repos.events.latestSeq();
    const report = await round();
    assert.equal(report.events, 0);
    assert.equal(await t.repos.events.latestSeq(), seq);
    const statuses = new Set(report.outcomes.map((o) => o.status));
    assert.deepEqual([...statuses], ['not_modified']);
    assert.equal(fleet.sim.stats.notModified - before304, report.outcomes.length);
  });

  test('an update is announced once', async () => {
    const [inc] = fleet.sim.fleet.vendors.get('github')!.incidents;
    fleet.sim.fleet.advanceIncident(inc!.id);
    await round();
    const types = (await eventsOf(t, inc!.id)).map((e) => e.type);
    assert.deepEqual(types, ['incident.created', 'incident.updated']);
    const item = (await api(t, '/incidents?vendor=github')).body.items[0];
    assert.equal(item.sourceStatus, 'identified');
    assert.equal(item.status, 'investigating');
  });

  test('a resolution is announced exactly once and shows as resolved', async () => {
    const [inc] = fleet.sim.fleet.vendors.get('github')!.incidents;
    fleet.sim.fleet.resolveIncident(inc!.id);
    await round();
    await round();
    const types = (await eventsOf(t, inc!.id)).map((e) => e.type);
    assert.deepEqual(types, ['incident.created', 'incident.updated', 'incident.resolved']);
    const item = (await api(t, '/incidents?vendor=github')).body.items[0];
    assert.equal(item.status, 'resolved');
    assert.ok(item.resolvedAt);
    assert.equal((await api(t, '/vendor-status/github')).body.items[0].indicator, 'operational');
  });

  test('an incident missing from a complete list of open incidents is resolved by absence', async () => {
    const inc = fleet.sim.fleet.openIncident('perplexity', { impact: 'minor' });
    await round();
    fleet.sim.fleet.resolveIncident(inc.id); // Instatus lists active incidents only: it just disappears
    const report = await round();
    const events = await eventsOf(t, inc.id);
    assert.deepEqual(
      events.map((e) => e.type),
      ['incident.created', 'incident.resolved'],
    );
    const polled = report.outcomes.find((o) => o.vendor === 'perplexity')!;
    const stored = (await t.repos.incidents.get(inc.id))!.record;
    assert.equal(stored.status, 'resolved');
    assert.equal(stored.sourceStatus, 'INVESTIGATING', 'the upstream word is kept');
    assert.ok(stored.resolvedAt && polled.nextPollAt && stored.resolvedAt <= polled.nextPollAt);
    await round();
    assert.equal((await eventsOf(t, inc.id)).length, 2);
  });

  test('an incident that began and ended between two polls is announced as resolved', async () => {
    const inc = fleet.sim.fleet.openIncident('google-cloud');
    fleet.sim.fleet.resolveIncident(inc.id);
    await round();
    assert.deepEqual(
      (await eventsOf(t, inc.id)).map((e) => e.type),
      ['incident.resolved'],
    );
  });

  test('maintenance: scheduled, started, updated, completed — one event each', async () => {
    const m = fleet.sim.fleet.scheduleMaintenance('github', { startsInMs: 3_600_000, durationMs: 3_600_000 });
    await round();
    fleet.sim.fleet.advanceMaintenance(m.id);
    await round();
    fleet.sim.fleet.advanceMaintenance(m.id);
    await round();
    fleet.sim.fleet.advanceMaintenance(m.id);
    await round();
    await round();
    const types = (await eventsOf(t, m.id)).map((e) => e.type);
    assert.deepEqual(types, ['maintenance.scheduled', 'maintenance.started', 'maintenance.updated', 'maintenance.completed']);
    const item = (await api(t, '/maintenance?vendor=github')).body.items.find((x: any) => x.id === m.id);
    assert.equal(item.status, 'completed');
  });

  test('incident.io widget incidents flow through the same rules', async () => {
    const inc = fleet.sim.fleet.openIncident('openai', { impact: 'critical' });
    await round();
    fleet.sim.fleet.resolveIncident(inc.id);
    await round();
    assert.deepEqual(
      (await eventsOf(t, inc.id)).map((e) => e.type),
      ['incident.created', 'incident.resolved'],
    );
  });

  test('events carry the API view of the record, and the bus saw exactly the log', async () => {
    const log = await eventsOf(t);
    assert.deepEqual(
      published.map((e) => e.seq),
      log.map((e) => e.seq),
    );
    const seqs = log.map((e) => e.seq);
    assert.deepEqual(
      seqs,
      [...seqs].sort((a, b) => a - b),
    );
    const last = log.filter((e) => e.entityKind === 'incident' && e.vendor === 'openai').at(-1)!;
    assert.equal(last.payload.vendorName, 'OpenAI');
    assert.equal(last.payload.source, 'incidentio');
    const served = (await api(t, '/incidents?vendor=openai')).body.items[0];
    assert.deepEqual(last.payload, served);
  });
});
