// Loaded by scripts/test.mjs into every batch process (`--import`, with `--expose-internals`;
// docs/testing.md, "Speed"). Once every file of the batch is loaded and its tests are
// registered, it switches off node:test's own async hook.
//
// Why: that hook runs on every promise and socket a test process creates, and tracks each
// one until it is destroyed, only to tell which test an uncaught error came from. Our tests
// run whole apps in-process, so it was 15 % of a demo-round test's profile (the two demo
// files together: 30.2 CPU-s with it, 27.6 with it off from the first test; the suites'
// `before` hooks of the first file still run with it). A server outside the tests never pays it.
//
// What changes: an error thrown outside any test's own call stack (a timer, a socket
// callback) is no longer charged to one test; node:test reports it as a top-level
// diagnostic and the batch still fails (exit code 1). Registering tests needs the hook
// (describe/it find their parent through it), so it stays on until the first test starts:
// a root `beforeEach` first runs once every file is loaded and every suite is built (a root
// `before` would run at once, before the files are loaded).
//
// If a Node.js upgrade moves the internals this relies on, nothing is switched off and the
// run is only slower: the preload never fails a run.
import { createRequire } from 'node:module';
import { beforeEach } from 'node:test';

const require = createRequire(import.meta.url);
let switchedOff = false;

beforeEach(() => {
  if (switchedOff) return;
  switchedOff = true;
  try {
    const { getHookArrays, symbols } = require('internal/async_hooks');
    const [active] = getHookArrays();
    for (const hook of [...active]) {
      const init = hook[symbols.init_symbol];
      if (typeof init === 'function' && String(init).includes('testResources')) hook.disable();
    }
  } catch {
    // Internals moved: keep the hook.
  }
});
