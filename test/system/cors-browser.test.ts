import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { startApp, type TestApp } from '../helpers/app.ts';
import { CHROMIUM_PATH, launchBrowser } from '../helpers/browser.ts';
import { seedDashboard } from '../helpers/seed.ts';
import { createUser, type TestUser } from '../helpers/users.ts';

// CORS as a browser enforces it (docs/integrations.md): a page on another origin
// reads a public route with a key (a preflighted request), is refused a per-user
// route, and is refused any credentialed (cookie) request.

const NO_CHROMIUM = fs.existsSync(CHROMIUM_PATH) ? false : `Chromium not found at ${CHROMIUM_PATH}: skipping the browser CORS test`;

describe('CORS from a page of another origin', { skip: NO_CHROMIUM }, () => {
  let t: TestApp;
  let u: TestUser;
  let page: http.Server;
  let pageOrigin: string;
  let browser: Browser;
  before(async () => {
    page = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>other site</title>'));
    await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
    // localhost vs 127.0.0.1 and another port: a different origin from the API's.
    pageOrigin = `http://localhost:${(page.address() as AddressInfo).port}`;
    t = await startApp({ env: { CORS_ORIGINS: pageOrigin } });
    await seedDashboard(t.store);
    u = await createUser(t, 'pro');
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await t?.close();
    page?.closeAllConnections();
    await new Promise((resolve) => page?.close(resolve));
  });

  test('public read with a key works; per-user and credentialed requests are blocked', async () => {
    const context = await browser.newContext();
    const tab = await context.newPage();
    await tab.goto(`${pageOrigin}/`);
    // Sent as source text: the test runner's transpiler decorates functions with helpers the page lacks.
    const script = `(async () => {
      const attempt = async (input, init) => {
        try {
          const r = await fetch(input, init);
          return { ok: true, status: r.status, cache: r.headers.get('x-cache'), body: await r.text() };
        } catch (err) {
          return { ok: false, error: String(err) };
        }
      };
      const api = ${JSON.stringify(t.api)}, url = ${JSON.stringify(t.url)}, key = ${JSON.stringify(u.key)};
      return {
        status: await attempt(api + '/vendor-status/github', { headers: { 'X-API-Key': key } }),
        badge: await attempt(url + '/badges/github.json', {}),
        watchlist: await attempt(api + '/watchlist', { headers: { 'X-API-Key': key } }),
        withCookies: await attempt(api + '/vendor-status/github', { credentials: 'include' }),
      };
    })()`;
    type Attempt = { ok: boolean; status?: number; cache?: string | null; body?: string; error?: string };
    const result = (await tab.evaluate(script)) as Record<'status' | 'badge' | 'watchlist' | 'withCookies', Attempt>;
    assert.equal(result.status.ok, true, JSON.stringify(result.status));
    assert.equal(result.status.status, 200);
    assert.equal(result.status.cache, 'MISS', 'exposed headers are readable');
    assert.equal(JSON.parse(result.status.body!).items[0].indicator, 'partial_outage');
    assert.equal(result.badge.ok, true);
    assert.equal(JSON.parse(result.badge.body!).message, 'partial outage');
    assert.equal(result.watchlist.ok, false, 'per-user route refused cross-origin');
    assert.equal(result.withCookies.ok, false, 'credentialed requests are never allowed');
    await context.close();
  });
});
