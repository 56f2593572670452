import assert from 'node:assert/strict';
import { test } from 'node:test';
import { oneAtATime } from '../../src/alerts/channels/one-at-a-time.ts';

// Two events of one incident sent in one batch must not both create a record in the tool
// (src/alerts/channels/one-at-a-time.ts): sends about one key run in turn, other keys at once.

const tick = () => new Promise((r) => setTimeout(r, 5));

test('sends about one key wait for each other, in the order they came; other keys do not wait', async () => {
  const serial = oneAtATime();
  const log: string[] = [];
  const job =
    (name: string, fail = false) =>
    async () => {
      log.push(`start ${name}`);
      await tick();
      log.push(`end ${name}`);
      if (fail) throw new Error(name);
      return name;
    };
  const results = await Promise.allSettled([serial('a', job('a1', true)), serial('a', job('a2')), serial('b', job('b1'))]);
  assert.deepEqual(
    results.map((r) => (r.status === 'fulfilled' ? r.value : 'rejected')),
    ['rejected', 'a2', 'b1'],
  );
  // a2 starts only after a1 ended (even though a1 failed); b1 ran beside a1.
  assert.ok(log.indexOf('start a2') > log.indexOf('end a1'), log.join(', '));
  assert.ok(log.indexOf('start b1') < log.indexOf('end a1'), log.join(', '));
});
