// @store-independent: a browser on the web pages; the store behind them is covered by the integration tier; runs in one CI leg only (docs/testing.md, "Tiers").
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { createRepositories } from '../../../src/services/index.ts';
import { startApp, TestClock, type TestApp } from '../../helpers/app.ts';
import { launchBrowser, newPage, screenshot } from '../../helpers/browser.ts';
import { incident } from '../../helpers/records.ts';
import { waitFor } from '../../helpers/wait.ts';

// Open pages follow changes without a reload: the demo simulator changes an
// incident, the next poll of the fleet commits it with its event, the event
// stream pushes it, and the page swaps in the fresh server-rendered region.

const liveOpen = (page: Page) => page.waitForFunction(() => document.documentElement.dataset.live === 'open');

describe('live updates of open pages (demo fleet + event stream)', () => {
  const clock = new TestClock(new Date());
  let t: TestApp;
  let browser: Browser;
  // The first round polls the whole fleet; the later ones only the vendor a test changes:
  // the page's subject is that vendor's change, and a round of the whole catalog costs the
  // test more than everything else it does (docs/testing.md, "Speed").
  const round = async (vendor?: string) => {
    clock.advance(15_000);
    const report = await t.app.ingest.scheduler.runRound({ force: true, vendor });
    assert.deepEqual(
      report.outcomes.filter((o) => o.status === 'failed'),
      [],
    );
  };

  before(async () => {
    t = await startApp({ clock, env: { DEMO: 'true', DEMO_SEED: '7' } });
    await round();
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  test('an incident the simulator opens, updates and resolves shows on the open overview without reload', async () => {
    const sim = t.app.ingest.simulator!;
    const { page, context, problems } = await newPage(browser, { baseURL: t.url });
    await page.goto('/');
    await liveOpen(page);
    assert.match(await page.locator('[data-live-status]').innerText(), /Live/);
    const marker = await page.evaluate(() => ((window as unknown as { __marker: number }).__marker = Math.random()));

    const inc = sim.fleet.openIncident('cloudflare', { impact: 'major' });
    await round('cloudflare');
    const article = page.locator(`[data-live-id="problems"] article[data-id="${inc.id}"]`);
    // Attached, not necessarily visible: past the first few, the list folds behind "Show N more" (docs/web.md).
    await article.waitFor({ state: 'attached' });
    assert.match((await article.textContent()) ?? '', /Cloudflare:/);
    assert.match(await page.locator('[data-vendor="cloudflare"]').innerText(), /active incident/);
    await screenshot(page, 'overview-demo');

    sim.fleet.resolveIncident(inc.id);
    await round('cloudflare');
    await round('cloudflare');
    await article.waitFor({ state: 'detached' });
    // Same document all along: no reload happened.
    assert.equal(await page.evaluate(() => (window as unknown as { __marker: number }).__marker), marker);
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('a burst of changes costs one compressed fetch of the partial; an unchanged partial is a 304', async () => {
    const sim = t.app.ingest.simulator!;
    const { page, context, problems } = await newPage(browser, { baseURL: t.url });
    const partials: { status: number; encoding: string | undefined }[] = [];
    page.on('response', (r) => {
      if (new URL(r.url()).pathname === '/partials/overview') partials.push({ status: r.status(), encoding: r.headers()['content-encoding'] });
    });
    await page.goto('/');
    await liveOpen(page);
    // Three vendors change in one round: several events within a moment.
    const opened = ['github', 'openai', 'perplexity'].map((v) => sim.fleet.openIncident(v, { impact: 'minor' }));
    clock.advance(15_000);
    await Promise.all(['github', 'openai', 'perplexity'].map((v) => t.app.ingest.scheduler.runRound({ force: true, vendor: v })));
    for (const inc of opened) await page.locator(`[data-live-id="problems"] article[data-id="${inc.id}"]`).waitFor({ state: 'attached' });
    await page.waitForTimeout(1500);
    assert.ok(partials.length >= 1 && partials.length <= 2, `${partials.length} fetches of the partial for one burst: ${JSON.stringify(partials)}`);
    assert.equal(partials[0]!.encoding, 'br', 'the partial goes out compressed');
    // Asked again with nothing changed: the browser revalidates its copy and gets no body.
    // The next refresh sends the partial's validator along (an unchanged partial is then a 304, test/integration/web/pages-http.test.ts).
    const asked: (string | undefined)[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/partials/overview') asked.push(r.headers()['if-none-match']);
    });
    const another = sim.fleet.openIncident('linear', { impact: 'minor' });
    await round('linear');
    await page.locator(`[data-live-id="problems"] article[data-id="${another.id}"]`).waitFor({ state: 'attached' });
    assert.match(asked[0] ?? '', /^W\/"/, 'If-None-Match with the last ETag');
    opened.push(another);
    for (const inc of opened) sim.fleet.resolveIncident(inc.id);
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('the vendor page follows its own vendor', async () => {
    const sim = t.app.ingest.simulator!;
    const { page, context, problems } = await newPage(browser, { baseURL: t.url });
    await page.goto('/vendors/github');
    await liveOpen(page);
    const inc = sim.fleet.openIncident('github', { impact: 'minor' });
    await round('github');
    await page.locator(`[data-live-id="active"] article[data-id="${inc.id}"]`).waitFor();
    await screenshot(page, 'vendor-github-demo');
    sim.fleet.resolveIncident(inc.id);
    await round('github');
    await round('github');
    await page.locator(`[data-live-id="active"] article[data-id="${inc.id}"]`).waitFor({ state: 'detached' });
    assert.deepEqual(problems, []);
    await context.close();
  });
});

describe('live updates without the stream', () => {
  let t: TestApp;
  let browser: Browser;
  before(async () => {
    t = await startApp();
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  test('when the stream refuses (another tab holds the only stream of the plan) the page polls, and the change still appears', async () => {
    const repos = createRepositories(t.store);
    const { page, context } = await newPage(browser, { baseURL: t.url });
    // Another tab of the same anonymous visitor holds the one stream the plan allows.
    const other = await context.newPage();
    await other.goto('/');
    await liveOpen(other);
    await page.clock.install();
    await page.goto('/');
    await page.locator('[data-live-status]', { hasText: 'refreshes every minute' }).waitFor();
    await page.getByLabel('Search vendors').fill('net');
    const card = page.locator('[data-vendor="netlify"]');
    await repos.incidents.upsert(incident('netlify', 'live', { title: 'Builds are delayed', impact: 'major' }), 'f');
    await page.clock.fastForward('01:01');
    await page.locator('[data-live-id="problems"] article[data-id="netlify:live"]').waitFor();
    assert.match(await card.innerText(), /1 active incident/);
    assert.equal(await card.isVisible(), true, 'the filter still applies to the swapped card');
    assert.equal(await page.locator('[data-vendor="github"]').isHidden(), true);
    // When the other tab closes, the page gets the stream at its next attempt. The attempt is
    // made only once the server has let the other tab's stream go: an attempt before that is
    // refused again and the next one waits out the page's backoff (up to a minute) in real time.
    await other.close();
    const pageLive = () => page.evaluate(() => document.documentElement.dataset.live === 'open');
    await waitFor(async () => t.app.streams.hub.size === 0 || (await pageLive()), { message: "the other tab's stream is closed" });
    await page.clock.fastForward('02:00');
    await liveOpen(page);
    await context.close();
  });
});
