import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startApp, type TestApp } from './app.ts';
import { driftRoutes } from './drift-routes.ts';

// Run by test/system/http/response-validation.test.ts in a child process (not part of the
// suite): the first test sends a response the document does not describe and
// asserts nothing about it; the response checks must fail that test, and only it.

let t: TestApp;
before(async () => {
  t = await startApp({ routes: driftRoutes });
});
after(async () => t.close());

test('sends an undocumented status', async () => {
  const res = await fetch(`${t.url}/test-drift/status`);
  await res.text();
});

test('a later test that sends a documented answer', async () => {
  const res = await fetch(`${t.url}/test-drift/ok`);
  assert.equal(res.status, 200);
  await res.text();
});
