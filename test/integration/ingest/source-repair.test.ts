import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { startApp, TestClock, type TestApp } from '../../helpers/app.ts';

// Self-healing of catalog sources (docs/catalog.md "Self-healing"), on whichever store the
// run uses: vendors whose Statuspage sources keep failing are probed at their page's
// documented endpoints, served on loopback with recorded payloads of other platforms.
// "Perplexity" moved to Instatus and its page still names itself Perplexity: applied at
// once and logged. "Globex" now serves a Better Stack page naming someone else: proposed,
// and polled as before until an operator accepts. Decisions survive a restart; a repair is
// taken back by rejecting it.

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../shared/fixtures/upstream');
const INSTATUS = fs.readFileSync(path.join(FIXTURES, 'instatus/perplexity/2026-07-23/summary.json'));
const BETTERSTACK = fs.readFileSync(path.join(FIXTURES, 'betterstack/huggingface/2026-07-19/index.json'));

function startPages() {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    const p = (req.url ?? '/').split('?')[0]!;
    hits.push(p);
    const send = (status: number, type: string, body: string | Buffer) => {
      res.writeHead(status, { 'content-type': type });
      res.end(body);
    };
    if (p === '/perplexity/summary.json') return send(200, 'application/json', INSTATUS);
    if (p === '/globex/index.json') return send(200, 'application/json', BETTERSTACK);
    // The page itself: HTML without a platform marker; every other endpoint is gone.
    if (p === '/perplexity' || p === '/globex' || p === '/initech')
      return send(200, 'text/html', '<html><head><title>Status</title></head><body>ok</body></html>');
    send(404, 'text/plain', 'not found');
  });
  return new Promise<{ url: string; hits: string[]; close(): Promise<void> }>((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ url: `http://127.0.0.1:${port}`, hits, close: () => new Promise((r) => server.close(() => r())) });
    }),
  );
}

const vendor = (slug: string, name: string, pageUrl: string) => ({
  slug,
  name,
  website: 'https://example.com',
  category: 'ai-ml',
  description: 'A vendor of the self-healing test.',
  statusPageUrl: pageUrl,
  availableDataTypes: ['incidents', 'maintenance', 'advisories'],
  sources: [
    { type: 'statuspage-v2', url: `${pageUrl}/api/v2/summary.json` },
    { type: 'statuspage-v2', url: `${pageUrl}/api/v2/incidents.json`, intervalSeconds: 300 },
    { type: 'advisory-feed', url: `${pageUrl}/security.rss`, intervalSeconds: 3600 },
  ],
  compliance: { sourceUrl: 'https://example.com', items: [] },
  evidence: [{ key: 'FX', commit: '0'.repeat(40), gave: ['platform'] }],
});

