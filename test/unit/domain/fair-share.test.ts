import assert from 'node:assert/strict';
import { test } from 'node:test';
import { claimBatchMinFor, halfShareOf, planClaim, withinShare } from '../../../src/domain/fair-share.ts';

// The fair share of sending slots per receiver (docs/alerts.md "Fair share per receiver").

const busy = (entries: [string, number][] = []) => new Map(entries);

test('a claim waits for a batch of free slots while sends are in flight; small pools claim smaller batches', () => {
  assert.equal(claimBatchMinFor(128), 16);
  assert.equal(claimBatchMinFor(8), 2);
  assert.equal(claimBatchMinFor(2), 1);
  const c = { concurrency: 128, busy: busy(), share: 32, narrow: false };
  assert.equal(planClaim({ ...c, inFlight: 128 }), null, 'no free slot');
  assert.equal(planClaim({ ...c, inFlight: 120 }), null, '8 free slots are fewer than a batch');
  assert.deepEqual(planClaim({ ...c, inFlight: 112 }), { limit: 16, skip: [] });
  assert.deepEqual(planClaim({ ...c, concurrency: 2, inFlight: 0 }), { limit: 2, skip: [] }, 'an idle pool claims whatever is free');
});

test('receivers using their whole share are skipped; narrowed claims take half a share and keep half free', () => {
  const b = busy([
    ['full', 4],
    ['three', 3],
    ['two', 2],
  ]);
  assert.equal(halfShareOf(4), 2);
  assert.equal(halfShareOf(1), 1);
  assert.deepEqual(planClaim({ concurrency: 64, inFlight: 9, busy: b, share: 4, narrow: false }), { limit: 55, skip: ['full'] });
  assert.deepEqual(
    planClaim({ concurrency: 64, inFlight: 9, busy: b, share: 4, narrow: true }),
    { limit: 2, skip: ['full', 'three'] },
    'less than half a share free',
  );
  assert.deepEqual(
    planClaim({ concurrency: 64, inFlight: 0, busy: busy(), share: Number.POSITIVE_INFINITY, narrow: false }),
    { limit: 64, skip: [] },
    'no bound',
  );
});

test('rows of one claim beyond a share are given back, counting the rows taken before them', () => {
  const r = (id: string, receiver: string | null) => ({ id, receiver });
  const { send, giveBack } = withinShare([r('a1', 'a'), r('a2', 'a'), r('a3', 'a'), r('n', null)], busy(), 2);
  assert.deepEqual(
    send.map((x) => x.id),
    ['a1', 'a2', 'n'],
  );
  assert.deepEqual(
    giveBack.map((x) => x.id),
    ['a3'],
  );
});
