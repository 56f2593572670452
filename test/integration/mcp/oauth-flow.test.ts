import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { incidentsRepository } from '../../../src/store/repositories/incidents-repository.ts';
import { getJson, startApp, type TestApp, TestClock } from '../../helpers/app.ts';
import { connect, createUser, REDIRECT_URI, TestOAuthProvider, textOf, webLogin } from '../../helpers/mcp.ts';
import { incident } from '../../helpers/records.ts';

// The whole OAuth 2.1 flow as an MCP client runs it: the SDK's client discovers
// the protected-resource and authorization-server metadata from the 401,
// registers dynamically, sends the user to the authorization endpoint with PKCE
// (here: consent through a logged-in web session), exchanges the code, calls the
// protected tool, and later refreshes the expired access token on its own.

const DAY = 86_400_000;

describe('OAuth flow with the SDK client', () => {
  const clock = new TestClock(new Date('2026-08-01T12:00:00Z'));
  const ago = (ms: number) => new Date(clock.now().getTime() - ms).toISOString();
  let t: TestApp;

  before(async () => {
    t = await startApp({ clock });
    const inc = incidentsRepository(t.store.db);
    await inc.upsert(incident('github', 'recent', { startedAt: ago(2 * DAY), status: 'resolved', impact: 'major', title: 'Git operations failing' }), 'f');
    await inc.upsert(incident('github', 'twoweeks', { startedAt: ago(14 * DAY), status: 'resolved', title: 'Slow webhooks' }), 'f');
    await inc.upsert(incident('github', 'fortydays', { startedAt: ago(40 * DAY), status: 'resolved', title: 'Old outage' }), 'f');
    await inc.upsert(incident('cloudflare', 'cf', { startedAt: ago(DAY), status: 'resolved' }), 'f');
  });
  after(async () => t.close());

  test('register, authorize with PKCE through the web session, exchange, call history, refresh', async () => {
    const user = await createUser(t, 'standard');
    const session = await webLogin(t, user.email);
    const provider = new TestOAuthProvider(t.url, session);
    const endpoint = `${t.url}/mcp`;

    // Public tools need nothing; the protected call starts the flow.
    let c = await connect(endpoint, { authProvider: provider });
    const down = await c.client.callTool({ name: 'get_active_incidents', arguments: {} });
    assert.equal(down.isError, undefined);
    assert.equal(provider.info, undefined, 'no registration before a protected call');
    await assert.rejects(c.client.callTool({ name: 'get_incident_history', arguments: { vendor: 'github', timePeriod: '30d' } }), UnauthorizedError);

    // Dynamic registration happened, and the authorization request was PKCE S256 with the resource.
    // (re-read: the assertion above narrowed the property to undefined)
    const info = Reflect.get(provider, 'info') as TestOAuthProvider['info'];
    assert.ok(info?.client_id.startsWith('mcp_client_'));
    assert.equal(info?.client_secret, undefined, 'public client');
    const authUrl = provider.authorizationUrls[0];
    assert.equal(authUrl.origin + authUrl.pathname, `${t.url}/oauth/authorize`);
    assert.equal(authUrl.searchParams.get('code_challenge_method'), 'S256');
    assert.equal(authUrl.searchParams.get('resource'), endpoint);
    assert.equal(authUrl.searchParams.get('scope'), 'history:read');

    // Back at the client with a code, the state and the issuer (RFC 9207).
    const back = provider.redirects[0];
    assert.equal(`${back.origin}${back.pathname}`, REDIRECT_URI);
    assert.equal(back.searchParams.get('state'), 'state-123');
    assert.equal(back.searchParams.get('iss'), t.url);
    assert.ok(provider.code?.startsWith('mcp_ac_'));

    await c.transport.finishAuth(provider.code!);
    const first = provider.saved!;
    assert.ok(first.access_token.startsWith('mcp_at_'));
    assert.ok(first.refresh_token?.startsWith('mcp_rt_'));
    assert.equal(first.token_type, 'Bearer');
    assert.equal(first.expires_in, 900);
    assert.equal(first.scope, 'history:read');
    await c.close();

    // "What happened at GitHub in the last 30 days?" within the standard plan's 30 days.
    c = await connect(endpoint, { authProvider: provider });
    const r = await c.client.callTool({ name: 'get_incident_history', arguments: { vendor: 'GitHub', timePeriod: '30d' } });
    assert.equal(r.isError, undefined, textOf(r));
    const d = r.structuredContent as any;
    assert.equal(d.plan, 'standard');
    assert.deepEqual(d.dataWindow, { requested: '30d', applied: '30d', capped: false, since: ago(30 * DAY) });
    assert.deepEqual(
      d.incidents.map((i: any) => i.id),
      ['github:recent', 'github:twoweeks'],
    );
    assert.match(textOf(r), /^2 incidents for GitHub in the last 30d/);
    assert.match(textOf(r), /Git operations failing \[impact major\] started 2026-07-30 12:00 UTC, resolved/);

    // 90 days on a standard plan: shortened, and said so.
    const capped = await c.client.callTool({ name: 'get_incident_history', arguments: { vendor: 'github', timePeriod: '90d' } });
    assert.equal((capped.structuredContent as any).dataWindow.capped, true);
    assert.match(textOf(capped), /your standard plan covers 30 days/);
    await c.close();

    // The access token expires after 15 minutes; the SDK refreshes on the 401 and retries.
    clock.advance(16 * 60_000);
    c = await connect(endpoint, { authProvider: provider });
    const again = await c.client.callTool({ name: 'get_incident_history', arguments: { vendor: 'github' } });
    assert.equal(again.isError, undefined, textOf(again));
    const second = provider.saved!;
    assert.notEqual(second.access_token, first.access_token);
    assert.notEqual(second.refresh_token, first.refresh_token, 'refresh tokens rotate');
    assert.equal(provider.authorizationUrls.length, 1, 'no second consent');
    await c.close();

    // The old access token is dead; so is the retired refresh token, and replaying it revokes the grant.
    await assert.rejects(connect(endpoint, { token: first.access_token }), (err: unknown) => err instanceof StreamableHTTPError && err.code === 401);
    const replay = await getJson(`${t.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: first.refresh_token!, client_id: provider.info!.client_id }),
    });
    assert.equal(replay.status, 400);
    assert.equal(replay.body.error, 'invalid_grant');
    assert.equal(replay.headers.get('cache-control'), 'no-store');
    const revoked = await fetch(`${t.url}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${second.access_token}`,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_incident_history', arguments: {} } }),
    });
    assert.equal(revoked.status, 401, 'replaying a used refresh token ends the whole grant');
  });

  test('the plan window follows the user: a free user asking for 30 days gets 7, then 30 after an upgrade', async () => {
    const user = await createUser(t, 'free');
    const provider = new TestOAuthProvider(t.url, await webLogin(t, user.email));
    let c = await connect(`${t.url}/mcp`, { authProvider: provider });
    await assert.rejects(c.client.callTool({ name: 'get_incident_history', arguments: {} }), UnauthorizedError);
    await c.transport.finishAuth(provider.code!);
    await c.close();

    c = await connect(`${t.url}/mcp`, { authProvider: provider });
    const free = await c.client.callTool({ name: 'get_incident_history', arguments: { vendor: 'github', timePeriod: '30d' } });
    const d = free.structuredContent as any;
    assert.equal(d.plan, 'free');
    assert.equal(d.dataWindow.applied, '7d');
    assert.equal(d.dataWindow.capped, true);
    assert.deepEqual(
      d.incidents.map((i: any) => i.id),
      ['github:recent'],
    );
    assert.match(textOf(free), /your free plan covers 7 days of history, so the requested 30d was shortened to 7d/);

    await t.repos.organisations.setPlan(user.userId, 'pro', clock.now());
    const pro = await c.client.callTool({ name: 'get_incident_history', arguments: { vendor: 'github', timePeriod: '30d' } });
    assert.equal((pro.structuredContent as any).plan, 'pro');
    assert.equal((pro.structuredContent as any).dataWindow.capped, false);
    await c.close();
  });

  test('denying consent returns access_denied to the client, with its state', async () => {
    const user = await createUser(t, 'free');
    const provider = new TestOAuthProvider(t.url, await webLogin(t, user.email), 'deny');
    const c = await connect(`${t.url}/mcp`, { authProvider: provider });
    await assert.rejects(c.client.callTool({ name: 'get_incident_history', arguments: {} }), UnauthorizedError);
    const back = provider.redirects[0];
    assert.equal(back.searchParams.get('error'), 'access_denied');
    assert.equal(back.searchParams.get('state'), 'state-123');
    assert.equal(back.searchParams.get('code'), null);
    await c.close();
  });
});
