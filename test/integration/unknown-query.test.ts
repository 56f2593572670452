import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startApp, type TestApp } from '../helpers/app.ts';
import { readDocument, type Operation } from '../helpers/fuzz-openapi.ts';

// docs/api.md "Parameters": every operation of the API description refuses a
// query parameter it does not document, with 400 naming it, before
// authentication and the response cache.

// One suite per file: its hooks belong to it when files share a process (docs/testing.md, "Batches").
describe('unknown query parameters', () => {
  let t: TestApp;
  let operations: Operation[];

  before(async () => {
    t = await startApp({});
    operations = readDocument(await (await fetch(`${t.url}/docs/json`)).json()).operations;
  });
  after(() => t.close());

  const PATH_VALUES: Record<string, string> = { vendor: 'github', component: 'api', dataType: 'incidents', file: 'x.rss', id: 'x' };

  function urlOf(op: Operation, query: string): string {
    const path = op.path.replace(/\{(\w+)\}/g, (_m, name: string) => PATH_VALUES[name] ?? 'x');
    return `${t.url}${path}?${query}`;
  }

  test('the description lists the operations this test walks', () => {
    assert.ok(operations.length > 40, `only ${operations.length} operations`);
  });

  test('every operation refuses an unknown query parameter with 400 naming it', async () => {
    const failures: string[] = [];
    for (const op of operations) {
      const known = op.params.find((p) => p.in === 'query');
      const query = `zz_unknown=1&utm_source=x${known ? `&${known.name}=` : ''}`;
      const res = await fetch(urlOf(op, query), { method: op.method, redirect: 'manual' });
      const text = await res.text();
      let body: any = null;
      try {
        body = JSON.parse(text);
      } catch {
        /* not JSON */
      }
      if (op.path.startsWith('/scim/v2/')) {
        // SCIM answers in its own error body (docs/teams.md, "SCIM"), before the token is checked.
        const named = typeof body?.detail === 'string' && /'zz_unknown'/.test(body.detail) && /'utm_source'/.test(body.detail);
        if (res.status !== 400 || body?.status !== '400' || body?.scimType !== 'invalidValue' || !named)
          failures.push(`${op.method} ${op.path}: ${res.status} ${text.slice(0, 120)}`);
        continue;
      }
      if (res.status !== 400 || body?.error !== 'invalid_parameter' || body?.parameter !== 'zz_unknown') {
        failures.push(`${op.method} ${op.path}: ${res.status} ${text.slice(0, 120)}`);
        continue;
      }
      // Both unknown names are listed; the documented one is not.
      if (!/'zz_unknown'/.test(body.message) || !/'utm_source'/.test(body.message)) failures.push(`${op.method} ${op.path}: message ${body.message}`);
      if (known && body.message.includes(`'${known.name}'`)) failures.push(`${op.method} ${op.path}: names documented '${known.name}'`);
      assert.deepEqual(body.unknownParameters, ['zz_unknown', 'utm_source']);
    }
    assert.deepEqual(failures, []);
  });

  test('documented parameters pass the check', async () => {
    const res = await fetch(`${t.url}/api/v1/infrastructure/incidents?limit=5&timePeriod=7d`);
    assert.equal(res.status, 200);
    const stats = await fetch(`${t.url}/api/v1/infrastructure/vendor-stats/github?timePeriod=7d`);
    assert.equal(stats.status, 200);
  });

  test('HEAD answers like GET', async () => {
    const res = await fetch(`${t.url}/api/v1/infrastructure/vendor-list?zz_unknown=1`, { method: 'HEAD' });
    assert.equal(res.status, 400);
  });

  test('a misspelt parameter is not silently ignored', async () => {
    const res = await fetch(`${t.url}/api/v1/infrastructure/vendor-stats/github?timeperiod=7d`);
    assert.equal(res.status, 400);
    const body = await res.json();
    assert.equal(body.parameter, 'timeperiod');
    assert.equal(body.message, "Unknown query parameter: 'timeperiod' (did you mean 'timePeriod'?)");
    assert.equal(body.suggestion, 'timePeriod');
    // Nothing near: the message lists what the operation takes.
    const far = await (await fetch(`${t.url}/api/v1/infrastructure/vendor-stats/github?zzz=1`)).json();
    assert.equal(far.message, "Unknown query parameter: 'zzz'; this operation takes timePeriod");
  });

  test('pages outside the description keep ignoring unknown parameters', async () => {
    const res = await fetch(`${t.url}/?utm_source=x`);
    assert.equal(res.status, 200);
  });
});
