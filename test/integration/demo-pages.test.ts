import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { readCatalog } from '../../src/services/vendors/catalog-loader.ts';
import { startApp, TestClock, type TestApp } from '../helpers/app.ts';
import { userWithKey } from '../helpers/access.ts';
import { send } from '../helpers/users.ts';

// Demo mode as a newcomer sees it (docs/web.md "Demo mode", docs/operations.md
// "Demo"): a banner on every page, links that never send anyone to a real vendor's
// page with a made-up id, and a restart that does not mix two simulated fleets.

const PAGES = ['/', '/vendors/github', '/vendors/google-cloud', '/vendors/amazon-web-services', '/login', '/signup'];
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

async function page(t: TestApp, path: string): Promise<string> {
  const res = await fetch(`${t.url}${path}`);
  assert.equal(res.status, 200, `${t.config.demo ? 'demo' : 'live'} ${path}`);
  return res.text();
}

const hrefs = (body: string) => [...body.matchAll(/href="([^"]+)"/g)].map((m) => m[1]!.replace(/&amp;/g, '&'));

describe('demo mode pages', () => {
  const clock = new TestClock(new Date('2026-05-04T09:00:00.000Z'));
  let demo: TestApp;
  let live: TestApp;
  before(async () => {
    demo = await startApp({ clock, env: { DEMO: 'true', DEMO_SEED: '11' } });
    live = await startApp();
    clock.advance(15_000);
    await demo.app.ingest.scheduler.runRound({ force: true });
  });
  after(async () => {
    await demo.close();
    await live.close();
  });

  test('every page says "demo data" in demo mode, and no page does otherwise', async () => {
    for (const path of PAGES) {
      assert.match(await page(demo, path), /data-demo-banner[^>]*>[\s\S]*Demo data/, path);
      assert.doesNotMatch(await page(live, path), /data-demo-banner/, path);
    }
    // The MCP sign-in pages have a layout of their own; an authorization error page stands for them.
    const oauth = async (t: TestApp) => (await fetch(`${t.url}/oauth/authorize`)).text();
    assert.match(await oauth(demo), /data-demo-banner/);
    assert.doesNotMatch(await oauth(live), /data-demo-banner/);
    // A public board is a page of its own (no site layout): it says so too.
    const board = async (t: TestApp) => {
      const u = await userWithKey(t, 'pro', 'board');
      assert.equal((await send(`${t.api}/watchlist`, 'PUT', { 'x-api-key': u.secret }, { vendors: ['github'] })).status, 200);
      const { token } = (await send(`${t.url}/api/v1/boards`, 'POST', { 'x-api-key': u.secret }, { title: 'Ours' })).body;
      return page(t, `/b/${token}`);
    };
    assert.match(await board(demo), /data-demo-banner[^>]*>[\s\S]*Demo data/);
    assert.doesNotMatch(await board(live), /data-demo-banner/);
  });

  test("no demo link leads to a real vendor's page with a made-up id", async () => {
    // The only real-vendor links allowed are the catalog's own addresses (home page, status page).
    const catalogUrls = new Set(readCatalog().flatMap((v) => [v.website, v.statusPageUrl].map((u) => new URL(u).href)));
    const simulator = new URL(demo.app.ingest.simulator!.url).host;
    let external = 0;
    for (const path of PAGES) {
      for (const href of hrefs(await page(demo, path))) {
        if (!/^https?:/.test(href)) continue;
        external++;
        const u = new URL(href);
        if (LOOPBACK.has(u.hostname)) {
          assert.equal(u.host, simulator, href);
          continue;
        }
        assert.ok(catalogUrls.has(href), `${path}: ${href} is neither the simulator nor a catalog address`);
      }
    }
    assert.ok(external > 0, 'the pages link somewhere outside');
    for (const list of ['/incidents?limit=200', '/maintenance?limit=200', '/advisories-unified?limit=200']) {
      const body = (await (await fetch(`${demo.api}${list}`)).json()) as { items: { url: string | null }[] };
      assert.ok(body.items.length > 0, list);
      for (const item of body.items) if (item.url) assert.equal(new URL(item.url).host, simulator, item.url);
    }
  });

  test("a demo restart on the same store starts clean instead of mixing the previous fleet's records", async () => {
    const before = (await (await fetch(`${demo.api}/incidents?limit=200&skipCache=true`)).json()) as { total: number };
    assert.ok(before.total > 0, JSON.stringify(before).slice(0, 300));
    const again = await startApp({ clock, env: { DEMO: 'true', DEMO_SEED: '12' }, shareStoreWith: demo });
    try {
      const after = (await (await fetch(`${again.api}/incidents?limit=200&skipCache=true`)).json()) as { total: number };
      assert.equal(after.total, 0, 'the first fleet is gone');
      const sim = again.app.ingest.simulator!.url;
      for (const s of await again.repos.sources.list()) assert.ok(s.url.startsWith(`${sim}/`), s.url);
      clock.advance(15_000);
      await again.app.ingest.scheduler.runRound({ force: true });
      const items = ((await (await fetch(`${again.api}/incidents?limit=200&skipCache=true`)).json()) as { items: { url: string | null }[] }).items;
      assert.ok(items.length > 0);
      // Some formats carry no incident link (url null, docs/mappings.md); every link there is must be the new fleet's.
      assert.ok(
        items.some((i) => i.url !== null),
        'some records link to their page',
      );
      for (const i of items) if (i.url !== null) assert.ok(i.url.startsWith(`${sim}/`), `only the new fleet's records: ${i.url}`);
    } finally {
      await again.close();
    }
  });
});
