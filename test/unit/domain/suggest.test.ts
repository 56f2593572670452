import assert from 'node:assert/strict';
import { test } from 'node:test';
import { editDistance, nearestName } from '../../../src/domain/suggest.ts';

test('edit distance counts swaps of neighbours as one edit and ignores case', () => {
  assert.equal(editDistance('timeperiod', 'timePeriod'), 0);
  assert.equal(editDistance('gihtub', 'github'), 1);
  assert.equal(editDistance('githb', 'github'), 1);
  assert.equal(editDistance('abc', ''), 3);
});

test('the nearest known name, only when it is near enough to be a typo', () => {
  const params = ['timePeriod', 'limit', 'offset', 'vendor', 'status', 'activeOnly'];
  assert.equal(nearestName('timeperiod', params), 'timePeriod');
  assert.equal(nearestName('time_period', params), 'timePeriod');
  assert.equal(nearestName('limt', params), 'limit');
  assert.equal(nearestName('vendors', params), 'vendor');
  assert.equal(nearestName('q', params), null);
  assert.equal(nearestName('format', params), null);
  assert.equal(nearestName('x'.repeat(500), params), null, 'long inputs are not compared');
  assert.equal(nearestName('githb', ['github', 'gitlab', 'gitbook']), 'github');
  assert.equal(nearestName('github', ['github', 'gitlab']), null, 'an exact name is no typo');
});
