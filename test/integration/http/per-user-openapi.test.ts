import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { getJson, startApp, type TestApp } from '../../helpers/app.ts';

// The per-user endpoints in the OpenAPI document: authenticated only, every
// body and response described, with examples.

// One suite per file: its hooks belong to it when files share a process (docs/testing.md, "Batches").
describe('the per-user operations in the OpenAPI document', () => {
  let t: TestApp;
  let doc: any;
  before(async () => {
    t = await startApp();
    doc = (await getJson(`${t.url}/openapi.json`)).body;
  });
  after(async () => t.close());

  const P = '/api/v1/infrastructure';
  const operations: [string, string, boolean][] = [
    ['/watchlist', 'get', false],
    ['/watchlist', 'put', true],
    ['/watchlist/{vendor}', 'post', false],
    ['/watchlist/{vendor}', 'delete', false],
    ['/notification-preferences', 'get', false],
    ['/notification-preferences', 'put', true],
    ['/notification-preferences/webhook/rotate-secret', 'post', false],
    ['/notification-preferences/rss/rotate-token', 'post', false],
    ['/dashboard-favorites', 'post', true],
  ];

  test('every per-user operation requires a key or a session, never anonymous', () => {
    for (const [path, method] of operations) {
      const op = doc.paths[`${P}${path}`]?.[method];
      assert.ok(op, `${method} ${path}`);
      assert.deepEqual(op.security, [{ apiKeyHeader: [] }, { bearer: [] }, { sessionCookie: [] }], `${method} ${path}`);
      assert.ok(op.responses['401'], `${method} ${path} 401`);
    }
  });

  test('bodies and 200 responses have schemas and examples', () => {
    for (const [path, method, hasBody] of operations) {
      const op = doc.paths[`${P}${path}`][method];
      const ok = op.responses['200'].content['application/json'];
      assert.ok(ok.schema, `${method} ${path} 200 schema`);
      assert.ok(ok.example ?? ok.examples, `${method} ${path} 200 example`);
      if (hasBody) {
        const body = op.requestBody.content['application/json'];
        assert.equal(op.requestBody.required, true, `${method} ${path} body required`);
        assert.equal(body.schema.additionalProperties, false, `${method} ${path} closed body`);
        assert.ok(body.example ?? body.examples, `${method} ${path} body example`);
      }
    }
    const prefs = doc.paths[`${P}/notification-preferences`].put.requestBody.content['application/json'].schema.properties;
    for (const key of ['in_app', 'email', 'slack', 'slack_connection', 'webhook', 'pagerduty', 'rss', 'newsletter', 'muted_vendors', 'content_filters']) {
      assert.ok(prefs[key], key);
    }
    assert.ok(doc.paths[`${P}/notification-preferences/webhook/rotate-secret`].post.responses['409']);
  });
});
