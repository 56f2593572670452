import assert from 'node:assert/strict';
import fs from 'node:fs';
import { test } from 'node:test';
import { Worker } from 'node:worker_threads';
import { niceInStat } from '../helpers/thread-nice.ts';

// The ingestion worker lowers its own thread's priority, not the process's
// (docs/ingestion.md "The API thread first"). Linux only: elsewhere it does nothing.

const niceOf = (statPath: string) => niceInStat(fs.readFileSync(statPath, 'utf8'));

test('a thread lowers its own priority and leaves the rest of the process alone', { skip: !fs.existsSync('/proc/thread-self') && 'Linux only' }, async () => {
  const mainBefore = niceOf('/proc/thread-self/stat');
  const moduleUrl = new URL('../../src/infra/thread-priority.ts', import.meta.url).href;
  const worker = new Worker(
    `const { parentPort } = require('node:worker_threads');
     const fs = require('node:fs');
     import(${JSON.stringify(moduleUrl)}).then((m) => {
       const done = m.lowerThreadPriority(7);
       parentPort.postMessage({ done, stat: fs.readFileSync('/proc/thread-self/stat', 'utf8') });
     });`,
    { eval: true },
  );
  const { done, stat } = await new Promise<{ done: boolean; stat: string }>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  await worker.terminate();
  assert.equal(done, true);
  assert.equal(niceInStat(stat), Math.min(19, mainBefore + 7), 'the worker thread runs at the lower priority');
  assert.equal(niceOf('/proc/thread-self/stat'), mainBefore, 'the calling thread keeps its priority');
  assert.equal(niceOf('/proc/self/stat'), mainBefore, 'the process keeps its priority');
});
