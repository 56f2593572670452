import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ObservedSpan } from '../../../src/domain/source-health.ts';
import { computeVendorStats, MIN_OBSERVED_SHARE, observedShare, observedUptimePercent, uptimeGrade } from '../../../src/domain/stats.ts';
import { uptimeDays } from '../../../src/domain/uptime-days.ts';
import { incident } from '../../helpers/records.ts';

// Figures withheld until enough of the window was observed (docs/statistics.md
// "Minimum observed share").

const NOW = new Date('2026-03-10T12:00:00.000Z');
const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const ago = (ms: number) => new Date(NOW.getTime() - ms).toISOString();
const observedFor = (ms: number): ObservedSpan => ({ from: ago(ms), until: NOW.toISOString() });
const since = (days: number) => new Date(NOW.getTime() - days * DAY);

describe('minimum observed share', () => {
  test('a fresh install four minutes in: an incident older than the install rates nothing, let alone poor', () => {
    // The vendor has had a major incident open for two days; we have watched for four minutes.
    const open = incident('v', 'old', { impact: 'major', status: 'investigating', startedAt: ago(2 * DAY) });
    for (const [period, days] of [
      ['7d', 7],
      ['30d', 30],
    ] as const) {
      const s = computeVendorStats('v', period, [open], 0, since(days), NOW, observedFor(4 * MIN));
      assert.equal(s.uptimePercent, null, period);
      assert.equal(s.badge, 'unknown', period);
      assert.equal(s.observedPercent, Math.round(((4 * MIN) / (days * DAY)) * 1000) / 10, period);
      // What the vendor published is still counted.
      assert.equal(s.incidentCount, 1);
      assert.equal(s.byImpact.major, 1);
    }
  });

  test('the figure appears once a quarter of the window was observed, not before', () => {
    assert.equal(MIN_OBSERVED_SHARE, 0.25);
    const window = since(7);
    const quarter = 7 * DAY * 0.25;
    const down = incident('v', 'd', { impact: 'major', status: 'resolved', startedAt: ago(HOUR), resolvedAt: ago(HOUR - 42 * MIN) });
    assert.equal(observedUptimePercent([down], window, NOW, observedFor(quarter - MIN)), null);
    // 42 minutes down over exactly 42 observed hours: 98.333 %.
    assert.equal(observedUptimePercent([down], window, NOW, observedFor(quarter)), 98.333);
    const s = computeVendorStats('v', '7d', [down], 0, window, NOW, observedFor(quarter));
    assert.deepEqual([s.uptimePercent, s.badge, s.observedPercent], [98.333, 'poor', 25]);
  });

  test('observed share is clipped to the window and zero when nothing was observed', () => {
    assert.equal(observedShare(since(7), NOW, { from: null, until: NOW.toISOString() }), 0);
    assert.equal(observedShare(since(7), NOW, observedFor(30 * DAY)), 1);
    // Observation that ended (all sources stale) counts only up to its end.
    assert.equal(observedShare(since(4), NOW, { from: ago(4 * DAY), until: ago(3 * DAY) }), 0.25);
  });

  test('a day of the uptime bar observed for under a quarter of it has no data, never a green 100 %', () => {
    // First poll at 20:00 on the 9th (4 of its 24 hours), now 12:00 on the 10th.
    const days = uptimeDays([], 2, NOW, { from: '2026-03-09T20:00:00.000Z', until: NOW.toISOString() });
    assert.deepEqual(
      days.map((d) => [d.date, d.uptimePercent]),
      [
        ['2026-03-09', null],
        ['2026-03-10', 100],
      ],
    );
  });

  test('the grade of a figure alone: withheld is unknown, poor is poor', () => {
    assert.deepEqual(
      [uptimeGrade(null), uptimeGrade(98), uptimeGrade(99.2), uptimeGrade(99.7), uptimeGrade(100)],
      ['unknown', 'poor', 'fair', 'good', 'excellent'],
    );
  });
});
