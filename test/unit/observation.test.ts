import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { completedByAbsence, isActiveMaintenance } from '../../src/domain/maintenance-window.ts';
import { foldHealth, isStale, observedSpan, type SourcePollState } from '../../src/domain/source-health.ts';
import { computeVendorStats } from '../../src/domain/stats.ts';
import { uptimeDays } from '../../src/domain/uptime-days.ts';
import { incident, maintenance } from '../helpers/records.ts';

// Observation window, source staleness and maintenance windows (docs/statistics.md,
// docs/operations.md "Source health", docs/ingestion.md).

const NOW = new Date('2026-03-10T12:00:00.000Z');
const MIN = 60_000;
const DAY = 86_400_000;
const ago = (ms: number) => new Date(NOW.getTime() - ms).toISOString();
const source = (over: Partial<SourcePollState> = {}): SourcePollState => ({
  vendor: 'v',
  intervalSeconds: null,
  firstSuccessAt: null,
  lastSuccessAt: null,
  lastErrorAt: null,
  lastError: null,
  consecutiveFailures: 0,
  failingSince: null,
  ...over,
});

describe('uptime only over observed time', () => {
  test('never observed: no uptime, badge unknown (not excellent)', () => {
    const s = computeVendorStats('v', '30d', [], 0, new Date(NOW.getTime() - 30 * DAY), NOW, observedSpan([source()], NOW, 60));
    assert.equal(s.uptimePercent, null);
    assert.equal(s.badge, 'unknown');
  });

  test('counted from the first successful poll: an outage before it costs nothing', () => {
    const span = observedSpan([source({ firstSuccessAt: ago(2 * DAY), lastSuccessAt: ago(MIN) })], NOW, 60);
    const before = incident('v', 'a', { impact: 'critical', status: 'resolved', startedAt: ago(5 * DAY), resolvedAt: ago(4 * DAY) });
    const during = incident('v', 'b', { impact: 'major', status: 'resolved', startedAt: ago(DAY), resolvedAt: ago(DAY - 144 * MIN) });
    // A 7-day window: 2 days observed is more than the quarter needed (docs/statistics.md "Minimum observed share").
    const s = computeVendorStats('v', '7d', [before, during], 0, new Date(NOW.getTime() - 7 * DAY), NOW, span);
    // 144 min down out of 2 days observed = 5 %.
    assert.equal(s.uptimePercent, 95);
  });

  test('the current outage of our polling is not observed time', () => {
    const failing = source({ firstSuccessAt: ago(2 * DAY), lastSuccessAt: ago(DAY), consecutiveFailures: 50, failingSince: ago(DAY - MIN) });
    assert.deepEqual(observedSpan([failing], NOW, 60), { from: ago(2 * DAY), until: ago(DAY) });
    // Another source of the vendor still answering keeps it observed.
    assert.equal(observedSpan([failing, source({ firstSuccessAt: ago(DAY), lastSuccessAt: ago(MIN) })], NOW, 60).until, NOW.toISOString());
  });

  test('days before the first poll have no uptime (shown as no data)', () => {
    const days = uptimeDays([], 3, NOW, observedSpan([source({ firstSuccessAt: '2026-03-09T18:00:00.000Z', lastSuccessAt: ago(MIN) })], NOW, 60));
    assert.deepEqual(
      days.map((d) => [d.date, d.uptimePercent]),
      [
        ['2026-03-08', null],
        ['2026-03-09', 100],
        ['2026-03-10', 100],
      ],
    );
  });
});

describe('stale sources', () => {
  test('failing for longer than 3 intervals, and at least 15 minutes', () => {
    const failing = (minutes: number, intervalSeconds: number | null) =>
      source({ intervalSeconds, consecutiveFailures: 2, failingSince: ago(minutes * MIN), lastErrorAt: ago(MIN) });
    assert.equal(isStale(failing(14, null), NOW, 60), false);
    assert.equal(isStale(failing(16, null), NOW, 60), true);
    assert.equal(isStale(failing(16, 600), NOW, 60), false, '3 × 10 min');
    assert.equal(isStale(failing(31, 600), NOW, 60), true);
    assert.equal(isStale(source({ consecutiveFailures: 0, lastErrorAt: ago(DAY) }), NOW, 60), false, 'recovered');
    assert.equal(foldHealth([source({ lastSuccessAt: ago(MIN) }), failing(20, null)], NOW, 60).stale, true);
  });
});

describe('maintenance windows', () => {
  test('a window that ended long ago is never active', () => {
    const old = maintenance('v', 'm', { status: 'in_progress', scheduledFor: '2021-05-01T01:00:00.000Z', scheduledUntil: '2021-05-01T03:00:00.000Z' });
    assert.equal(isActiveMaintenance(old, NOW), false);
    const openEnded = maintenance('v', 'n', { status: 'scheduled', scheduledFor: '2021-05-01T01:00:00.000Z', scheduledUntil: null });
    assert.equal(isActiveMaintenance(openEnded, NOW), false);
    const overrun = maintenance('v', 'o', { status: 'in_progress', scheduledFor: ago(3 * 60 * MIN), scheduledUntil: ago(60 * MIN) });
    assert.equal(isActiveMaintenance(overrun, NOW), true, 'a short overrun still shows');
  });

  test('left the complete list: completed at its announced end, once that is past', () => {
    const m = maintenance('v', 'm', { status: 'in_progress', scheduledFor: ago(60 * MIN), scheduledUntil: ago(10 * MIN) });
    const done = completedByAbsence(m, NOW.toISOString());
    assert.equal(done?.status, 'completed');
    assert.equal(done?.completedAt, ago(10 * MIN));
    assert.equal(completedByAbsence({ ...m, scheduledUntil: ago(-10 * MIN) }, NOW.toISOString()), null, 'not over yet');
    assert.equal(completedByAbsence({ ...m, scheduledUntil: null }, NOW.toISOString()), null, 'no announced end');
  });
});
