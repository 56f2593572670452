import assert from 'node:assert/strict';
import { test } from 'node:test';
import { summarizeState, type VendorState } from '../../../src/domain/state-summary.ts';

// The one rule that sums up several vendors (docs/web.md, "Summary").

const ok: VendorState = { indicator: 'operational', stale: false, problem: false, monitored: true };
const never: VendorState = { indicator: 'unknown', stale: false, problem: false, monitored: true };
const stale: VendorState = { indicator: 'operational', stale: true, problem: false, monitored: true };
/** No machine-readable source: its indicator is unknown, and it reports nothing. */
const unmonitored: VendorState = { indicator: 'unknown', stale: false, problem: false, monitored: false };
const down: VendorState = { indicator: 'major_outage', stale: false, problem: true, monitored: true };

test('green only when every vendor is observed and none reports a problem', () => {
  assert.deepEqual(summarizeState([ok, ok, ok]), {
    total: 3,
    problems: 0,
    notObserved: 0,
    notMonitored: 0,
    tone: 'ok',
    headline: 'All 3 vendors are operational',
  });
  assert.equal(summarizeState([ok]).headline, 'The vendor is operational');
});

test('never read and stale vendors are not observed, and the sum is not green', () => {
  assert.deepEqual(summarizeState([never, never, never]), {
    total: 3,
    problems: 0,
    notObserved: 3,
    notMonitored: 0,
    tone: 'unknown',
    headline: '3 of 3 vendors not observed',
  });
  assert.deepEqual(summarizeState([ok, stale, never]), {
    total: 3,
    problems: 0,
    notObserved: 2,
    notMonitored: 0,
    tone: 'unknown',
    headline: '2 of 3 vendors not observed; the other 1 operational',
  });
});

test('a problem wins the colour; the unobserved are still counted', () => {
  assert.deepEqual(summarizeState([down, never, ok]), {
    total: 3,
    problems: 1,
    notObserved: 1,
    notMonitored: 0,
    tone: 'problems',
    headline: '1 of 3 vendors report problems; 1 not observed',
  });
  assert.equal(summarizeState([down, ok]).headline, '1 of 2 vendors report problems');
});

test('nothing to sum up is not green', () => {
  assert.equal(summarizeState([]).tone, 'unknown');
});

test('a vendor that is not monitored is counted apart, never operational, and keeps the sum from green', () => {
  assert.deepEqual(summarizeState([ok, unmonitored]), {
    total: 2,
    problems: 0,
    notObserved: 0,
    notMonitored: 1,
    tone: 'unknown',
    headline: '1 of 2 vendors not monitored; the other 1 operational',
  });
  assert.deepEqual(summarizeState([unmonitored]), {
    total: 1,
    problems: 0,
    notObserved: 0,
    notMonitored: 1,
    tone: 'unknown',
    headline: '1 of 1 vendor not monitored',
  });
  assert.equal(summarizeState([never, unmonitored, ok]).headline, '1 of 3 vendors not observed; 1 not monitored; the other 1 operational');
  assert.equal(summarizeState([down, unmonitored]).headline, '1 of 2 vendors report problems; 1 not monitored');
  // Even a stored "operational" row of a vendor whose source was removed is not counted operational.
  const leftover: VendorState = { indicator: 'operational', stale: false, problem: false, monitored: false };
  assert.deepEqual([summarizeState([leftover]).tone, summarizeState([leftover]).notMonitored], ['unknown', 1]);
});
