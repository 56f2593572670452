// @store-independent: a browser on the web pages; the store behind them is covered by the integration tier; runs in one CI leg only (docs/testing.md, "Tiers").
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import type { Browser, Page } from 'playwright-core';
import { incidentsRepository } from '../../../src/store/repositories/incidents-repository.ts';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { violations } from '../../helpers/axe.ts';
import { launchBrowser, newPage, screenshot, unexpected } from '../../helpers/browser.ts';
import { connect, createUser, MemoryOAuthProvider, PASSWORD, textOf } from '../../helpers/mcp.ts';
import { incident } from '../../helpers/records.ts';

// The MCP OAuth flow as a person runs it: the SDK's client discovers the authorization
// server, registers, and sends the user to /oauth/authorize with PKCE; the user logs in and
// allows the application in a real Chromium (no header set by hand: Origin, Referer and
// cookies are the browser's own); the browser lands on the application's loopback redirect
// URI; the client exchanges the code and makes the call that needs sign-in. The sign-in and
// consent pages are checked on the way: the site's stylesheet, no horizontal scrolling at
// 375 and 1280 px, and no axe-core (WCAG 2.1 AA) violation.

/** A self-declared name with no place to break a line: it must not widen the page. */
const CLIENT_NAME = 'Browser-Assistant-with-a-very-long-self-declared-name-and-no-spaces';

/** The application's side of the redirect: a loopback listener, as native MCP clients run one. */
async function callbackListener() {
  const hits: URL[] = [];
  const server = http.createServer((req, res) => {
    hits.push(new URL(req.url ?? '/', 'http://127.0.0.1'));
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><html lang="en"><title>Connected</title><p>You can close this window.</p></html>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/callback`, hits, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** The client opens the authorization URL in the user's browser; the test drives that browser. */
class BrowserOAuthProvider extends MemoryOAuthProvider {
  async redirectToAuthorization(url: URL) {
    this.authorizationUrls.push(url);
  }
}

/** Stylesheet applied, and nothing wider than the viewport, at both widths. */
async function checkLayout(page: Page, name: string) {
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    const m = await page.evaluate(() => ({
      scrollWidth: document.documentElement.scrollWidth,
      clientWidth: document.documentElement.clientWidth,
      sheets: [...document.styleSheets].map((s) => new URL(s.href ?? 'inline:', location.href).pathname),
      rules: [...document.styleSheets].reduce((n, s) => n + s.cssRules.length, 0),
      header: getComputedStyle(document.querySelector('.site-header')!).display,
      card: getComputedStyle(document.querySelector('.auth-card')!).maxWidth,
    }));
    assert.deepEqual(m.sheets, ['/assets/css/app.css'], `${name}: the site's stylesheet`);
    assert.ok(m.rules > 50, `${name}: stylesheet loaded (${m.rules} rules)`);
    assert.notEqual(m.header, 'none', `${name}: site header`);
    assert.notEqual(m.card, 'none', `${name}: the card is styled`);
    assert.ok(m.scrollWidth <= m.clientWidth, `${name} at ${width}px: ${m.scrollWidth}px wide in a ${m.clientWidth}px viewport`);
    assert.deepEqual(await violations(page), [], `${name} at ${width}px`);
    await screenshot(page, `mcp-oauth-${name}-${width}`);
  }
}

describe('MCP OAuth in a real browser, with the SDK client', () => {
  let t: TestApp;
  let browser: Browser;
  let callback: Awaited<ReturnType<typeof callbackListener>>;
  before(async () => {
    t = await startApp();
    await incidentsRepository(t.store.db).upsert(
      incident('github', 'browser', {
        title: 'Git operations failing',
        status: 'resolved',
        impact: 'major',
        startedAt: new Date(Date.now() - 2 * 86_400_000).toISOString(),
      }),
      'f',
    );
    browser = await launchBrowser();
    callback = await callbackListener();
  });
  after(async () => {
    await browser?.close();
    await callback?.close();
    await t?.close();
  });

  test('register, log in and allow in Chromium, exchange the code, call the tool that needs sign-in', async () => {
    const user = await createUser(t, 'standard');
    const provider = new BrowserOAuthProvider(callback.url, CLIENT_NAME);
    const endpoint = `${t.url}/mcp`;

    let c = await connect(endpoint, { authProvider: provider });
    await assert.rejects(c.client.callTool({ name: 'get_incident_history', arguments: { vendor: 'github' } }), UnauthorizedError);
    assert.ok(provider.info?.client_id, 'registered dynamically');
    const authUrl = provider.authorizationUrls[0]!;
    assert.equal(authUrl.searchParams.get('code_challenge_method'), 'S256');

    const { page, context, problems } = await newPage(browser, { baseURL: t.url });
    // Not signed in: the sign-in step first.
    await page.goto(authUrl.toString());
    assert.equal(new URL(page.url()).pathname, '/oauth/login');
    await page.getByRole('heading', { name: 'Log in to continue' }).waitFor();
    await checkLayout(page, 'login');

    // A wrong password: the page again, with the error, still in the layout.
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('alert').filter({ hasText: 'Wrong email or password' }).waitFor();

    await page.getByLabel('Password').fill(PASSWORD);
    await Promise.all([page.waitForURL((u) => u.pathname === '/oauth/authorize'), page.getByRole('button', { name: 'Log in' }).click()]);
    await page.getByRole('heading', { name: `Allow ${CLIENT_NAME} to use your account?` }).waitFor();
    assert.match(await page.locator('main').innerText(), new RegExp(`Signed in as ${user.email.replace(/\./g, '\\.')} \\(standard plan\\)`));
    await checkLayout(page, 'consent');

    await Promise.all([page.waitForURL((u) => u.origin === new URL(callback.url).origin), page.getByRole('button', { name: 'Allow' }).click()]);
    const back = callback.hits.at(-1)!;
    assert.equal(back.pathname, '/callback');
    assert.equal(back.searchParams.get('state'), provider.state());
    assert.equal(back.searchParams.get('iss'), t.url);
    const code = back.searchParams.get('code') ?? '';
    assert.match(code, /^mcp_ac_/, back.toString());
    // 401 on the wrong-password attempt is the page's answer, not a fault.
    assert.deepEqual(unexpected(problems, [/^http 401 POST \/oauth\/login$/]), []);
    await context.close();

    await c.transport.finishAuth(code);
    await c.close();
    c = await connect(endpoint, { authProvider: provider });
    const r = await c.client.callTool({ name: 'get_incident_history', arguments: { vendor: 'github', timePeriod: '30d' } });
    assert.equal(r.isError, undefined, textOf(r));
    assert.equal((r.structuredContent as any).plan, 'standard');
    assert.match(textOf(r), /Git operations failing \[impact major\]/);
    await c.close();
  });
});
