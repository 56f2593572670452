import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createRepositories } from '../../../src/services/index.ts';
import { getJson, startApp, type TestApp } from '../../helpers/app.ts';
import { connect, textOf } from '../../helpers/mcp.ts';
import { incident, maintenance } from '../../helpers/records.ts';

// "Is it us or them" over REST and through the MCP SDK client (docs/diagnose.md), on the
// real catalog's hosts with records written as ingestion writes them.

const HOUR = 3_600_000;
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

describe('diagnose: is it us or them', () => {
  let t: TestApp;
  const ask = (q: string) => getJson(`${t.url}/api/v1/infrastructure/diagnose?q=${encodeURIComponent(q)}`);

  before(async () => {
    t = await startApp();
    const r = createRepositories(t.store);
    await r.incidents.upsert(
      incident('stripe', 'api', {
        title: 'Elevated error rates on the API',
        impact: 'major',
        status: 'investigating',
        startedAt: ago(HOUR),
        components: ['API'],
      }),
      'f',
    );
    await r.maintenances.upsert(
      maintenance('github', 'now', { title: 'Git database maintenance', status: 'in_progress', scheduledFor: ago(HOUR), startedAt: ago(HOUR) }),
      'f',
    );
    // AWS was read and reports nothing open.
    await r.status.setStatus('amazon-web-services', { indicator: 'operational', description: 'All Systems Operational', checkedAt: ago(60_000) });
  });
  after(async () => t?.close());

  test('ECONNRESET api.stripe.com during a Stripe incident: them, high', async () => {
    const res = await ask('Error: read ECONNRESET api.stripe.com');
    assert.equal(res.status, 200);
    const [d] = res.body.items;
    assert.deepEqual(d.hosts, ['api.stripe.com']);
    assert.deepEqual(
      d.matches.map((m: any) => [m.vendor, m.matched, m.strength]),
      [['stripe', 'stripe.com', 'listed']],
    );
    assert.equal(d.verdict, 'vendor_incident');
    assert.equal(d.confidence, 'high');
    assert.equal(d.vendors[0].incidents[0].title, 'Elevated error rates on the API');
    assert.deepEqual(d.errorHints, [{ kind: 'connection', token: 'ECONNRESET' }]);
  });

  test('502 Bad Gateway from github.com during maintenance: maintenance, medium', async () => {
    const [d] = (await ask('502 Bad Gateway from github.com')).body.items;
    assert.equal(d.verdict, 'vendor_maintenance');
    assert.equal(d.confidence, 'medium');
    assert.match(d.summary, /Git database maintenance/);
  });

  test('an S3 error naming us-east-1 while AWS reports nothing: not ruled out, low', async () => {
    const [d] = (await ask('S3 PutObject failed: 503 Slow Down (s3.us-east-1.amazonaws.com)')).body.items;
    assert.equal(d.vendors[0].vendor, 'amazon-web-services');
    assert.equal(d.vendors[0].observed, true);
    assert.equal(d.verdict, 'vendor_reports_no_problem');
    assert.equal(d.confidence, 'low');
    assert.match(d.summary, /lag/);
  });

  test('a vendor never read is unknown, never "operational"', async () => {
    const [d] = (await ask('timeout calling api.openai.com')).body.items;
    assert.equal(d.vendors[0].vendor, 'openai');
    assert.equal(d.vendors[0].observed, false);
    assert.notEqual(d.vendors[0].indicator, 'operational');
    assert.equal(d.confidence, 'low');
  });

  test('a vendor with no machine-readable source is "not monitored", never "operational"', async () => {
    // Okta is in the catalog without a status source.
    const [d] = (await ask('401 from mycompany.okta.com')).body.items;
    assert.equal(d.vendors[0].vendor, 'okta');
    assert.equal(d.vendors[0].monitored, false);
    assert.equal(d.confidence, 'low');
    assert.match(d.summary, /not monitored/);
  });

  test('an unknown host: no vendor matches', async () => {
    const [d] = (await ask('ECONNREFUSED db.internal.example.org:5432')).body.items;
    assert.equal(d.verdict, 'no_vendor_matches');
    assert.deepEqual(d.vendors, []);
  });

  test('hostile input: control characters, too long, missing, repeated, unknown parameters → 400 with the error body', async () => {
    for (const q of ['a\u0000b', 'x\u001bb', 'y'.repeat(2001)]) {
      const res = await ask(q);
      assert.equal(res.status, 400, JSON.stringify(q.slice(0, 10)));
      assert.equal(res.body.success, false);
    }
    assert.equal((await getJson(`${t.url}/api/v1/infrastructure/diagnose`)).status, 400);
    assert.equal((await getJson(`${t.url}/api/v1/infrastructure/diagnose?q=`)).status, 400);
    assert.equal((await getJson(`${t.url}/api/v1/infrastructure/diagnose?q=a.com&q=b.com`)).status, 400);
    assert.equal((await getJson(`${t.url}/api/v1/infrastructure/diagnose?q=a.com&vendor=x`)).status, 400);
    // Line breaks and tabs of a pasted stack trace are fine.
    const trace = await ask('Error: 503\n\tat fetch (node:internal)\n\tat api.stripe.com');
    assert.equal(trace.status, 200);
    // A host made of many labels is bounded, never a hang.
    assert.equal((await ask(`${'a.'.repeat(990)}com`)).status, 200);
  });

  test('the MCP tool answers the same through the SDK client, without sign-in', async () => {
    const c = await connect(`${t.url}/mcp`);
    try {
      const res = await c.client.callTool({ name: 'diagnose', arguments: { input: 'ECONNRESET api.stripe.com' } });
      assert.equal(res.isError, undefined);
      const text = textOf(res);
      assert.match(text, /vendor incident \(confidence high\)/);
      assert.match(text, /Stripe/);
      assert.equal((res.structuredContent as any).verdict, 'vendor_incident');
      const none = await c.client.callTool({ name: 'diagnose', arguments: { input: 'checkout-api is slow' } });
      assert.match(textOf(none), /No host name found/);
    } finally {
      await c.close();
    }
  });
});
