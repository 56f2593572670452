// @store-independent: tests the response checker, whatever store the app runs on; runs in one CI leg only (docs/testing.md, "Tiers").
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { userWithKey } from '../../helpers/access.ts';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { driftRoutes } from '../../helpers/drift-routes.ts';
import { pathTemplate } from '../../helpers/openapi-responses.ts';

// The response checks every test app runs (test/helpers/openapi-responses.ts):
// each kind of drift between a response and the OpenAPI document is caught, and a
// caught drift fails a test instead of being lost.

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../../..');

describe('responses are checked against the OpenAPI document', () => {
  let t: TestApp;
  before(async () => {
    t = await startApp({ routes: driftRoutes });
  });
  after(async () => t.close());

  /** Calls a mode of the drift route and returns what the checker recorded for it. */
  async function drift(mode: string, url = `${t.url}/test-drift/${mode}`) {
    const res = await fetch(url);
    await res.text();
    return { status: res.status, found: t.responses.take() };
  }

  test('a response matching the document passes (extra fields are the serializer’s to drop)', async () => {
    const r = await drift('ok');
    assert.equal(r.status, 200);
    assert.deepEqual(r.found, []);
    assert.deepEqual((await drift('not-found')).found, []);
  });

  test('an undocumented status is caught, with the operation, the request and the body', async () => {
    const r = await drift('status');
    assert.equal(r.status, 202);
    assert.equal(r.found.length, 1);
    const [v] = r.found;
    assert.equal(v!.operation, 'GET /test-drift/{mode} (testDrift)');
    assert.equal(v!.request, 'GET /test-drift/status');
    assert.equal(v!.status, 202);
    assert.match(v!.problem, /status 202 is not documented \(documented: 200, 400, 404, 414, 431\)/);
    assert.match(v!.body, /"name":"a"/);
  });

  test('an error status the route does not document is caught (503 from a domain error)', async () => {
    const r = await drift('error');
    assert.equal(r.status, 503);
    assert.equal(r.found.length, 1);
    assert.match(r.found[0]!.problem, /status 503 is not documented/);
    assert.match(r.found[0]!.body, /"error":"unavailable"/);
  });

  test('null in a non-nullable field is caught before the serializer turns it into ""', async () => {
    const r = await drift('null');
    assert.equal(r.status, 200);
    assert.equal(r.found.length, 1);
    assert.match(r.found[0]!.problem, /before serialization.*\/name must be string/);
  });

  test('a string where the schema has an integer is caught though the wire shows a number', async () => {
    const r = await drift('string-count');
    assert.equal(r.status, 200);
    assert.match(r.found[0]?.problem ?? '', /\/count must be integer/);
  });

  test('a missing required field is caught (and the 500 it causes is not documented either)', async () => {
    const r = await drift('missing');
    assert.equal(r.status, 500);
    const problems = r.found.map((v) => v.problem).join('\n');
    assert.match(problems, /must have required property 'name'/);
    assert.match(problems, /status 500 is not documented/);
  });

  test('an undocumented content type is caught', async () => {
    const r = await drift('text');
    assert.equal(r.found.length, 1);
    assert.match(r.found[0]!.problem, /content type 'text\/plain' is not documented for 200 \(documented: application\/json\)/);
    assert.equal(r.found[0]!.body, 'plain words');
  });

  test('a JSON body written past the serializer is validated as sent', async () => {
    const r = await drift('raw-json');
    assert.equal(r.found.length, 1);
    const p = r.found[0]!.problem;
    assert.match(p, /body does not match the 200 application\/json schema/);
    assert.match(p, /\/name must be string/);
    assert.match(p, /must have required property 'count'/);
    assert.match(p, /must NOT have additional properties \(unknown\)/);
  });

  test('a hijacked reply is checked for status and content type', async () => {
    const r = await drift('', `${t.url}/test-drift-stream`);
    assert.equal(r.found.length, 1);
    assert.match(r.found[0]!.problem, /content type 'text\/plain' is not documented for 200 \(documented: text\/event-stream\)/);
  });

  test('routes hidden from the document, and unknown routes, are not checked', async () => {
    assert.equal((await drift('', `${t.url}/test-drift-hidden`)).status, 299);
    assert.equal((await drift('', `${t.url}/no-such-route`)).status, 404);
    assert.equal((await drift('', `${t.url}/docs/json`)).status, 200);
    assert.deepEqual(t.responses.take(), []);
  });

  test('HEAD is not in the document and is not checked', async () => {
    const res = await fetch(`${t.url}/test-drift/status`, { method: 'HEAD' });
    assert.equal(res.status, 202);
    assert.deepEqual(t.responses.take(), []);
  });

  test('the path template of a Fastify route is the document’s', () => {
    assert.equal(pathTemplate('/api/v1/infrastructure/:vendor-compliance'), '/api/v1/infrastructure/{vendor}-compliance');
    assert.equal(pathTemplate('/vendors/:vendor/:dataType'), '/vendors/{vendor}/{dataType}');
    assert.equal(pathTemplate('/files/:name(^\\d+).png'), '/files/{name}.png');
  });
});

test('the body errors Fastify answers before a handler (413, 415) are documented on a real route', async () => {
  const t = await startApp();
  try {
    const user = await userWithKey(t, 'pro');
    const put = (body: string, type: string) =>
      fetch(`${t.api}/watchlist`, { method: 'PUT', headers: { 'x-api-key': user.secret, 'content-type': type }, body });
    const unsupported = await put('<vendors/>', 'application/xml');
    assert.equal(unsupported.status, 415);
    assert.equal((await unsupported.json()).error, 'unsupported_media_type');
    const large = await put(JSON.stringify({ vendors: ['x'.repeat(2_000_000)] }), 'application/json');
    assert.equal(large.status, 413);
    assert.equal((await large.json()).error, 'payload_too_large');
    assert.deepEqual(t.responses.take(), []);
  } finally {
    await t.close();
  }
});

test('close() reports the violations nobody took, after cleaning up', async () => {
  const t = await startApp({ routes: driftRoutes });
  await (await fetch(`${t.url}/test-drift/status`)).text();
  await assert.rejects(t.close(), (err: Error) => {
    assert.match(err.message, /1 response\(s\) do not match the OpenAPI document/);
    assert.match(err.message, /GET \/test-drift\/\{mode\} \(testDrift\) → 202/);
    return true;
  });
  if (!t.config.databaseUrl) assert.equal(fs.existsSync(t.config.dataDir), false);
});

test('a violation fails the test that caused it, not a later one', async () => {
  const fixture = path.join(root, 'test/helpers/response-drift.fixture.ts');
  // A runner of its own: without NODE_TEST_CONTEXT the child reports in TAP.
  const { NODE_TEST_CONTEXT: _, ...env } = process.env;
  const out = await run(process.execPath, ['--test', '--test-reporter=tap', fixture], { cwd: root, env }).then(
    () => assert.fail('the fixture run should fail'),
    (err: { code: number; stdout: string; stderr: string }) => {
      assert.notEqual(err.code, 0);
      return err.stdout;
    },
  );
  assert.match(out, /not ok \d+ - sends an undocumented status/);
  assert.match(out, /status 202 is not documented/);
  assert.match(out, /^\s*ok \d+ - a later test that sends a documented answer/m);
  assert.match(out, /# pass 1\n# fail 1\n/);
});
