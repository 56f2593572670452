import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MIN_NODE_MAJOR, runtimeProblem } from '../../src/runtime.ts';

// The start-up check of the runtime (docs/deployment.md, "Runtime").

test('Node 24 and later are accepted', () => {
  assert.equal(MIN_NODE_MAJOR, 24);
  assert.equal(runtimeProblem('24.0.0'), null);
  assert.equal(runtimeProblem('26.1.0'), null);
});

test('an older Node is refused with a message that says what to do', () => {
  for (const v of ['20.20.2', '22.19.0', '23.11.1']) {
    const problem = runtimeProblem(v);
    assert.ok(problem);
    assert.match(problem, new RegExp(`needs Node\\.js 24 or later; it was started with Node\\.js ${v.replace(/\./g, '\\.')}`));
    assert.match(problem, /npm start/);
  }
});
