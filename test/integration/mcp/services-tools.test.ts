import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { ownerViewer } from '../../helpers/access.ts';
import { connect, createKey, createUser, textOf } from '../../helpers/mcp.ts';
import { incident } from '../../helpers/records.ts';

// list_services and get_impact through the SDK's own client (docs/services.md "MCP tools"):
// the caller's organisation only, signed-in callers only.

describe('MCP tools for our services', () => {
  let t: TestApp;
  let key: string;
  let otherKey: string;

  before(async () => {
    t = await startApp();
    const user = await createUser(t, 'pro');
    const other = await createUser(t, 'pro');
    key = await createKey(t, user);
    otherKey = await createKey(t, other);
    await t.repos.status.replaceComponents(
      'github',
      [{ id: 'cmp-actions', name: 'Actions', status: 'partial_outage', group: null, position: 1 }],
      new Date().toISOString(),
    );
    const v = ownerViewer(user.userId, 'pro');
    await t.app.services.teamServices.create(v, user.userId, {
      name: 'ci',
      criticality: 'critical',
      dependencies: [{ vendor: 'github', components: ['cmp-actions'] }],
    });
    await t.app.services.teamServices.create(v, user.userId, { name: 'billing', dependencies: [{ vendor: 'stripe', kind: 'soft' }] });
    await t.app.services.teamServices.create(ownerViewer(other.userId, 'pro'), other.userId, { name: 'secret-of-other', dependencies: [{ vendor: 'github' }] });
    await t.repos.incidents.upsert(incident('github', 'a', { title: 'Degraded performance for Actions', components: ['Actions'] }), 'f');
  });
  after(async () => {
    await t?.close();
  });

  test('list_services: our services and their dependencies, filtered by vendor', async () => {
    const c = await connect(`${t.url}/mcp`, { token: key });
    try {
      const r = await c.client.callTool({ name: 'list_services', arguments: {} });
      assert.equal(r.isError, undefined, textOf(r));
      const d = r.structuredContent as any;
      assert.deepEqual(
        d.services.map((s: any) => s.name),
        ['billing', 'ci'],
      );
      assert.deepEqual(d.services[1].dependencies[0].components, [{ id: 'cmp-actions', name: 'Actions' }]);
      assert.match(textOf(r), /ci \(critical\): github \[Actions\]/);
      assert.ok(!textOf(r).includes('secret-of-other'));
      const only = (await c.client.callTool({ name: 'list_services', arguments: { vendor: 'stripe' } })).structuredContent as any;
      assert.deepEqual(
        only.services.map((s: any) => s.name),
        ['billing'],
      );
      const bad = await c.client.callTool({ name: 'list_services', arguments: { vendor: '../etc' } });
      assert.equal(bad.isError, true);
    } finally {
      await c.close();
    }
  });

  test('get_impact: what the open incidents hit of ours, with reasons', async () => {
    const c = await connect(`${t.url}/mcp`, { token: key });
    try {
      const r = await c.client.callTool({ name: 'get_impact', arguments: {} });
      assert.equal(r.isError, undefined, textOf(r));
      const d = r.structuredContent as any;
      assert.equal(d.openRecords, 1);
      assert.deepEqual(
        d.services.map((s: any) => [s.serviceName, s.confidence]),
        [['ci', 'high']],
      );
      assert.deepEqual(d.services[0].records[0].reasons, ["component 'Actions' listed"]);
      assert.match(textOf(r), /1 service hit now/);
      assert.match(textOf(r), /ci \(critical\): high confidence/);
    } finally {
      await c.close();
    }
    // The other organisation sees its own service hit, never ours.
    const o = await connect(`${t.url}/mcp`, { token: otherKey });
    try {
      const d = (await o.client.callTool({ name: 'get_impact', arguments: {} })).structuredContent as any;
      assert.deepEqual(
        d.services.map((s: any) => [s.serviceName, s.confidence]),
        [['secret-of-other', 'low']],
      );
    } finally {
      await o.close();
    }
  });

  test('anonymous callers are refused both tools', async () => {
    for (const name of ['list_services', 'get_impact']) {
      const res = await fetch(`${t.url}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: {} } }),
      });
      assert.equal(res.status, 401, name);
    }
  });
});
