import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createRepositories } from '../../../src/services/index.ts';
import { getJson, startApp, type TestApp } from '../../helpers/app.ts';
import { connect, textOf } from '../../helpers/mcp.ts';
import { incident, maintenance } from '../../helpers/records.ts';
import { createUser, send, type TestUser } from '../../helpers/users.ts';

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
    // Hetzner is in the catalog without a status source.
    const [d] = (await ask('503 from robot.hetzner.com')).body.items;
    assert.equal(d.vendors[0].vendor, 'hetzner');
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

// A member of an organisation with services gets its own answer (docs/diagnose.md "Our
// services"): which of its services depend on the vendor, its open early-warning signals (a
// suspected one makes the verdict `early_warning` while the page says nothing), and an input
// naming one of its services is read as that service's vendors. Anonymous callers and other
// organisations never see any of it.
describe('diagnose for a team: our services, our signals, a service named', () => {
  let t: TestApp;
  let team: TestUser;
  let other: TestUser;
  const ask = (q: string, u?: TestUser) =>
    getJson(`${t.url}/api/v1/infrastructure/diagnose?q=${encodeURIComponent(q)}`, u ? { headers: u.headers } : undefined);

  before(async () => {
    t = await startApp();
    team = await createUser(t, 'pro');
    other = await createUser(t, 'pro');
    const made = await send(`${t.url}/api/v1/orgs/${team.id}/services`, 'POST', team.headers, {
      name: 'checkout-api',
      criticality: 'critical',
      dependencies: [
        { vendor: 'stripe', kind: 'hard' },
        { vendor: 'cloudflare', kind: 'soft', regions: ['us-east-1'] },
      ],
    });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    // The other organisation has services too (so its answers are its own), none on Stripe.
    assert.equal(
      (await send(`${t.url}/api/v1/orgs/${other.id}/services`, 'POST', other.headers, { name: 'search', dependencies: [{ vendor: 'algolia' }] })).status,
      201,
    );
    const now = new Date().toISOString();
    await t.repos.earlyWarning.createSignal({
      id: 'sig_diagnose_1',
      orgId: team.id,
      vendor: 'stripe',
      state: 'suspected',
      confidence: 0.72,
      components: [],
      regions: [],
      openedAt: now,
      updatedAt: now,
      lastObservedAt: now,
      incidentId: null,
      evidence: [],
    });
    await t.repos.status.setStatus('stripe', { indicator: 'operational', description: 'All Systems Operational', checkedAt: now });
  });
  after(async () => t?.close());

  test('our services and our suspected signal: early warning before the vendor says anything', async () => {
    const [d] = (await ask('Error: read ECONNRESET api.stripe.com', team)).body.items;
    assert.equal(d.verdict, 'early_warning');
    assert.equal(d.confidence, 'medium');
    assert.match(d.summary, /Your early warning suspects Stripe since .* \(confidence 72 %\); its status page reports no incident yet/);
    const stripe = d.vendors.find((v: any) => v.vendor === 'stripe');
    assert.deepEqual(stripe.ourServices, [{ service: 'checkout-api', criticality: 'critical', dependency: 'hard', components: [], regions: [] }]);
    assert.deepEqual(
      stripe.signals.map((s: any) => [s.id, s.state, s.confidence]),
      [['sig_diagnose_1', 'suspected', 0.72]],
    );
  });

  test('anonymous callers and another organisation see none of it, and get the public verdict', async () => {
    for (const u of [undefined, other]) {
      const [d] = (await ask('Error: read ECONNRESET api.stripe.com', u)).body.items;
      assert.equal(d.verdict, 'vendor_reports_no_problem');
      const stripe = d.vendors.find((v: any) => v.vendor === 'stripe');
      assert.ok(!JSON.stringify(d).includes('checkout-api') && !JSON.stringify(d).includes('sig_diagnose_1'));
      if (u) assert.deepEqual([stripe.ourServices, stripe.signals], [[], []]);
      else assert.deepEqual([stripe.ourServices, stripe.signals], [undefined, undefined], 'absent, not empty: not read for an anonymous caller');
    }
  });

  test('an input naming one of our services is read as its vendors; others do not know the name', async () => {
    const [d] = (await ask('checkout-api returns 502 since 14:02', team)).body.items;
    assert.deepEqual(
      d.matches.map((m: any) => [m.vendor, m.matched, m.strength]),
      [
        ['stripe', 'checkout-api', 'service'],
        ['cloudflare', 'checkout-api', 'service'],
      ],
    );
    // Two vendors; only Stripe is suspected: the early warning decides.
    assert.equal(d.verdict, 'early_warning');
    // A word that merely contains the name is not the name.
    assert.equal((await ask('my-checkout-api-v2 fails', team)).body.items[0].verdict, 'no_vendor_matches');
    assert.equal((await ask('checkout-api returns 502', other)).body.items[0].verdict, 'no_vendor_matches');
    assert.equal((await ask('checkout-api returns 502')).body.items[0].verdict, 'no_vendor_matches');
  });

  test('the MCP tool says the same to the team, through the SDK client with its key', async () => {
    const c = await connect(`${t.url}/mcp`, { token: team.key });
    try {
      const res = await c.client.callTool({ name: 'diagnose', arguments: { input: 'ECONNRESET api.stripe.com' } });
      const text = textOf(res);
      assert.match(text, /early warning \(confidence medium\)/);
      assert.match(text, /our early warning: suspected since/);
      assert.match(text, /our services depending on it: checkout-api \(critical, hard\)/);
    } finally {
      await c.close();
    }
  });
});
