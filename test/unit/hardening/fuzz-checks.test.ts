import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findLeaks, makeChecker } from '../../helpers/fuzz-checks.ts';
import type { FuzzRequest, FuzzResponse } from '../../helpers/fuzz-http.ts';
import { readDocument } from '../../helpers/fuzz-openapi.ts';

// The fuzz suite's checks catch what they are meant to: a check that never
// fires would let every fuzz run pass.

const doc = readDocument({
  paths: {
    '/things/{id}': {
      get: { operationId: 'getThing', parameters: [], responses: { 200: { description: 'ok' }, 400: { description: 'bad' }, 404: { description: 'no' } } },
    },
  },
  components: {
    schemas: {
      ErrorBody: {
        type: 'object',
        required: ['success', 'error', 'message'],
        properties: { success: { type: 'boolean' }, error: { type: 'string' }, message: { type: 'string' }, requestId: { type: 'string' } },
      },
    },
  },
});
const op = doc.operations[0]!;
const check = makeChecker(doc);
const req = (echoes: string[] = []): FuzzRequest => ({ opId: 'getThing', method: 'GET', path: '/things/x', headers: {}, note: '', echoes });
const json = (status: number, body: unknown, headers: Record<string, string> = {}): FuzzResponse => ({
  status,
  headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  body: JSON.stringify(body),
});

test('leaks are found unless the request carried the text', () => {
  assert.ok(findLeaks('Error\n    at handler (/srv/app/src/http/routes/x.ts:10:5)', []).length);
  assert.ok(findLeaks('failed at Object.<anonymous> (file:///srv/app/x.js:1:2)', []).length);
  assert.ok(findLeaks('{"message":"SQLITE_CONSTRAINT: UNIQUE constraint failed"}', []).length);
  assert.ok(findLeaks('insert into "api_keys" - invalid byte sequence for encoding "UTF8": 0x00', []).length);
  assert.ok(findLeaks('syntax error at or near "OR"', []).length);
  assert.ok(findLeaks('cannot read /x/node_modules/fastify/lib/a.js', []).length);
  assert.ok(findLeaks(`ENOENT ${process.cwd()}/data`, []).length);
  assert.deepEqual(findLeaks("Invalid parameter 'vendor': ' UNION SELECT password FROM users--", ["' UNION SELECT password FROM users--"]), []);
  assert.deepEqual(findLeaks('{"success":true,"items":[{"title":"Degraded at 10:30 (UTC)"}]}', []), []);
});

test('the response checks flag 5xx, undocumented statuses, foreign error bodies and header injection', () => {
  assert.deepEqual(
    check({ doc, op }, req(), json(404, { success: false, error: 'not_found', message: 'No such thing', requestId: 'r1' }, { 'x-request-id': 'r1' })),
    [],
  );
  assert.match(check({ doc, op }, req(), json(500, { success: false, error: 'internal_error', message: 'x' })).join(), /server error/);
  assert.match(check({ doc, op }, req(), json(409, { success: false, error: 'conflict', message: 'x' })).join(), /not documented/);
  assert.match(check({ doc, op }, req(), json(400, { error: 'Bad Request', code: 'FST_ERR_BAD_URL', statusCode: 400 })).join(), /ErrorBody/);
  assert.match(check({ doc, op }, req(), json(400, { success: false, error: 'x', message: 'y', requestId: 'a' }, { 'x-request-id': 'b' })).join(), /differs/);
  assert.match(check({ doc, op }, req(), { status: 400, headers: { 'content-type': 'text/html' }, body: '<h1>Bad</h1>' }).join(), /not JSON/);
  assert.match(check({ doc, op }, req(), json(200, { success: true }, { 'set-cookie': 'pwned=1' })).join(), /header injection/);
  // A request that reached no route: the not-found handler's 404 is allowed anywhere.
  const noRoute = { doc, op: { ...op, statuses: new Set([200]) } };
  assert.deepEqual(check(noRoute, req(), json(404, { success: false, error: 'not_found', message: 'Route GET /things/x/ not found' })), []);
  assert.match(check(noRoute, req(), json(404, { success: false, error: 'not_found', message: 'No such thing' })).join(), /not documented/);
});
