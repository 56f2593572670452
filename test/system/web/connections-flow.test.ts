// @store-independent: a browser on the web pages; the store behind them is covered by the integration tier; runs in one CI leg only (docs/testing.md, "Tiers").
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import type { Browser } from 'playwright-core';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { launchBrowser, newPage, OPTIONAL_ENDPOINTS_MISSING, unexpected } from '../../helpers/browser.ts';
import { connect, createUser, TestOAuthProvider, webLogin } from '../../helpers/mcp.ts';

// An assistant connected through OAuth (MCP) shows in the account area, and
// disconnecting it there ends its access.

describe('connected applications in a real browser', () => {
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

  test('listed after consent, disconnected from the account page', async () => {
    const user = await createUser(t, 'pro');
    const cookie = await webLogin(t, user.email);
    const provider = new TestOAuthProvider(t.url, cookie);
    let c = await connect(`${t.url}/mcp`, { authProvider: provider });
    await assert.rejects(c.client.callTool({ name: 'get_incident_history', arguments: {} }), UnauthorizedError);
    await c.transport.finishAuth(provider.code!);
    await c.close();
    c = await connect(`${t.url}/mcp`, { authProvider: provider });
    const ok = await c.client.callTool({ name: 'get_incident_history', arguments: {} });
    assert.notEqual(ok.isError, true);

    const { page, context, problems } = await newPage(browser, { baseURL: t.url });
    await context.addCookies(
      cookie.split('; ').map((kv) => {
        const [name, value] = kv.split('=') as [string, string];
        return { name, value, url: t.url };
      }),
    );
    await page.goto('/account#connections');
    const item = page.locator('[data-connections] li', { hasText: 'Test Assistant' });
    await item.waitFor();
    assert.match(await item.innerText(), /history:read/);
    page.once('dialog', (d) => void d.accept());
    await page.getByRole('button', { name: 'Disconnect Test Assistant' }).click();
    await page.locator('[data-connections]', { hasText: 'No application is connected.' }).waitFor();
    assert.match(await page.locator('[data-connections-status]').innerText(), /Test Assistant disconnected/);
    await assert.rejects(c.client.callTool({ name: 'get_incident_history', arguments: {} }));
    await c.close();
    assert.deepEqual(unexpected(problems, OPTIONAL_ENDPOINTS_MISSING), []);
    await context.close();
  });
});
