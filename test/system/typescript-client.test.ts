import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { CLIENT_DIR, CLIENT_SCHEMA_FILE, clientSchemaSource } from '../../scripts/client-schema.ts';
import { buildOpenApiDocument } from '../../scripts/openapi-document.ts';
import { startApp, type TestApp } from '../helpers/app.ts';
import { userWithKey, type TestUser } from '../helpers/access.ts';
import { incident } from '../helpers/records.ts';
import { commitEvents } from '../helpers/stream.ts';
import { waitFor } from '../helpers/wait.ts';

// The TypeScript client in clients/typescript (docs/client.md): its generated types
// match the document the app serves, it builds, and the built package talks to a real
// server: REST calls with a key, and the stream helper resuming across a forced drop.

type ClientModule = typeof import('../../clients/typescript/src/index.ts');
const run = promisify(execFile);

test('clients/typescript/src/schema.d.ts is what `npm run client:generate` writes from the current document', async () => {
  const fresh = await clientSchemaSource(await buildOpenApiDocument());
  const committed = fs.readFileSync(CLIENT_SCHEMA_FILE, 'utf8');
  assert.ok(fresh === committed, 'schema.d.ts is stale: run `npm run client:generate` and commit the result');
});

describe('the built client against a running server', { timeout: 120_000 }, () => {
  let t: TestApp;
  let user: TestUser;
  let client: ClientModule;
  before(async () => {
    // Built with the client's own compiler (TypeScript 5, its devDependency), as it is published.
    await run(path.join(CLIENT_DIR, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.json'], { cwd: CLIENT_DIR });
    fs.copyFileSync(CLIENT_SCHEMA_FILE, path.join(CLIENT_DIR, 'dist/schema.d.ts'));
    client = (await import(pathToFileURL(path.join(CLIENT_DIR, 'dist/index.js')).href)) as ClientModule;
    t = await startApp();
    user = await userWithKey(t, 'pro', 'client');
    await t.repos.incidents.upsert(incident('github', 'cl-a'), 'fa');
  });
  after(async () => t?.close());

  test('typed REST calls with an API key: vendor list, incidents, watchlist, error bodies', async () => {
    const api = client.createVendorStatusClient({ baseUrl: t.url, apiKey: user.secret });
    const vendors = await api.GET('/api/v1/infrastructure/vendor-list');
    assert.equal(vendors.response.status, 200);
    assert.ok(vendors.data?.success);

    const inc = await api.GET('/api/v1/infrastructure/incidents', { params: { query: { vendor: 'github', limit: 5 } } });
    assert.equal(inc.response.status, 200);
    assert.deepEqual(
      inc.data!.items.map((i) => i.id),
      ['github:cl-a'],
    );

    const put = await api.PUT('/api/v1/infrastructure/watchlist', { body: { vendors: ['github', 'cloudflare'] } });
    assert.equal(put.response.status, 200);
    assert.deepEqual(put.data!.vendors, ['github', 'cloudflare']);
    const got = await api.GET('/api/v1/infrastructure/watchlist');
    assert.equal(got.data!.count, 2);

    // A documented error arrives typed as the error body.
    const missing = await api.POST('/api/v1/infrastructure/watchlist/{vendor}', { params: { path: { vendor: 'no-such-vendor' } } });
    assert.equal(missing.response.status, 404);
    assert.equal(missing.error!.error, 'not_found');

    // Without the key the per-user route refuses.
    const anon = client.createVendorStatusClient({ baseUrl: t.url });
    const refused = await anon.GET('/api/v1/infrastructure/watchlist');
    assert.equal(refused.response.status, 401);
  });

  test('the stream helper resumes with Last-Event-ID across a forced disconnect: nothing lost, nothing twice', async () => {
    const sent: (string | null)[] = [];
    let connections = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    // Counts connections and holds the reconnect until the test has committed events during the gap.
    const gatedFetch: typeof fetch = async (input, init) => {
      connections++;
      sent.push(new Headers(init?.headers).get('last-event-id'));
      if (connections === 2) await gate;
      return fetch(input, init);
    };
    const abort = new AbortController();
    const drops: unknown[] = [];
    const stream = client.streamIncidents({
      baseUrl: t.url,
      apiKey: user.secret,
      query: { vendor: 'github' },
      retryMs: 50,
      fetch: gatedFetch,
      signal: abort.signal,
      onDisconnect: (err) => drops.push(err),
    });
    const seen: { event: string; id: string | null; incident?: string }[] = [];
    const next = async () => {
      const r = await stream.next();
      assert.ok(!r.done);
      const m = r.value;
      // The event name narrows the payload type.
      if (m.event === 'snapshot') assert.equal(typeof m.data.total, 'number');
      const incidentId = m.event === 'snapshot' || m.event === 'shutdown' || m.event === 'early_warning' ? undefined : m.data.incident.id;
      seen.push({ event: m.event, id: m.id, incident: incidentId });
      return m;
    };

    const snap = await next();
    assert.equal(snap.event, 'snapshot');
    const before = await commitEvents(t, [
      { vendor: 'github', id: 'r-1', type: 'incident.created' },
      { vendor: 'github', id: 'r-2', type: 'incident.created' },
    ]);
    await next();
    await next();
    // The server drops every connection (as a restart or a proxy would).
    t.app.server.closeAllConnections();
    const gap = await commitEvents(t, [
      { vendor: 'github', id: 'r-1', type: 'incident.updated' },
      { vendor: 'cloudflare', id: 'r-x', type: 'incident.created' },
      { vendor: 'github', id: 'r-3', type: 'incident.created' },
    ]);
    const pending = next();
    // Wait until the helper has noticed the drop and is reconnecting, then let it through.
    await waitFor(() => connections >= 2, { message: 'the reconnection', timeoutMs: 30_000, intervalMs: 20 });
    release();
    await pending;
    await next();
    const afterDrop = await commitEvents(t, [{ vendor: 'github', id: 'r-2', type: 'incident.resolved', over: { status: 'resolved' } }]);
    await next();
    abort.abort();
    await stream.return(undefined);

    assert.equal(connections, 2);
    assert.equal(drops.length, 1);
    assert.deepEqual(sent, [null, String(before[1]!.seq)], 'the reconnect sent the last id it had received');
    const github = [...before, gap[0]!, gap[2]!, ...afterDrop];
    assert.deepEqual(
      seen.slice(1).map((s) => s.id),
      github.map((e) => String(e.seq)),
      'every github event once, in order, the ones committed during the gap included',
    );
    assert.deepEqual(
      seen.slice(1).map((s) => `${s.event} ${s.incident}`),
      [
        'incident.created github:r-1',
        'incident.created github:r-2',
        'incident.updated github:r-1',
        'incident.created github:r-3',
        'incident.resolved github:r-2',
      ],
    );
  });

  test('a refusal that retrying cannot cure ends the iteration with StreamRequestError', async () => {
    const stream = client.streamIncidents({ baseUrl: t.url, query: { vendor: 'no-such-vendor' } });
    await assert.rejects(stream.next(), (err: unknown) => err instanceof client.StreamRequestError && err.status === 404);
  });
});

describe('SseParser', () => {
  test('splits on any line ending, joins data lines, keeps the last id, reads retry', async () => {
    const { SseParser } = await import('../../clients/typescript/src/stream.ts');
    const p = new SseParser();
    const a = p.push('retry: 700\r\nid: 4\r\nevent: snapshot\r\ndata: {"a":\r\ndata: 1}\r');
    assert.deepEqual(a, []);
    const b = p.push('\n\r\n: ping\n\nevent: shutdown\ndata: {}\n\n');
    assert.deepEqual(b, [
      { event: 'snapshot', id: '4', data: '{"a":\n1}' },
      { event: 'shutdown', id: null, data: '{}' },
    ]);
    assert.equal(p.lastEventId, '4');
    assert.equal(p.retry, 700);
  });
});
