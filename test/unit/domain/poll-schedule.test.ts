import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { freshnessOf, hotReason, hotReasonOf, pollTrigger, pushedPollAt, scheduleOf } from '../../../src/domain/poll-schedule.ts';
import type { IncidentRecord, MaintenanceRecord } from '../../../src/domain/records.ts';

const now = new Date('2026-11-29T12:00:00.000Z');
const iso = (msAgo: number) => new Date(now.getTime() - msAgo).toISOString();
const inc = (over: Partial<IncidentRecord>): IncidentRecord => ({
  id: 'i',
  vendor: 'v',
  title: 't',
  status: 'investigating',
  sourceStatus: 'investigating',
  impact: 'minor',
  startedAt: iso(3_600_000),
  updatedAt: iso(600_000),
  resolvedAt: null,
  components: [],
  updates: [],
  url: null,
  source: 'statuspage-v2',
  ...over,
});
const maint = (over: Partial<MaintenanceRecord>): MaintenanceRecord =>
  ({
    id: 'm',
    vendor: 'v',
    title: 'm',
    status: 'scheduled',
    sourceStatus: 'scheduled',
    impact: 'none',
    scheduledFor: iso(-3_600_000),
    scheduledUntil: iso(-7_200_000),
    startedAt: null,
    completedAt: null,
    components: [],
    updates: [],
    url: null,
    source: 'statuspage-v2',
    ...over,
  }) as MaintenanceRecord;

describe('adaptive polling', () => {
  test('hot: an open incident updated lately, a page reporting a problem, maintenance now or within 30 min', () => {
    assert.equal(hotReason({ incidents: [inc({})] }, now), 'open incident');
    assert.equal(hotReason({ incidents: [inc({ status: 'resolved' })] }, now), null);
    // An incident a feed keeps "open" for days makes nothing hot.
    assert.equal(hotReason({ incidents: [inc({ updatedAt: iso(49 * 3_600_000) })] }, now), null);
    assert.equal(hotReason({ status: { indicator: 'partial_outage', description: '' } }, now), 'page reports a problem');
    assert.equal(hotReason({ status: { indicator: 'operational', description: '' } }, now), null);
    assert.equal(hotReason({ maintenances: [maint({ scheduledFor: iso(-20 * 60_000) })] }, now), 'maintenance');
    assert.equal(hotReason({ maintenances: [maint({ scheduledFor: iso(-40 * 60_000) })] }, now), null);
    assert.equal(hotReason({ maintenances: [maint({ status: 'in_progress', scheduledFor: iso(600_000) })] }, now), 'maintenance');
    assert.equal(hotReason({}, now), null);
  });

  test('intervals: a quarter while hot (never under 15 s), a fifth longer after 5 quiet 304s (at most 300 s), else the source own', () => {
    assert.deepEqual(scheduleOf(60, 'open incident', 0), { hot: true, quietPolls: 0, intervalSeconds: 15, reason: 'open incident' });
    assert.equal(scheduleOf(300, 'maintenance', 0).intervalSeconds, 75);
    assert.equal(scheduleOf(40, 'open incident', 0).intervalSeconds, 15);
    // A source polled every 10 s (the demo) is not polled faster than that.
    assert.equal(scheduleOf(10, 'open incident', 0).intervalSeconds, 10);
    assert.deepEqual(scheduleOf(60, null, 4), { hot: false, quietPolls: 4, intervalSeconds: 60, reason: 'default' });
    assert.deepEqual(scheduleOf(60, null, 5), { hot: false, quietPolls: 5, intervalSeconds: 72, reason: 'quiet' });
    assert.deepEqual(scheduleOf(30, null, 5), { hot: false, quietPolls: 5, intervalSeconds: 36, reason: 'quiet' });
    assert.equal(scheduleOf(300, null, 50).intervalSeconds, 300, 'at most 300 s, never under its own interval');
    assert.equal(scheduleOf(3600, null, 9).intervalSeconds, 3600, 'never slower than its own interval... nor faster');
    assert.equal(scheduleOf(200, null, 9).intervalSeconds, 240);
    assert.equal(scheduleOf(280, null, 9).intervalSeconds, 300);
    // Hot wins over quiet.
    assert.equal(scheduleOf(60, 'page reports a problem', 9).intervalSeconds, 15);
    assert.equal(hotReasonOf('maintenance'), 'maintenance');
    assert.equal(hotReasonOf('quiet'), 'open incident');
    assert.equal(hotReasonOf(null), 'open incident');
  });

  test('a push: due now, not within 5 s of the previous poll, never later than already due', () => {
    assert.equal(pushedPollAt(now, iso(60_000), iso(-30_000))?.toISOString(), now.toISOString());
    assert.equal(pushedPollAt(now, iso(4_000), iso(-50_000))?.toISOString(), iso(-1_000));
    assert.equal(pushedPollAt(now, iso(60_000), iso(1_000)), null, 'already due');
    assert.equal(pushedPollAt(now, null, null)?.toISOString(), now.toISOString());
    assert.equal(pushedPollAt(now, iso(2_000), iso(-2_000)), null, 'due at the end of the gap anyway');
    assert.equal(pushedPollAt(now, iso(2_000), iso(-5_000))?.toISOString(), iso(-3_000), 'the gap ends before it was due');
  });

  test('freshness: from the newest update to the record; future counts 0; history over 6 h left out', () => {
    const at = now;
    assert.deepEqual(
      freshnessOf(
        [
          { entityKind: 'incident', payload: { updatedAt: iso(900_000), updates: [{ createdAt: iso(900_000) }, { createdAt: iso(12_000) }] } },
          { entityKind: 'maintenance', payload: { updatedAt: iso(30_000) } },
          { entityKind: 'incident', payload: { updatedAt: iso(-5_000) } },
          { entityKind: 'incident', payload: { updatedAt: iso(7 * 3_600_000) } },
          { entityKind: 'incident', payload: { updatedAt: 'garbage' } },
        ],
        at,
      ),
      [
        { seconds: 12, kind: 'incident' },
        { seconds: 30, kind: 'maintenance' },
        { seconds: 0, kind: 'incident' },
      ],
    );
  });

  test('a poll is brought by a push only when the vendor pushed after the previous poll and before this one', () => {
    const row = (pushedAt: string | null, lastSuccessAt: string | null, lastErrorAt: string | null = null) => ({ pushedAt, lastSuccessAt, lastErrorAt });
    assert.equal(pollTrigger(row(null, iso(60_000)), now), 'schedule');
    assert.equal(pollTrigger(row(iso(2_000), iso(60_000)), now), 'push');
    assert.equal(pollTrigger(row(iso(2_000), null), now), 'push', 'a first poll after a push');
    assert.equal(pollTrigger(row(iso(70_000), iso(60_000)), now), 'schedule', 'the previous poll answered that push');
    assert.equal(pollTrigger(row(iso(30_000), iso(60_000), iso(10_000)), now), 'schedule', 'a failed poll after the push counts too');
    assert.equal(pollTrigger(row(iso(-1_000), iso(60_000)), now), 'schedule', 'a push during this poll is for the next one');
  });
});
