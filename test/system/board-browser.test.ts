import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { startApp, TestClock, type TestApp } from '../helpers/app.ts';
import { login, userWithKey } from '../helpers/access.ts';
import { addCookieHeader, launchBrowser, newPage, screenshot, unexpected } from '../helpers/browser.ts';
import { waitFor } from '../helpers/wait.ts';
import type { Viewer } from '../../src/services/context.ts';

// A public status board in a real browser (docs/boards.md): it renders the board's
// vendors, follows a change the demo fleet ingests without a reload (event stream +
// server-rendered partial), and loads inside a frame of another origin unless its
// owner restricted frame-ancestors.

const liveOpen = (page: Page) => page.waitForFunction(() => document.documentElement.dataset.live === 'open');
/** Another page's stream may still hold the address's one anonymous slot: the page polls and retries (designed). */
const STREAM_BUSY = /^http 429 GET \/b\/[^/]+\/stream$/;

describe('public status board in the browser', { timeout: 180_000 }, () => {
  const clock = new TestClock(new Date());
  let t: TestApp;
  let browser: Browser;
  let embedder: http.Server;
  let embedderUrl: string;
  let viewer: Viewer;
  let owner: Awaited<ReturnType<typeof userWithKey>>;
  // Rounds poll only the vendors a test looks at (the board's and the one that must stay off
  // it): a round of the whole demo catalog cost this file more than its browser did
  // (docs/testing.md, "Speed").
  const round = async (vendors: string[]) => {
    clock.advance(15_000);
    for (const vendor of vendors) {
      const report = await t.app.ingest.scheduler.runRound({ force: true, vendor });
      assert.ok(report.outcomes.length > 0, `${vendor} has sources`);
      assert.deepEqual(
        report.outcomes.filter((o) => o.status === 'failed'),
        [],
      );
    }
  };

  before(async () => {
    t = await startApp({ clock, env: { DEMO: 'true', DEMO_SEED: '11' } });
    await round(['cloudflare', 'github', 'gitlab']);
    owner = await userWithKey(t, 'pro', 'board');
    viewer = { plan: 'pro', userId: owner.userId, orgId: owner.userId, role: 'owner', authKind: 'key', keyId: owner.keyId };
    await t.app.services.watchlist.replace(viewer, ['cloudflare', 'github']);
    // Another origin (localhost instead of 127.0.0.1, another port) that frames the board.
    embedder = http.createServer((req, res) => {
      const src = new URL(req.url!, 'http://x').searchParams.get('src') ?? '';
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        `<!doctype html><html lang="en"><title>Intranet</title><h1>Our intranet</h1><iframe title="Vendor status" src="${src.replace(/"/g, '')}" width="900" height="700"></iframe>`,
      );
    });
    await new Promise<void>((r) => embedder.listen(0, '127.0.0.1', r));
    embedderUrl = `http://localhost:${(embedder.address() as AddressInfo).port}`;
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await new Promise((r) => embedder?.close(r));
    await t?.close();
  });

  test('renders the board and follows an ingested change without reload', async () => {
    const { path } = await t.app.services.boards.create(viewer, { title: 'Acme status' });
    const { page, context, problems } = await newPage(browser, { baseURL: t.url });
    await page.goto(path);
    assert.equal(await page.locator('h1').innerText(), 'Acme status');
    assert.equal(await page.locator('.vendor-card').count(), 2);
    assert.deepEqual((await page.locator('.vendor-card').evaluateAll((els) => els.map((e) => e.getAttribute('data-vendor')))).sort(), ['cloudflare', 'github']);
    await liveOpen(page);
    const marker = await page.evaluate(() => ((window as unknown as { __m: number }).__m = Math.random()));

    const sim = t.app.ingest.simulator!;
    const inc = sim.fleet.openIncident('cloudflare', { impact: 'major' });
    // A vendor not on the board changes too: it must not appear.
    const other = sim.fleet.openIncident('gitlab', { impact: 'major' });
    await round(['cloudflare', 'gitlab']);
    const article = page.locator(`[data-live-id="problems"] article[data-id="${inc.id}"]`);
    await article.waitFor({ timeout: 30_000 });
    assert.equal(await page.locator(`article[data-id="${other.id}"]`).count(), 0);
    assert.match(await page.locator('[data-vendor="cloudflare"]').innerText(), /active incident/);
    assert.equal(await page.evaluate(() => (window as unknown as { __m: number }).__m), marker, 'same document: no reload');
    await screenshot(page, 'board-live');
    assert.deepEqual(unexpected(problems, [STREAM_BUSY]), []);
    await context.close();
    sim.fleet.resolveIncident(inc.id);
    sim.fleet.resolveIncident(other.id);
  });

  test('loads inside a frame of another origin; a board restricted to other sites does not', async () => {
    const open = await t.app.services.boards.create(viewer, { title: 'Embeddable' });
    const closed = await t.app.services.boards.create(viewer, { title: 'Intranet only', frameAncestors: ['https://intranet.example.com'] });
    const { page, context, problems } = await newPage(browser, { baseURL: embedderUrl });

    await page.goto(`/?src=${encodeURIComponent(`${t.url}${open.path}`)}`);
    const frame = page.frameLocator('iframe');
    await frame.locator('h1').waitFor({ timeout: 30_000 });
    assert.equal(await frame.locator('h1').innerText(), 'Embeddable');
    assert.equal(await frame.locator('.vendor-card').count(), 2);
    await screenshot(page, 'board-embedded');

    const refused: string[] = [];
    page.on('console', (m) => {
      if (/frame-ancestors/.test(m.text())) refused.push(m.text());
    });
    await page.goto(`/?src=${encodeURIComponent(`${t.url}${closed.path}`)}`);
    await page.waitForFunction(() => document.querySelector('iframe') !== null);
    // The browser refuses to render it (and says why on the console).
    await waitFor(() => refused.length > 0, { message: 'the frame-ancestors refusal', timeoutMs: 15_000, intervalMs: 100 }).catch(() => {});
    assert.ok(refused.length > 0, 'the browser reported the frame-ancestors refusal');
    // Chrome shows its own error page in the frame instead of the board.
    assert.equal(await page.frameLocator('iframe').getByText('Intranet only').count(), 0);
    assert.ok(!page.frames().some((f) => f.url().includes(closed.path)) || (await page.frameLocator('iframe').locator('.vendor-card').count()) === 0);
    const rest = unexpected(problems, [STREAM_BUSY, /frame-ancestors/]);
    assert.deepEqual(rest, []);
    await context.close();
  });

  test('the account page publishes a board, shows its address once, and revokes it', async () => {
    const cookie = await login(t, owner.email, owner.password);
    const { page, context, problems } = await newPage(browser, { baseURL: t.url });
    await addCookieHeader(context, cookie, t.url);
    await page.goto('/account#boards');
    await page.getByLabel('Title').fill('From the account page');
    await page.getByRole('button', { name: 'Publish a board' }).click();
    const link = page.locator('[data-board-link]');
    await link.waitFor({ state: 'visible' });
    const url = await link.innerText();
    assert.match(url, new RegExp(`^${t.url}/b/[A-Za-z0-9_-]{43}$`));
    const item = page.locator('[data-boards-list] li', { hasText: 'From the account page' });
    await item.waitFor();
    assert.equal((await fetch(url)).status, 200);
    assert.ok(!(await page.locator('[data-boards-list]').innerText()).includes(url.slice(-43)), 'the list never shows the token');

    await item.getByRole('button', { name: /Revoke/ }).click();
    await item.waitFor({ state: 'detached' });
    assert.equal((await fetch(url)).status, 404);
    assert.deepEqual(unexpected(problems, [STREAM_BUSY, /^http 404 GET \/api\/v1\/(infrastructure\/notification|account\/connections)/]), []);
    await context.close();
  });
});
