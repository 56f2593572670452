import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadOnce } from '../../src/infra/load-once.ts';

test('loadOnce: calls share the first load; a failed load is tried again on the next call', async () => {
  let calls = 0;
  const load = loadOnce(async () => {
    calls++;
    if (calls === 1) throw new Error('first load fails');
    return { n: calls };
  });
  await assert.rejects(load(), /first load fails/);
  const [a, b] = await Promise.all([load(), load()]);
  assert.equal(a, b);
  assert.deepEqual(a, { n: 2 });
  assert.equal(await load(), a);
  assert.equal(calls, 2);
});
