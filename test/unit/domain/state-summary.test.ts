import assert from 'node:assert/strict';
import { test } from 'node:test';
import { summarizeState, type VendorState } from '../../../src/domain/state-summary.ts';

// The one rule that sums up several vendors (docs/web.md, "Summary").

const ok: VendorState = { indicator: 'operational', stale: false, problem: false };
const never: VendorState = { indicator: 'unknown', stale: false, problem: false };
const stale: VendorState = { indicator: 'operational', stale: true, problem: false };
const down: VendorState = { indicator: 'major_outage', stale: false, problem: true };

test('green only when every vendor is observed and none reports a problem', () => {
  assert.deepEqual(summarizeState([ok, ok, ok]), { total: 3, problems: 0, notObserved: 0, tone: 'ok', headline: 'All 3 vendors are operational' });
  assert.equal(summarizeState([ok]).headline, 'The vendor is operational');
});

test('never read and stale vendors are not observed, and the sum is not green', () => {
  assert.deepEqual(summarizeState([never, never, never]), { total: 3, problems: 0, notObserved: 3, tone: 'unknown', headline: '3 of 3 vendors not observed' });
  assert.deepEqual(summarizeState([ok, stale, never]), { total: 3, problems: 0, notObserved: 2, tone: 'unknown', headline: '2 of 3 vendors not observed; the other 1 operational' });
});

test('a problem wins the colour; the unobserved are still counted', () => {
  assert.deepEqual(summarizeState([down, never, ok]), { total: 3, problems: 1, notObserved: 1, tone: 'problems', headline: '1 of 3 vendors report problems; 1 not observed' });
  assert.equal(summarizeState([down, ok]).headline, '1 of 2 vendors report problems');
});

test('nothing to sum up is not green', () => {
  assert.equal(summarizeState([]).tone, 'unknown');
});
