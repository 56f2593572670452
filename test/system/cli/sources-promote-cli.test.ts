import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { getJson, startApp, type TestApp } from '../../helpers/app.ts';
import { userWithKey, type TestUser } from '../../helpers/access.ts';
import { cli } from '../../helpers/cli.ts';
import { startFakeStatusPages, type FakeStatusPages } from '../../helpers/fake-status-page.ts';
import { send } from '../../helpers/users.ts';
import { DEFAULT_CATALOG_PATH, loadCatalog, readCatalog } from '../../../src/services/vendors/catalog-loader.ts';
import { createHttpFetcher } from '../../../src/infra/fetch.ts';
import { parseSource } from '../../../src/ingest/adapters/index.ts';
import { createScheduler } from '../../../src/ingest/scheduler.ts';

// `cli sources promote` (docs/catalog.md "Promoted pages"), run as an operator runs it,
// on the store of a running app: the user's page becomes a public vendor at once and an
// entry of the catalog file that survives the next catalog load.

describe('operator CLI: sources promote', () => {
  let t: TestApp;
  let pages: FakeStatusPages;
  let alice: TestUser;
  let env: Record<string, string>;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vis-promote-'));
  const catalogFile = path.join(dir, 'vendors.json');

  before(async () => {
    fs.copyFileSync(DEFAULT_CATALOG_PATH, catalogFile);
    pages = await startFakeStatusPages();
    pages.incidents('shop').push({ id: 'i1', name: 'Checkout errors', status: 'investigating', impact: 'major', createdAt: new Date().toISOString() });
    t = await startApp({ env: { OUTBOUND_ALLOW_PRIVATE: '127.0.0.1' }, catalogFile });
    alice = await userWithKey(t, 'pro', 'alice');
    env = {
      LOG_LEVEL: 'silent',
      DATA_DIR: t.config.dataDir,
      ...(t.config.databaseUrl ? { DATABASE_URL: t.config.databaseUrl, DATABASE_SCHEMA: t.config.databaseSchema ?? '' } : {}),
    };
  });
  after(async () => {
    await t?.close();
    await pages?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('a user-added page becomes a public vendor, in the store and in the catalog file', async () => {
    const added = await send(
      `${t.url}/api/v1/account/status-pages`,
      'POST',
      { 'x-api-key': alice.secret },
      { url: `${pages.url}/pages/shop/`, name: 'Acme Shop' },
    );
    assert.equal(added.status, 201, JSON.stringify(added.body));
    const slug: string = added.body.page.slug;
    assert.equal((await send(`${t.api}/watchlist/${slug}`, 'POST', { 'x-api-key': alice.secret })).status, 200);
    assert.equal((await getJson(`${t.api}/vendor-status/${slug}`)).status, 404, 'private before');

    const usage = await cli(['sources', 'promote', slug], env);
    assert.equal(usage.code, 2, 'the category is required');
    const badCategory = await cli(['sources', 'promote', slug, '--category', 'nope', '--catalog', catalogFile], env);
    assert.equal(badCategory.code, 1);
    assert.match(badCategory.stderr, /category/);
    const taken = await cli(['sources', 'promote', slug, '--category', 'business-apps', '--slug', 'github', '--catalog', catalogFile], env);
    assert.equal(taken.code, 1);
    assert.match(taken.stderr, /already has 'github'/);

    const r = await cli(
      ['sources', 'promote', slug, '--category', 'business-apps', '--slug', 'acme-shop', '--description', 'Online shop platform.', '--catalog', catalogFile],
      env,
    );
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /Promoted '.*' to 'acme-shop'/);

    const entry = readCatalog(catalogFile).find((v) => v.slug === 'acme-shop');
    assert.ok(entry, 'appended to the catalog file (which still loads)');
    assert.equal(entry.name, 'Acme Shop');
    assert.equal(entry.category, 'business-apps');
    assert.deepEqual(entry.availableDataTypes, ['incidents', 'maintenance']);
    assert.deepEqual(entry.sources.map((s) => s.intervalSeconds ?? null).sort(), [300, 300, null], 'the history lists keep their 300 s interval');
    assert.equal(entry.evidence![0]!.key, 'PROBE');
    assert.match(entry.evidence![0]!.commit, /^[0-9a-f]{40}$/);

    // Public at once, for anyone; the private slug is gone, the owner's watchlist follows.
    assert.equal((await getJson(`${t.api}/vendor-status/acme-shop`)).status, 200);
    assert.equal((await getJson(`${t.api}/vendor-status/${slug}`, { headers: { 'x-api-key': alice.secret } })).status, 404);
    const wl = await getJson(`${t.api}/watchlist`, { headers: { 'x-api-key': alice.secret } });
    assert.ok(wl.body.vendors.includes('acme-shop'));
    // Still guarded: whoever named the page may still control its DNS name.
    assert.match(r.stdout, /Still guarded/);
    assert.ok(
      entry.sources.every((s) => s.guarded === true),
      'the catalog entry keeps its sources guarded',
    );
    const sources = await t.store.db.selectFrom('sources').select(['guarded']).where('vendor', '=', 'acme-shop').execute();
    assert.deepEqual(
      sources.map((s) => Number(s.guarded)),
      [1, 1, 1],
      'polled through the outbound guard',
    );

    // Polled through the guard: on this test's allow-list (127.0.0.1) it reads the page ...
    await t.app.ingest.scheduler.runRound({ force: true, vendor: 'acme-shop' });
    const incidents = await getJson(`${t.api}/incidents?vendor=acme-shop`);
    assert.deepEqual(
      incidents.body.items.map((i: { title: string }) => i.title),
      ['Checkout errors'],
    );
    // ... and a poller without that allow-list (a production one, the page's name re-pointed
    // at an internal address) refuses it instead of publishing the internal answer.
    const fetcher = createHttpFetcher({ allowList: [] });
    const production = createScheduler({
      sources: t.repos.sources,
      ingest: t.app.services.ingest,
      fetcher,
      parse: parseSource,
      clock: { now: () => new Date() },
      owner: 'production-poller',
      settings: { concurrency: 2, perHost: 2, timeoutMs: 3000, maxBytes: 1 << 20, defaultIntervalSeconds: 60 },
    });
    try {
      const report = await production.runRound({ force: true, vendor: 'acme-shop' });
      assert.equal(report.outcomes.length, 3);
      for (const o of report.outcomes) assert.equal(o.error, 'destination refused (not a public address)', JSON.stringify(o));
    } finally {
      await production.stop();
      await fetcher.close();
    }

    // The next start loads the file: the vendor keeps its sources.
    await loadCatalog(t.repos.vendors, readCatalog(catalogFile), new Date());
    const kept = await t.store.db.selectFrom('sources').select(['id', 'guarded']).where('vendor', '=', 'acme-shop').execute();
    assert.equal(kept.length, 3);
    assert.ok(
      kept.every((s) => Number(s.guarded) === 1),
      'still guarded after the catalog load',
    );
    assert.equal((await cli(['sources', 'promote', slug, '--category', 'business-apps', '--catalog', catalogFile], env)).code, 1, 'gone once promoted');
  });

  test('--trust: the operator vouches for the host, and the sources are polled as catalog sources', async () => {
    pages.incidents('kiosk').push({ id: 'k1', name: 'Kiosk down', status: 'investigating', impact: 'minor', createdAt: new Date().toISOString() });
    const added = await send(
      `${t.url}/api/v1/account/status-pages`,
      'POST',
      { 'x-api-key': alice.secret },
      { url: `${pages.url}/pages/kiosk/`, name: 'Kiosk' },
    );
    assert.equal(added.status, 201, JSON.stringify(added.body));
    const r = await cli(
      ['sources', 'promote', added.body.page.slug, '--category', 'business-apps', '--slug', 'kiosk', '--trust', '--catalog', catalogFile],
      env,
    );
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /Trusted: polled as a catalog source/);
    const entry = readCatalog(catalogFile).find((v) => v.slug === 'kiosk')!;
    assert.ok(entry.sources.every((s) => s.guarded === undefined));
    const sources = await t.store.db.selectFrom('sources').select(['guarded']).where('vendor', '=', 'kiosk').execute();
    assert.ok(sources.length > 0 && sources.every((s) => Number(s.guarded) === 0));
  });
});
