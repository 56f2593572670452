import { PUBLIC_AUDIENCE } from '../../../src/domain/audience.ts';
import assert from 'node:assert/strict';
import { isMonitored } from '../../../src/domain/monitoring.ts';
import { after, before, describe, test } from 'node:test';
import type { KyselyPlugin } from 'kysely';
import { createRepositories } from '../../../src/services/index.ts';
import { sourceHealthService } from '../../../src/services/vendors/source-health-service.ts';
import { overviewService } from '../../../src/services/records/overview-service.ts';
import { catalogService } from '../../../src/services/vendors/catalog-service.ts';
import { systemClock } from '../../../src/domain/clock.ts';
import { Assets } from '../../../src/web/assets.ts';
import { startApp, type TestApp, TestClock } from '../../helpers/app.ts';
import { incident, maintenance } from '../../helpers/records.ts';
import { seedDashboard } from '../../helpers/seed.ts';

async function page(url: string, init?: RequestInit) {
  const res = await fetch(url, init);
  return { res, text: await res.text() };
}

describe('web pages over HTTP', () => {
  let t: TestApp;
  before(async () => {
    // A standing clock: two asks of a partial never straddle the turn of a minute.
    t = await startApp({ clock: new TestClock(new Date()) });
    await seedDashboard(t.store);
  });
  after(async () => t.close());

  test('pages carry the security headers; the CSP allows no inline script or style', async () => {
    for (const path of ['/', '/vendors/github', '/vendors/nope', '/partials/overview']) {
      const { res } = await page(`${t.url}${path}`);
      const csp = res.headers.get('content-security-policy') ?? '';
      assert.match(csp, /default-src 'none'/, path);
      assert.match(csp, /script-src 'self'(;|$)/, path);
      assert.match(csp, /style-src 'self'(;|$)/, path);
      assert.match(csp, /frame-ancestors 'none'/, path);
      assert.ok(!csp.includes('unsafe-inline') && !csp.includes('unsafe-eval'), path);
      assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
      assert.equal(res.headers.get('x-frame-options'), 'DENY');
      assert.equal(res.headers.get('referrer-policy'), 'same-origin');
    }
  });

  test('a live partial carries an ETag; asked again with it and nothing changed, it is a 304 without a body', async () => {
    for (const path of ['/partials/overview', '/partials/vendors/github']) {
      const first = await page(`${t.url}${path}`);
      const etag = first.res.headers.get('etag');
      assert.match(etag ?? '', /^W\/"[\w-]+"$/, path);
      assert.equal(first.res.headers.get('cache-control'), 'private, no-cache');
      const again = await page(`${t.url}${path}`, { headers: { 'if-none-match': etag! } });
      assert.equal(again.res.status, 304, path);
      assert.equal(again.text, '');
      const stale = await page(`${t.url}${path}`, { headers: { 'if-none-match': 'W/"something-else"' } });
      assert.equal(stale.res.status, 200, path);
    }
  });

  test('the markup has no inline scripts, event handlers or style attributes, and loads only our own assets', async () => {
    for (const path of ['/', '/vendors/github', '/vendors/cloudflare']) {
      const { res, text } = await page(`${t.url}${path}`);
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type') ?? '', /^text\/html; charset=utf-8/);
      for (const m of text.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)) {
        const attrs = m[1]!;
        if (/type="application\/json"/.test(attrs)) continue;
        assert.match(attrs, /type="module" src="\/assets\/js\/[\w-]+\.js\?v=[0-9a-f]{12}"/, `${path}: ${m[0].slice(0, 80)}`);
        assert.equal(m[2], '', 'no inline code');
      }
      assert.equal(/\son[a-z]+\s*=/i.test(text.replace(/&[a-z#0-9]+;/g, '')), false, `${path}: event handler attribute`);
      assert.equal(/\sstyle\s*=/.test(text), false, `${path}: style attribute`);
      for (const m of text.matchAll(/(?:src|href)="([^"]+)"/g)) {
        const url = m[1]!;
        if (url.startsWith('/') || url.startsWith('#')) continue;
        // External links are the vendors' own pages, never a script or stylesheet.
        assert.match(url, /^https?:\/\//, `${path}: ${url}`);
      }
      assert.equal(/<link[^>]+href="https?:/.test(text), false, `${path}: external stylesheet`);
    }
  });

  test('assets: versioned URLs are immutable, others revalidate; unknown names and traversal are 404', async () => {
    const assets = new Assets();
    const css = assets.url('css/app.css');
    const a = await fetch(`${t.url}${css}`);
    assert.equal(a.status, 200);
    assert.equal(a.headers.get('content-type'), 'text/css; charset=utf-8');
    assert.match(a.headers.get('cache-control') ?? '', /immutable/);
    const etag = a.headers.get('etag')!;
    const b = await fetch(`${t.url}/assets/css/app.css`, { headers: { 'If-None-Match': etag } });
    assert.equal(b.status, 304);
    assert.match((await fetch(`${t.url}/assets/js/live-core.js`)).headers.get('cache-control') ?? '', /no-cache/);
    assert.equal((await fetch(`${t.url}/assets/js/live-core.js`)).headers.get('content-type'), 'text/javascript; charset=utf-8');
    for (const path of ['/assets/nope.css', '/assets/../plugin.ts', '/assets/%2e%2e/plugin.ts', '/assets/..%2fplugin.ts', '/assets/']) {
      const r = await fetch(`${t.url}${path}`);
      assert.equal(r.status, 404, path);
    }
  });

  test('the pages are not part of the API description', async () => {
    const doc = await (await fetch(`${t.url}/openapi.json`)).json();
    const paths = Object.keys(doc.paths);
    assert.ok(!paths.some((p) => p === '/' || p.startsWith('/vendors/') || p.startsWith('/assets') || p.startsWith('/partials')), paths.join(' '));
  });

  test('the overview is the same handful of queries whatever the number of vendors with incidents', async () => {
    const repos = createRepositories(t.store);
    let queries = 0;
    // Counts executed statements (one result each; subqueries such as the visibility
    // filter of docs/per-user.md are part of their statement).
    const counter: KyselyPlugin = {
      transformQuery: (args) => args.node,
      transformResult: async (args) => {
        queries++;
        return args.result;
      },
    };
    const counted = createRepositories({ ...t.store, db: t.store.db.withPlugin(counter) });
    const service = overviewService({
      ...counted,
      catalog: catalogService(counted.vendors, async () => []),
      health: sourceHealthService({ sources: counted.sources, clock: systemClock, defaultIntervalSeconds: 60 }),
      clock: systemClock,
    });
    queries = 0;
    const before = await service.overview(PUBLIC_AUDIENCE);
    const few = queries;
    const listed = await repos.vendors.list(PUBLIC_AUDIENCE);
    const vendors = listed.map((v) => v.slug);
    // A vendor not monitored shows none of its stored records (docs/web.md "Not monitored").
    const monitored = listed.filter(isMonitored).length;
    assert.ok(monitored < vendors.length, 'the catalog has vendors that are not monitored');
    for (const slug of vendors) {
      await repos.incidents.upsert(incident(slug, 'bulk', { impact: 'minor' }), 'f');
      await repos.maintenances.upsert(maintenance(slug, 'bulk'), 'f');
    }
    queries = 0;
    const after = await service.overview(PUBLIC_AUDIENCE);
    assert.equal(queries, few);
    assert.ok(queries <= 5, `${queries} queries`);
    assert.equal(after.activeIncidentCount, before.activeIncidentCount + monitored);
    assert.equal(after.vendors.length, vendors.length);
    for (const slug of vendors) {
      await repos.incidents.upsert(incident(slug, 'bulk', { status: 'resolved' }), 'f');
      await repos.maintenances.upsert(maintenance(slug, 'bulk', { status: 'completed' }), 'f');
    }
  });

  test('bad page parameters fall back instead of failing', async () => {
    assert.equal((await page(`${t.url}/vendors/github?page=abc`)).res.status, 200);
    assert.equal((await page(`${t.url}/vendors/github?page=99999999`)).res.status, 200);
    assert.equal((await page(`${t.url}/vendors/Not_A_Slug`)).res.status, 404);
    assert.equal((await page(`${t.url}/?q=${'x'.repeat(5000)}&category[]=1`)).res.status, 200);
  });
});
