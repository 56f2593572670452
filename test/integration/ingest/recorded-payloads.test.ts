import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { CatalogVendor, SourceType } from '../../../src/domain/records.ts';
import { parseSource } from '../../../src/ingest/adapters/index.ts';
import { readCatalog } from '../../../src/services/vendors/catalog-loader.ts';
import { startApp, TestClock, type TestApp } from '../../helpers/app.ts';

// Real recorded vendor payloads (not part of the repository, read at test time from
// the folder FIXTURES names) served by a local HTTP server and ingested by
// the real poller: every one is stored, and polling the same bytes again — with or
// without conditional requests — writes nothing.

const FIXTURES = path.resolve(import.meta.dirname, '../../../..', 'shared/fixtures/upstream');
const available = fs.existsSync(FIXTURES);

/** vendor, source type, path served, recorded file. */
const SERVED: [string, SourceType, string, string][] = [
  ['github', 'statuspage-v2', '/github/api/v2/summary.json', 'statuspage-v2/github/2026-07-24/summary.json'],
  ['github', 'statuspage-v2', '/github/api/v2/incidents.json', 'statuspage-v2/github/2024-09-17/incidents.json'],
  ['github', 'statuspage-atom', '/github/history.atom', 'rss-atom/github/history-2026-08-22.atom'],
  ['cloudflare', 'statuspage-v2', '/cloudflare/api/v2/summary.json', 'statuspage-v2/cloudflare/2026-07-29/summary.json'],
  ['discord', 'statuspage-v2', '/discord/api/v2/scheduled-maintenances.json', 'statuspage-v2/discord/2022-02-19/scheduled-maintenances.json'],
  ['anthropic', 'statuspage-v2', '/anthropic/api/v2/summary.json', 'statuspage-v2/anthropic/2026-07-29/summary.json'],
  ['openai', 'incidentio', '/openai/api/v2/summary.json', 'incidentio/openai/2026-07-22/api-v2-summary.json'],
  ['perplexity', 'instatus', '/perplexity/api/v2/summary.json', 'instatus/perplexity/2026-07-23/summary.json'],
  ['google-cloud', 'gcp-json', '/gcp/incidents.json', 'gcp/incidents-2022-07-03.json'],
  ['amazon-web-services', 'aws-currentevents', '/aws/public/currentevents', 'aws/currentevents-2026-08-01.json'],
  ['microsoft-azure', 'azure-rss', '/azure/en-us/status/feed/', 'azure/feed-2026-07-23-eus.xml'],
  ['hugging-face', 'betterstack', '/hf/index.json', 'betterstack/huggingface/2026-07-19/index.json'],
  ['mistral-ai', 'checkly', '/mistral/unresolved-incidents', 'checkly/mistral/2026-07-27/unresolved-incidents.json'],
];

describe('recorded upstream payloads through the real poller', {
  skip: available ? false : `recorded payloads not found at ${FIXTURES} (they live in the shared folder next to the repository)`,
}, () => {
  const clock = new TestClock(new Date('2026-08-25T12:00:00.000Z'));
  let server: http.Server;
  let t: TestApp;
  let catalogDir: string;
  let conditional = true;

  before(async () => {
    const files = new Map(SERVED.map(([, , p, f]) => [p, fs.readFileSync(path.join(FIXTURES, f))]));
    server = http.createServer((req, res) => {
      const body = files.get(new URL(req.url!, 'http://x').pathname);
      if (!body) {
        res.writeHead(404);
        return res.end();
      }
      const etag = `"${createHash('sha1').update(body).digest('hex')}"`;
      if (conditional && req.headers['if-none-match'] === etag) {
        res.writeHead(304, { etag });
        return res.end();
      }
      const type = req.url!.endsWith('.atom') ? 'application/atom+xml' : req.url!.includes('/feed/') ? 'application/rss+xml' : 'application/json';
      res.writeHead(200, { 'content-type': type, ...(conditional ? { etag } : {}) });
      res.end(body);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const real = readCatalog();
    const catalog: CatalogVendor[] = [...new Set(SERVED.map(([v]) => v))].map((slug) => ({
      ...real.find((v) => v.slug === slug)!,
      sources: SERVED.filter(([v]) => v === slug).map(([, type, p]) => ({ type, url: `${base}${p}` })),
    }));
    catalogDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vis-recorded-'));
    fs.writeFileSync(path.join(catalogDir, 'vendors.json'), JSON.stringify(catalog));
    t = await startApp({ clock, catalogFile: path.join(catalogDir, 'vendors.json') });
  });
  after(async () => {
    await t?.close();
    server?.closeAllConnections();
    await new Promise((r) => server?.close(r));
    if (catalogDir) fs.rmSync(catalogDir, { recursive: true, force: true });
  });

  test('every payload is fetched, parsed and stored', async () => {
    const report = await t.app.ingest.scheduler.runRound({ force: true });
    assert.deepEqual(
      report.outcomes.filter((o) => o.status === 'failed').map((o) => `${o.url}: ${o.error}`),
      [],
    );
    assert.equal(report.outcomes.length, SERVED.length);
    const repos = t.repos;
    let expectedCreated = 0;
    for (const [vendor, type, , file] of SERVED) {
      const url = report.outcomes.find((o) => o.vendor === vendor && o.type === type && o.url.endsWith(SERVED.find((s) => s[3] === file)![2]))!.url;
      const snap = parseSource(type, { vendor, url, body: fs.readFileSync(path.join(FIXTURES, file)), now: clock.now() });
      const ids = (snap.incidents ?? []).map((i) => i.id);
      const stored = await repos.incidents.getMany(ids);
      assert.equal(stored.size, new Set(ids).size, `${file}: incidents stored`);
      const mids = (snap.maintenances ?? []).map((m) => m.id);
      assert.equal((await repos.maintenances.getMany(mids)).size, new Set(mids).size, `${file}: maintenance stored`);
      if (snap.components?.length) assert.ok((await repos.status.componentRecords(vendor)).length > 0, `${file}: components`);
      if (snap.incidentsAreCompleteUnresolvedSet) expectedCreated += new Set(snap.incidents!.filter((i) => i.status !== 'resolved').map((i) => i.id)).size;
    }
    // First sight of a vendor: its open incidents are announced, its history is not.
    const created = (await repos.events.after(0, 10_000)).filter((e) => e.type === 'incident.created');
    assert.ok(created.length >= expectedCreated, `${created.length} created events for ${expectedCreated} open incidents in complete lists`);
    assert.equal((await repos.events.after(0, 10_000)).filter((e) => e.type === 'incident.resolved').length, 0);
  });

  test('the same bytes again write nothing: with 304s, and with full bodies', async () => {
    const seq = await t.repos.events.latestSeq();
    clock.advance(60_000);
    const r304 = await t.app.ingest.scheduler.runRound({ force: true });
    assert.deepEqual([...new Set(r304.outcomes.map((o) => o.status))], ['not_modified']);
    conditional = false;
    clock.advance(60_000);
    const full = await t.app.ingest.scheduler.runRound({ force: true });
    assert.deepEqual(
      full.outcomes.filter((o) => o.status !== 'unchanged').map((o) => `${o.url}: ${o.status} ${JSON.stringify(o.written)}`),
      [],
    );
    assert.equal(await t.repos.events.latestSeq(), seq);
  });
});