describe('self-healing: a vendor whose sources keep failing is probed, repaired or proposed', () => {
  let pages: Awaited<ReturnType<typeof startPages>>;
  let t: TestApp;
  let catalogFile: string;
  const clock = new TestClock(new Date('2026-11-20T12:00:00Z'));
  const logs: string[] = [];

  const sourcesOf = async (app: TestApp, slug: string) =>
    (await app.store.db.selectFrom('sources').select(['type', 'url', 'guarded']).where('vendor', '=', slug).orderBy('url').execute()).map((r) => ({
      ...r,
      guarded: Number(r.guarded),
    }));

  /** Every listed source of a vendor failing `n` polls in a row since `since`. */
  const breakSources = (app: TestApp, slug: string, n: number, since: Date) =>
    app.store.db
      .updateTable('sources')
      .set({ consecutive_failures: n, failing_since: since.toISOString(), last_error: 'HTTP 404' })
      .where('vendor', '=', slug)
      .execute();

  before(async () => {
    pages = await startPages();
    catalogFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'vis-repair-')), 'vendors.json');
    fs.writeFileSync(
      catalogFile,
      JSON.stringify([
        vendor('perplexity', 'Perplexity', `${pages.url}/perplexity`),
        vendor('globex', 'Globex', `${pages.url}/globex`),
        vendor('initech', 'Initech', `${pages.url}/initech`),
      ]),
    );
    const logStream = new Writable({
      write(chunk, _enc, cb) {
        logs.push(String(chunk));
        cb();
      },
    });
    t = await startApp({ clock, catalogFile, logStream, env: { LOG_LEVEL: 'info', OUTBOUND_ALLOW_PRIVATE: '127.0.0.1' } });
  });
  after(async () => {
    await t?.close();
    await pages?.close();
    fs.rmSync(path.dirname(catalogFile), { recursive: true, force: true });
  });

  test('a vendor failing briefly, or with one source still answering, is not probed', async () => {
    await breakSources(t, 'perplexity', 30, new Date(clock.now().getTime() - 3_600_000));
    await breakSources(t, 'globex', 3, new Date(clock.now().getTime() - 8 * 3_600_000));
    const scan = await t.app.sourceRepairs.scan();
    assert.deepEqual(scan, { checked: 0, applied: 0, proposed: 0, deferred: 0 });
    assert.equal(pages.hits.length, 0, 'no page was requested');
  });

  test('a platform move that keeps the page name is applied at once and logged; another name waits for an operator', async () => {
    const since = new Date(clock.now().getTime() - 7 * 3_600_000);
    for (const slug of ['perplexity', 'globex', 'initech']) await breakSources(t, slug, 25, since);
    const scan = await t.app.sourceRepairs.scan();
    assert.deepEqual(scan, { checked: 3, applied: 1, proposed: 1, deferred: 0 });

    const base = pages.url;
    assert.deepEqual(
      await sourcesOf(t, 'perplexity'),
      [
        { type: 'instatus', url: `${base}/perplexity/summary.json`, guarded: 1 },
        { type: 'advisory-feed', url: `${base}/perplexity/security.rss`, guarded: 0 },
      ].sort((a, b) => a.url.localeCompare(b.url)),
    );
    // Not applied: still the catalog's sources.
    assert.deepEqual((await sourcesOf(t, 'globex')).map((s) => s.type).sort(), ['advisory-feed', 'statuspage-v2', 'statuspage-v2']);

    const list = await t.app.sourceRepairs.list();
    const byVendor = Object.fromEntries(list.map((r) => [r.vendor, r]));
    assert.equal(byVendor.perplexity!.outcome, 'applied');
    assert.equal(byVendor.perplexity!.pageName, 'Perplexity');
    assert.equal(byVendor.perplexity!.decidedBy, 'automatic');
    assert.equal(byVendor.globex!.outcome, 'proposed');
    assert.equal(byVendor.globex!.platform, 'betterstack');
    assert.match(byVendor.globex!.reason, /calls itself "Hugging Face", not "Globex"/);
    // Nothing readable on Initech's page: recorded with every endpoint tried, kinds of failure only.
    assert.equal(byVendor.initech!.outcome, 'not_found');
    assert.ok(byVendor.initech!.tried.length >= 4);
    assert.ok(
      byVendor.initech!.tried.every((a) => !/not found/.test(a.result)),
      'no text of the answers is kept',
    );

    assert.ok(
      logs.some((l) => l.includes('catalog sources repaired') && l.includes('"vendor":"perplexity"')),
      'the automatic repair is logged',
    );
  });

  test('a vendor probed within the recheck period is left for a later scan', async () => {
    const hits = pages.hits.length;
    const scan = await t.app.sourceRepairs.scan();
    assert.equal(scan.checked, 0);
    assert.ok(scan.deferred >= 2);
    assert.equal(pages.hits.length, hits);
  });

  test('an operator accepts a proposal; repairs in force survive a restart on the same catalog file', async () => {
    await assert.rejects(t.app.sourceRepairs.accept('perplexity', 'operator'), { code: 'conflict' });
    await assert.rejects(t.app.sourceRepairs.accept('nobody', 'operator'), { code: 'not_found' });
    const accepted = await t.app.sourceRepairs.accept('globex', 'operator');
    assert.equal(accepted.outcome, 'accepted');
    assert.deepEqual((await sourcesOf(t, 'globex')).map((s) => s.type).sort(), ['advisory-feed', 'betterstack']);

    const second = await startApp({ clock, catalogFile, shareStoreWith: t, env: { OUTBOUND_ALLOW_PRIVATE: '127.0.0.1' } });
    try {
      assert.deepEqual((await sourcesOf(second, 'globex')).map((s) => s.type).sort(), ['advisory-feed', 'betterstack']);
      assert.deepEqual((await sourcesOf(second, 'perplexity')).map((s) => s.type).sort(), ['advisory-feed', 'instatus']);
      assert.deepEqual((await sourcesOf(second, 'initech')).map((s) => s.type).sort(), ['advisory-feed', 'statuspage-v2', 'statuspage-v2']);
    } finally {
      await second.close();
    }
  });

  test('rejecting a repair in force brings the catalog sources back, and a later scan does not propose it again', async () => {
    const rejected = await t.app.sourceRepairs.reject('perplexity', 'operator');
    assert.equal(rejected.outcome, 'rejected');
    assert.deepEqual((await sourcesOf(t, 'perplexity')).map((s) => s.type).sort(), ['advisory-feed', 'statuspage-v2', 'statuspage-v2']);
    await assert.rejects(t.app.sourceRepairs.reject('perplexity', 'operator'), { code: 'conflict' });

    clock.advance(25 * 3_600_000);
    await breakSources(t, 'perplexity', 40, new Date(clock.now().getTime() - 30 * 3_600_000));
    await t.app.sourceRepairs.scan({ vendor: 'perplexity' });
    const again = (await t.app.sourceRepairs.list()).find((r) => r.vendor === 'perplexity')!;
    assert.equal(again.outcome, 'rejected', "the operator's no stands while the page serves the same sources");
    assert.deepEqual((await sourcesOf(t, 'perplexity')).map((s) => s.type).sort(), ['advisory-feed', 'statuspage-v2', 'statuspage-v2']);
  });
});
