import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { readCatalog } from '../../../src/services/vendors/catalog-loader.ts';
import { incidentsRepository } from '../../../src/store/repositories/incidents-repository.ts';
import { maintenancesRepository } from '../../../src/store/repositories/maintenances-repository.ts';
import { statusRepository } from '../../../src/store/repositories/status-repository.ts';
import { getJson, startApp, TestClock, type TestApp } from '../../helpers/app.ts';
import { connect, type Connected, createKey, createUser, textOf } from '../../helpers/mcp.ts';
import { incident, maintenance } from '../../helpers/records.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

describe('MCP tools over Streamable HTTP', () => {
  let t: TestApp;
  let c: Connected;

  before(async () => {
    t = await startApp();
    const inc = incidentsRepository(t.store.db);
    await inc.upsert(
      incident('github', 'a', {
        title: 'Degraded Actions',
        startedAt: ago(2 * HOUR),
        impact: 'major',
        components: ['Actions'],
        url: 'https://www.githubstatus.com/incidents/a',
      }),
      'f',
    );
    await inc.upsert(incident('cloudflare', 'c', { startedAt: ago(1 * HOUR), impact: 'minor', status: 'monitoring', sourceStatus: 'monitoring' }), 'f');
    await inc.upsert(incident('github', 'old', { startedAt: ago(3 * DAY), status: 'resolved' }), 'f');
    await inc.upsert(incident('github', 'older', { startedAt: ago(20 * DAY), status: 'resolved', impact: 'critical' }), 'f');
    await maintenancesRepository(t.store.db).upsert(maintenance('github', 'm1'), 'f');
    // A status page that reports trouble without an incident we know of.
    await statusRepository(t.store.db).setStatus('datadog', { indicator: 'degraded', description: 'Degraded performance', checkedAt: ago(60_000) });
    c = await connect(`${t.url}/mcp`);
  });
  after(async () => {
    await c?.close();
    await t.close();
  });

  test('lists ten tools, each with input and output schemas; all read-only but the report', async () => {
    const { tools } = await c.client.listTools();
    assert.deepEqual(tools.map((x) => x.name).sort(), [
      'diagnose',
      'get_active_incidents',
      'get_impact',
      'get_incident_history',
      'get_maintenance',
      'get_vendor_status',
      'list_services',
      'list_signals',
      'list_vendors',
      'report_vendor_problem',
    ]);
    for (const tool of tools) {
      assert.equal(tool.inputSchema.type, 'object', tool.name);
      assert.equal(tool.outputSchema?.type, 'object', tool.name);
      assert.ok(tool.description && tool.description.length > 40, tool.name);
      assert.equal(tool.annotations?.readOnlyHint, tool.name !== 'report_vendor_problem', tool.name);
    }
    const history = tools.find((x) => x.name === 'get_incident_history')!;
    assert.deepEqual(Object.keys(history.inputSchema.properties ?? {}).sort(), ['limit', 'status', 'timePeriod', 'vendor']);
  });

  test('server info and instructions tell an assistant which tool answers what', async () => {
    assert.equal(c.client.getServerVersion()?.name, 'vendor-infrastructure-status');
    assert.match(c.client.getInstructions() ?? '', /get_active_incidents/);
  });

  test('list_vendors: the whole catalog, filters, and a helpful empty answer', async () => {
    const all = await c.client.callTool({ name: 'list_vendors', arguments: {} });
    const catalog = readCatalog();
    const data = all.structuredContent as any;
    assert.equal(data.count, catalog.length);
    assert.equal(data.vendors.length, catalog.length);
    assert.ok(data.vendors.some((v: any) => v.id === 'github' && v.name === 'GitHub'));
    assert.match(textOf(all), /GitHub \(id: github/);

    const cloud = (await c.client.callTool({ name: 'list_vendors', arguments: { category: 'CLOUD' } })).structuredContent as any;
    assert.ok(cloud.count > 0);
    assert.ok(cloud.vendors.every((v: any) => v.category === 'cloud'));

    const search = (await c.client.callTool({ name: 'list_vendors', arguments: { search: 'git' } })).structuredContent as any;
    assert.ok(search.vendors.some((v: any) => v.id === 'github'));

    const none = await c.client.callTool({ name: 'list_vendors', arguments: { category: 'no-such-category' } });
    assert.equal(none.isError, undefined);
    assert.equal((none.structuredContent as any).count, 0);
    assert.match(textOf(none), /Categories: .*cloud/);
  });

  test('get_vendor_status: by slug or by name, derived indicator, ongoing incident in the text', async () => {
    const r = await c.client.callTool({ name: 'get_vendor_status', arguments: { vendor: 'github' } });
    assert.equal(r.isError, undefined);
    const s = r.structuredContent as any;
    assert.equal(s.vendor, 'github');
    assert.equal(s.indicator, 'partial_outage');
    assert.deepEqual(
      s.activeIncidents.map((i: any) => i.id),
      ['github:a'],
    );
    assert.equal(s.activeIncidents[0].vendorName, 'GitHub');
    assert.match(textOf(r), /GitHub: Partial System Outage/);
    assert.match(textOf(r), /Degraded Actions \[impact major\] investigating since/);
    assert.match(textOf(r), /Affects: Actions/);

    const byName = await c.client.callTool({ name: 'get_vendor_status', arguments: { vendor: 'GitHub' } });
    assert.equal((byName.structuredContent as any).vendor, 'github');
  });

  test('an unknown vendor is a tool error that suggests the right id', async () => {
    const r = await c.client.callTool({ name: 'get_vendor_status', arguments: { vendor: 'githu' } });
    assert.equal(r.isError, true);
    assert.equal(r.structuredContent, undefined);
    assert.match(textOf(r), /Unknown vendor 'githu'\. Did you mean: github/);
    const many = await c.client.callTool({ name: 'get_active_incidents', arguments: { vendors: ['github', 'nope-one', 'nope-two'] } });
    assert.equal(many.isError, true);
    assert.match(textOf(many), /Unknown vendors 'nope-one', 'nope-two'/);
  });

  test('bad arguments are a tool error naming the argument, not a protocol error', async () => {
    const r = await c.client.callTool({ name: 'get_active_incidents', arguments: { impact: 'huge' } });
    assert.equal(r.isError, true);
    assert.match(textOf(r), /impact/);
    const empty = await c.client.callTool({ name: 'get_vendor_status', arguments: {} });
    assert.equal(empty.isError, true);
    assert.match(textOf(empty), /vendor/);
  });

  test('get_active_incidents: what is down right now, worst first, with status-page-only trouble', async () => {
    const r = await c.client.callTool({ name: 'get_active_incidents', arguments: {} });
    const d = r.structuredContent as any;
    assert.deepEqual(
      d.incidents.map((i: any) => i.id),
      ['github:a', 'cloudflare:c'],
    );
    assert.equal(d.count, 2);
    assert.equal(d.total, 2);
    assert.deepEqual(d.vendorsNotOperational, [{ vendor: 'datadog', vendorName: 'Datadog', indicator: 'degraded', description: 'Minor Service Outage' }]);
    assert.equal(d.source, 'live');
    const text = textOf(r);
    assert.match(text, /^2 ongoing incidents at 2 vendors across all watched vendors:/);
    assert.match(text, /GitHub: Degraded Actions \[impact major\]/);
    assert.match(text, /Datadog: Minor Service Outage \(degraded\)/);
    assert.match(text, /No status page has been polled successfully yet/);

    const major = (await c.client.callTool({ name: 'get_active_incidents', arguments: { impact: 'major' } })).structuredContent as any;
    assert.deepEqual(
      major.incidents.map((i: any) => i.id),
      ['github:a'],
    );
    const cf = (await c.client.callTool({ name: 'get_active_incidents', arguments: { vendors: ['Cloudflare'] } })).structuredContent as any;
    assert.deepEqual(
      cf.incidents.map((i: any) => i.id),
      ['cloudflare:c'],
    );
    assert.deepEqual(cf.vendorsNotOperational, []);
    const quiet = await c.client.callTool({ name: 'get_active_incidents', arguments: { vendors: ['datadog'], impact: 'minor' } });
    assert.match(textOf(quiet), /No ongoing incidents with impact minor or worse for Datadog\./);
  });

  test('history without a token: HTTP 401 pointing at the protected-resource metadata', async () => {
    await assert.rejects(
      c.client.callTool({ name: 'get_incident_history', arguments: { vendor: 'github' } }),
      (err: unknown) => err instanceof StreamableHTTPError && err.code === 401,
    );
    await assert.rejects(
      c.client.callTool({ name: 'get_maintenance', arguments: {} }),
      (err: unknown) => err instanceof StreamableHTTPError && err.code === 401,
    );
    const raw = await fetch(`${t.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_incident_history', arguments: {} } }),
    });
    assert.equal(raw.status, 401);
    const www = raw.headers.get('www-authenticate') ?? '';
    assert.match(www, /^Bearer /);
    assert.match(www, new RegExp(`resource_metadata="${t.url}/\\.well-known/oauth-protected-resource/mcp"`));
    assert.match(www, /scope="history:read"/);
    assert.doesNotMatch(www, /error=/);
    const body = await raw.json();
    assert.equal(body.error, 'unauthorized');
    assert.match(body.message, /get_incident_history needs a bearer token/);
  });

  test('a wrong bearer token is 401 invalid_token, even for public tools', async () => {
    await assert.rejects(
      connect(`${t.url}/mcp`, { token: 'vis_wrongwrongwrongwrongwrongwrongwrong' }),
      (err: unknown) => err instanceof StreamableHTTPError && err.code === 401,
    );
    const raw = await fetch(`${t.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: 'Bearer mcp_at_nope' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    assert.equal(raw.status, 401);
    assert.match(raw.headers.get('www-authenticate') ?? '', /error="invalid_token"/);
    const basic = await fetch(`${t.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: 'Basic Zm9vOmJhcg==' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    assert.equal(basic.status, 401);
  });

  test('an API key works as a bearer token for the history tools', async () => {
    const user = await createUser(t, 'free');
    const key = await createKey(t, user);
    const k = await connect(`${t.url}/mcp`, { token: key });
    try {
      const r = await k.client.callTool({ name: 'get_incident_history', arguments: { vendor: 'github', timePeriod: '30d' } });
      assert.equal(r.isError, undefined, textOf(r));
      const d = r.structuredContent as any;
      assert.equal(d.plan, 'free');
      assert.deepEqual(d.dataWindow.capped, true);
      assert.equal(d.dataWindow.applied, '7d');
      // The 20-day-old incident is outside a free plan's 7 days.
      assert.deepEqual(
        d.incidents.map((i: any) => i.id),
        ['github:a', 'github:old'],
      );
      assert.match(textOf(r), /your free plan covers 7 days of history, so the requested 30d was shortened to 7d/);

      const m = await k.client.callTool({ name: 'get_maintenance', arguments: { vendor: 'github' } });
      assert.deepEqual(
        (m.structuredContent as any).maintenance.map((x: any) => x.id),
        ['github:m1'],
      );
      assert.match(textOf(m), /1 upcoming or ongoing maintenance window for GitHub/);

      const bad = await k.client.callTool({ name: 'get_incident_history', arguments: { timePeriod: '30 days' } });
      assert.equal(bad.isError, true);
      assert.match(textOf(bad), /Invalid argument: Invalid parameter 'timePeriod'/);

      // X-API-Key is accepted as well.
      const x = await connect(`${t.url}/mcp`, { headers: { 'X-API-Key': key } });
      const r2 = await x.client.callTool({ name: 'get_incident_history', arguments: { vendor: 'github', status: 'resolved' } });
      assert.deepEqual(
        (r2.structuredContent as any).incidents.map((i: any) => i.id),
        ['github:old'],
      );
      await x.close();
    } finally {
      await k.close();
    }
  });

  test('GET and DELETE /mcp answer 405 (stateless server)', async () => {
    for (const method of ['GET', 'DELETE']) {
      const r = await fetch(`${t.url}/mcp`, { method, headers: { accept: 'text/event-stream' } });
      assert.equal(r.status, 405, method);
      assert.equal(r.headers.get('allow'), 'POST');
    }
  });

  test('a foreign browser Origin is refused (DNS-rebinding guard)', async () => {
    const r = await fetch(`${t.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', origin: 'https://evil.example' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    assert.equal(r.status, 403);
    const own = await fetch(`${t.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', origin: t.url },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    assert.equal(own.status, 200);
  });

  test('malformed requests get HTTP errors, never a 500', async () => {
    const notJson = await getJson(`${t.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: '{nope',
    });
    assert.equal(notJson.status, 400);
    const noAccept = await fetch(`${t.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    assert.equal(noAccept.status, 406);
    const text = await fetch(`${t.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain', accept: 'application/json, text/event-stream' },
      body: 'hi',
    });
    assert.equal(text.status, 415);
  });
});

describe('MCP quota', () => {
  let t: TestApp;
  before(async () => {
    // The real plan table: anonymous callers get 10 requests a minute. A clock that stands
    // still, so the eleven calls never straddle the end of a minute window.
    t = await startApp({ clock: new TestClock(new Date('2026-11-29T12:00:10Z')), env: { RATE_LIMITS: '{}' } });
  });
  after(async () => t.close());

  test('tool calls count toward the anonymous per-IP quota; listing tools does not', async () => {
    const c = await connect(`${t.url}/mcp`);
    try {
      for (let i = 0; i < 3; i++) await c.client.listTools();
      for (let i = 1; i <= 10; i++) {
        const r = await c.client.callTool({ name: 'list_vendors', arguments: { search: 'github' } });
        assert.equal(r.isError, undefined, `call ${i}: ${textOf(r)}`);
        assert.equal(c.last()?.get('x-ratelimit-remaining'), String(10 - i));
      }
      assert.match(c.last()?.get('ratelimit-policy') ?? '', /"minute";q=10;w=60/);
      const over = await c.client.callTool({ name: 'list_vendors', arguments: {} });
      assert.equal(over.isError, true);
      assert.match(textOf(over), /Rate limit exceeded: 10 requests per minute on the anonymous plan/);
      assert.ok(Number(c.last()?.get('retry-after')) > 0);
      // Still answers what costs nothing.
      assert.ok((await c.client.listTools()).tools.length === 10);
    } finally {
      await c.close();
    }
  });

  test('a key is counted on its own, not on the IP', async () => {
    const user = await createUser(t, 'free');
    const key = await createKey(t, user);
    const k = await connect(`${t.url}/mcp`, { token: key });
    try {
      const r = await k.client.callTool({ name: 'get_active_incidents', arguments: {} });
      assert.equal(r.isError, undefined, textOf(r));
      assert.equal(k.last()?.get('x-ratelimit-remaining'), '9');
    } finally {
      await k.close();
    }
  });
});
