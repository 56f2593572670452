import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { oauthService } from '../../../src/services/oauth/oauth-service.ts';
import { getJson, startApp, type TestApp, TestClock } from '../../helpers/app.ts';
import { connect, consent, cookieFrom, createUser, formFields, PASSWORD, REDIRECT_URI, TestOAuthProvider, textOf, webLogin } from '../../helpers/mcp.ts';
import { csrfTokenOf } from '../../helpers/access.ts';

// The authorization server piece by piece: metadata, registration rules, the
// authorization endpoint's errors and forms, the token endpoint's checks,
// revocation, storage, and the MCP endpoint on its own port.

const verifierPair = () => {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
};
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const form = (o: Record<string, string>) => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(o),
});

describe('OAuth authorization server', () => {
  const clock = new TestClock(new Date('2026-08-01T12:00:00Z'));
  let t: TestApp;
  let session: string;
  let clientId: string;

  async function register(body: Record<string, unknown>) {
    return getJson(`${t.url}/oauth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  }

  function authorizeUrl(p: Record<string, string | undefined>) {
    const u = new URL(`${t.url}/oauth/authorize`);
    for (const [k, v] of Object.entries(p)) if (v !== undefined) u.searchParams.set(k, v);
    return u.toString();
  }

  /** A fresh code for the public client; returns it with its verifier. */
  async function code(opts: { client?: string; resource?: string } = {}) {
    const { verifier, challenge } = verifierPair();
    const back = await consent(
      t.url,
      authorizeUrl({
        response_type: 'code',
        client_id: opts.client ?? clientId,
        redirect_uri: REDIRECT_URI,
        code_challenge: challenge,
        code_challenge_method: 'S256',
        state: 's1',
        resource: opts.resource ?? `${t.url}/mcp`,
      }),
      session,
    );
    return { code: back.searchParams.get('code')!, verifier };
  }

  const exchange = (p: Record<string, string>) => getJson(`${t.url}/oauth/token`, form({ grant_type: 'authorization_code', redirect_uri: REDIRECT_URI, ...p }));

  const callHistory = (token: string) =>
    fetch(`${t.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${token}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_incident_history', arguments: {} } }),
    });

  before(async () => {
    t = await startApp({ clock });
    const user = await createUser(t, 'free');
    session = await webLogin(t, user.email);
    const r = await register({ client_name: 'Desk App', redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: 'none' });
    clientId = r.body.client_id;
  });
  after(async () => t.close());

  test('protected-resource and authorization-server metadata', async () => {
    const prm = await getJson(`${t.url}/.well-known/oauth-protected-resource/mcp`);
    assert.equal(prm.status, 200);
    assert.deepEqual(prm.body, {
      resource: `${t.url}/mcp`,
      authorization_servers: [t.url],
      scopes_supported: ['history:read'],
      bearer_methods_supported: ['header'],
      resource_name: 'Vendor Infrastructure Status (MCP)',
      resource_documentation: `${t.url}/docs`,
    });
    const root = await getJson(`${t.url}/.well-known/oauth-protected-resource`);
    assert.deepEqual(root.body, prm.body);

    const as = (await getJson(`${t.url}/.well-known/oauth-authorization-server`)).body;
    assert.equal(as.issuer, t.url);
    assert.equal(as.authorization_endpoint, `${t.url}/oauth/authorize`);
    assert.equal(as.token_endpoint, `${t.url}/oauth/token`);
    assert.equal(as.registration_endpoint, `${t.url}/oauth/register`);
    assert.equal(as.revocation_endpoint, `${t.url}/oauth/revoke`);
    assert.deepEqual(as.code_challenge_methods_supported, ['S256']);
    assert.deepEqual(as.response_types_supported, ['code']);
    assert.deepEqual(as.grant_types_supported, ['authorization_code', 'refresh_token']);
    assert.ok(as.token_endpoint_auth_methods_supported.includes('none'));
    assert.equal(as.authorization_response_iss_parameter_supported, true);
    // Not part of the REST API document.
    const doc = (await getJson(`${t.url}/openapi.json`)).body;
    assert.ok(!Object.keys(doc.paths).some((p) => p.startsWith('/oauth') || p.startsWith('/mcp') || p.startsWith('/.well-known')));
  });

  test('registration: public and confidential clients; bad metadata refused', async () => {
    const pub = await register({
      client_name: 'Pub',
      redirect_uris: ['http://localhost:33418/cb', 'cursor://anysphere/oauth'],
      token_endpoint_auth_method: 'none',
      scope: 'openid history:read',
    });
    assert.equal(pub.status, 201);
    assert.ok(pub.body.client_id.startsWith('mcp_client_'));
    assert.equal(pub.body.client_secret, undefined);
    assert.equal(pub.body.scope, 'history:read', 'unknown scopes are dropped');
    assert.deepEqual(pub.body.grant_types, ['authorization_code', 'refresh_token']);
    assert.equal(pub.headers.get('cache-control'), 'no-store');

    const conf = await register({ redirect_uris: ['https://app.example.com/cb'] });
    assert.equal(conf.status, 201);
    assert.equal(conf.body.token_endpoint_auth_method, 'client_secret_basic');
    assert.ok(conf.body.client_secret.startsWith('mcp_cs_'));
    assert.equal(conf.body.client_secret_expires_at, 0);
    assert.equal(conf.body.client_name, 'Unnamed application');
    // Only the digest is stored.
    const row = await t.store.db.selectFrom('oauth_clients').selectAll().where('client_id', '=', conf.body.client_id).executeTakeFirstOrThrow();
    assert.equal(row.secret_hash, sha256(conf.body.client_secret));

    for (const [body, error] of [
      [{ redirect_uris: ['http://evil.example/cb'] }, 'invalid_redirect_uri'],
      [{ redirect_uris: ['javascript:alert(1)'] }, 'invalid_redirect_uri'],
      [{ redirect_uris: ['https://app.example.com/cb#frag'] }, 'invalid_redirect_uri'],
      [{ redirect_uris: [] }, 'invalid_redirect_uri'],
      [{ client_name: 'x' }, 'invalid_redirect_uri'],
      [{ redirect_uris: ['https://a.example/cb'], grant_types: ['implicit'] }, 'invalid_client_metadata'],
      [{ redirect_uris: ['https://a.example/cb'], token_endpoint_auth_method: 'private_key_jwt' }, 'invalid_client_metadata'],
      [{ redirect_uris: ['https://a.example/cb'], client_name: 'x'.repeat(101) }, 'invalid_client_metadata'],
      [[1, 2], 'invalid_client_metadata'],
    ] as const) {
      const r = await register(body as Record<string, unknown>);
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.equal(r.body.error, error, JSON.stringify(body));
      assert.equal(r.body.success, false);
      assert.ok(r.body.error_description);
    }
  });

  test('authorization errors about the client are shown, never redirected', async () => {
    const { challenge } = verifierPair();
    const base = { response_type: 'code', code_challenge: challenge, code_challenge_method: 'S256' };
    for (const p of [
      { ...base, client_id: 'mcp_client_unknown', redirect_uri: REDIRECT_URI },
      { ...base, client_id: clientId, redirect_uri: 'http://127.0.0.1:9/elsewhere' },
      { ...base },
    ]) {
      const r = await fetch(authorizeUrl(p), { headers: { cookie: session }, redirect: 'manual' });
      assert.equal(r.status, 400, JSON.stringify(p));
      assert.equal(r.headers.get('location'), null);
      assert.match(r.headers.get('content-type') ?? '', /text\/html/);
      assert.match(await r.text(), /Authorization failed/);
    }
  });

  test('other authorization errors go back to the client with error, state and iss', async () => {
    const { challenge } = verifierPair();
    const ok = {
      response_type: 'code',
      client_id: clientId,
      redirect_uri: REDIRECT_URI,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      state: 'st',
    };
    for (const [p, error] of [
      [{ ...ok, code_challenge: undefined }, 'invalid_request'],
      [{ ...ok, code_challenge_method: 'plain' }, 'invalid_request'],
      [{ ...ok, code_challenge_method: undefined }, 'invalid_request'],
      [{ ...ok, code_challenge: 'short' }, 'invalid_request'],
      [{ ...ok, response_type: 'token' }, 'unsupported_response_type'],
      [{ ...ok, scope: 'admin' }, 'invalid_scope'],
      [{ ...ok, resource: 'https://evil.example/mcp' }, 'invalid_target'],
      [{ ...ok, resource: `${t.url}/api/v1/infrastructure` }, 'invalid_target'],
    ] as const) {
      const r = await fetch(authorizeUrl(p), { headers: { cookie: session }, redirect: 'manual' });
      assert.equal(r.status, 303, JSON.stringify(p));
      const loc = new URL(r.headers.get('location')!);
      assert.equal(`${loc.origin}${loc.pathname}`, REDIRECT_URI);
      assert.equal(loc.searchParams.get('error'), error, JSON.stringify(p));
      assert.equal(loc.searchParams.get('state'), 'st');
      assert.equal(loc.searchParams.get('iss'), t.url);
    }
  });

  test('without a web session: log in first (account login), then consent; no inline script on the page', async () => {
    const user = await createUser(t, 'standard');
    const { challenge } = verifierPair();
    const url = authorizeUrl({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: REDIRECT_URI,
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    const r = await fetch(url, { redirect: 'manual' });
    assert.equal(r.status, 302);
    const loginUrl = new URL(r.headers.get('location')!, t.url);
    assert.equal(loginUrl.pathname, '/oauth/login');
    const returnTo = loginUrl.searchParams.get('return_to')!;
    assert.ok(returnTo.startsWith('/oauth/authorize?'));

    const page = await fetch(loginUrl, { redirect: 'manual' });
    assert.equal(page.status, 200);
    const csrf = cookieFrom(page, 'oauth_csrf')!;
    const fields = formFields(await page.text());
    assert.equal(fields.return_to, returnTo);
    const post = (body: Record<string, string>, headers: Record<string, string> = {}) =>
      fetch(`${t.url}/oauth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: t.url, cookie: csrf, ...headers },
        body: new URLSearchParams(body),
        redirect: 'manual',
      });
    const wrong = await post({ ...fields, email: user.email, password: 'not the password' });
    assert.equal(wrong.status, 401);
    assert.match(await wrong.text(), /Wrong email or password/);
    const foreign = await post({ ...fields, email: user.email, password: PASSWORD }, { origin: 'https://evil.example' });
    assert.equal(foreign.status, 403);
    const offsite = await post({ ...fields, return_to: 'https://evil.example/', email: user.email, password: PASSWORD });
    assert.equal(offsite.status, 400);
    const good = await post({ ...fields, email: user.email, password: PASSWORD });
    assert.equal(good.status, 303);
    assert.equal(good.headers.get('location'), returnTo);
    const cookie = cookieFrom(good, 'vis_session')!;
    assert.ok(cookie);

    // Back on the login page with a session: straight on.
    const again = await fetch(loginUrl, { headers: { cookie }, redirect: 'manual' });
    assert.equal(again.status, 303);
    assert.equal(again.headers.get('location'), returnTo);

    const consentPage = await fetch(new URL(returnTo, t.url), { headers: { cookie }, redirect: 'manual' });
    assert.equal(consentPage.status, 200);
    const html = await consentPage.text();
    assert.match(html, /Allow <strong>Desk App<\/strong>/);
    assert.match(html, new RegExp(`Signed in as <strong>${user.email.replace(/\./g, '\\.')}</strong> \\(standard plan\\)`));
    assert.match(html, /the last 30 days/);
    // The site's layout: its own script modules only, nothing inline.
    assert.deepEqual(
      [...html.matchAll(/<script\b[^>]*>/gi)].filter((m) => !/ src="\/assets\/js\/[a-z-]+\.js\?v=[0-9a-f]+"/.test(m[0])),
      [],
    );
    assert.match(html, /<link rel="stylesheet" href="\/assets\/css\/app\.css\?v=/);
    const csp = consentPage.headers.get('content-security-policy') ?? '';
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /script-src 'self'/);
    assert.match(csp, /frame-ancestors 'none'/);
    assert.doesNotMatch(csp, /unsafe-inline/);
    // The decision is answered by a redirect to the application: form-action would block it.
    assert.doesNotMatch(csp, /form-action/);
    assert.equal(consentPage.headers.get('x-frame-options'), 'DENY');
    // Not no-referrer: with it, browsers post the form with `Origin: null`, which is refused.
    assert.equal(consentPage.headers.get('referrer-policy'), 'same-origin');
    assert.equal(page.headers.get('referrer-policy'), 'same-origin');
    assert.doesNotMatch(html, /<meta name="referrer"/);
  });

  test('the consent post needs our Origin, the form token and the session', async () => {
    const { challenge } = verifierPair();
    const url = authorizeUrl({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: REDIRECT_URI,
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    const page = await fetch(url, { headers: { cookie: session } });
    const csrf = cookieFrom(page, 'oauth_csrf')!;
    const fields = formFields(await page.text());
    const post = (headers: Record<string, string>, extra: Record<string, string> = {}) =>
      fetch(`${t.url}/oauth/authorize`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
        body: new URLSearchParams({ ...fields, decision: 'allow', ...extra }),
        redirect: 'manual',
      });
    assert.equal((await post({ cookie: `${session}; ${csrf}` })).status, 403, 'no Origin');
    assert.equal((await post({ cookie: `${session}; ${csrf}`, origin: 'https://evil.example' })).status, 403, 'foreign Origin');
    assert.equal((await post({ cookie: `${session}; ${csrf}`, origin: 'null' })).status, 403, 'opaque Origin, even with the token');
    assert.equal((await post({ cookie: session, origin: t.url })).status, 403, 'no csrf cookie');
    assert.equal((await post({ cookie: `${session}; ${csrf}`, origin: t.url }, { csrf_token: 'x'.repeat(43) })).status, 403, 'wrong token');
    assert.equal((await post({ cookie: csrf, origin: t.url })).status, 401, 'no session');
    const ok = await post({ cookie: `${session}; ${csrf}`, origin: t.url });
    assert.equal(ok.status, 303);
    assert.equal(ok.headers.get('referrer-policy'), 'no-referrer');
    assert.ok(new URL(ok.headers.get('location')!).searchParams.get('code'));
  });

  test('token endpoint: PKCE, redirect URI, single use, expiry, client binding', async () => {
    const a = await code();
    const wrongVerifier = await exchange({ client_id: clientId, code: a.code, code_verifier: verifierPair().verifier });
    assert.equal(wrongVerifier.status, 400);
    assert.equal(wrongVerifier.body.error, 'invalid_grant');
    assert.equal((await exchange({ client_id: clientId, code: a.code })).body.error, 'invalid_request', 'verifier required');
    assert.equal(
      (await exchange({ client_id: clientId, code: a.code, code_verifier: a.verifier, redirect_uri: 'http://127.0.0.1:9/other' })).body.error,
      'invalid_grant',
    );
    assert.equal(
      (await exchange({ client_id: clientId, code: a.code, code_verifier: a.verifier, resource: 'https://evil.example/mcp' })).body.error,
      'invalid_target',
    );
    const other = await register({ redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: 'none' });
    assert.equal((await exchange({ client_id: other.body.client_id, code: a.code, code_verifier: a.verifier })).body.error, 'invalid_grant');

    const ok = await exchange({ client_id: clientId, code: a.code, code_verifier: a.verifier, resource: `${t.url}/mcp` });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    assert.equal(ok.headers.get('cache-control'), 'no-store');
    assert.equal((await callHistory(ok.body.access_token)).status, 200);
    // Tokens are stored as digests only.
    const stored = await t.store.db.selectFrom('oauth_tokens').select('token_hash').execute();
    assert.ok(stored.some((r) => r.token_hash === sha256(ok.body.access_token)));
    assert.ok(!stored.some((r) => r.token_hash === ok.body.access_token || r.token_hash === ok.body.refresh_token));

    // A second exchange of the same code fails and revokes what the first one got.
    const replay = await exchange({ client_id: clientId, code: a.code, code_verifier: a.verifier });
    assert.equal(replay.body.error, 'invalid_grant');
    assert.equal((await callHistory(ok.body.access_token)).status, 401);

    const b = await code();
    clock.advance(6 * 60_000);
    assert.equal((await exchange({ client_id: clientId, code: b.code, code_verifier: b.verifier })).body.error, 'invalid_grant', 'expired');

    assert.equal((await getJson(`${t.url}/oauth/token`, form({ grant_type: 'password', client_id: clientId }))).body.error, 'unsupported_grant_type');
    assert.equal((await getJson(`${t.url}/oauth/token`, form({ client_id: clientId }))).body.error, 'invalid_request');
    const unknown = await getJson(`${t.url}/oauth/token`, form({ grant_type: 'authorization_code', client_id: 'mcp_client_nope' }));
    assert.equal(unknown.status, 401);
    assert.equal(unknown.body.error, 'invalid_client');
    const repeated = await getJson(`${t.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `grant_type=authorization_code&client_id=${clientId}&code=a&code=b`,
    });
    assert.equal(repeated.body.error, 'invalid_request');
  });

  test('confidential clients authenticate with their secret (basic or post)', async () => {
    const conf = await register({ redirect_uris: [REDIRECT_URI] });
    const id = conf.body.client_id;
    const secret = conf.body.client_secret;
    const a = await code({ client: id });
    const noSecret = await exchange({ client_id: id, code: a.code, code_verifier: a.verifier });
    assert.equal(noSecret.status, 401);
    const badBasic = await getJson(`${t.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from(`${id}:wrong`).toString('base64')}` },
      body: new URLSearchParams({ grant_type: 'authorization_code', code: a.code, code_verifier: a.verifier, redirect_uri: REDIRECT_URI }),
    });
    assert.equal(badBasic.status, 401);
    assert.match(badBasic.headers.get('www-authenticate') ?? '', /^Basic/);
    const basic = await getJson(`${t.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}` },
      body: new URLSearchParams({ grant_type: 'authorization_code', code: a.code, code_verifier: a.verifier, redirect_uri: REDIRECT_URI }),
    });
    assert.equal(basic.status, 200, JSON.stringify(basic.body));
    const refreshed = await getJson(
      `${t.url}/oauth/token`,
      form({ grant_type: 'refresh_token', refresh_token: basic.body.refresh_token, client_id: id, client_secret: secret }),
    );
    assert.equal(refreshed.status, 200);
    // Another client cannot use this client's refresh token.
    const stolen = await getJson(
      `${t.url}/oauth/token`,
      form({ grant_type: 'refresh_token', refresh_token: refreshed.body.refresh_token, client_id: clientId }),
    );
    assert.equal(stolen.body.error, 'invalid_grant');
  });

  test('revocation: an access token alone, or a refresh token with its whole grant', async () => {
    const a = await code();
    const tokens = (await exchange({ client_id: clientId, code: a.code, code_verifier: a.verifier })).body;
    const revokeAccess = await getJson(`${t.url}/oauth/revoke`, form({ token: tokens.access_token, client_id: clientId }));
    assert.equal(revokeAccess.status, 200);
    assert.equal((await callHistory(tokens.access_token)).status, 401);
    const refreshed = (await getJson(`${t.url}/oauth/token`, form({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: clientId })))
      .body;
    assert.ok(refreshed.access_token);
    assert.equal((await callHistory(refreshed.access_token)).status, 200);

    await getJson(`${t.url}/oauth/revoke`, form({ token: refreshed.refresh_token, token_type_hint: 'refresh_token', client_id: clientId }));
    assert.equal((await callHistory(refreshed.access_token)).status, 401);
    const after = await getJson(`${t.url}/oauth/token`, form({ grant_type: 'refresh_token', refresh_token: refreshed.refresh_token, client_id: clientId }));
    assert.equal(after.body.error, 'invalid_grant');

    const unknown = await getJson(`${t.url}/oauth/revoke`, form({ token: 'mcp_at_unknown', client_id: clientId }));
    assert.equal(unknown.status, 200, 'unknown tokens are not an error (RFC 7009)');
    assert.equal((await getJson(`${t.url}/oauth/revoke`, form({ client_id: clientId }))).body.error, 'invalid_request');
  });

  test('the account lists connected applications and disconnects them (tokens stop working)', async () => {
    const user = await createUser(t, 'standard');
    const mine = await webLogin(t, user.email);
    const { verifier, challenge } = verifierPair();
    const back = await consent(
      t.url,
      authorizeUrl({ response_type: 'code', client_id: clientId, redirect_uri: REDIRECT_URI, code_challenge: challenge, code_challenge_method: 'S256' }),
      mine,
    );
    const tokens = (await exchange({ client_id: clientId, code: back.searchParams.get('code')!, code_verifier: verifier })).body;
    assert.equal((await callHistory(tokens.access_token)).status, 200);

    const list = await getJson(`${t.url}/api/v1/account/connections`, { headers: { cookie: mine } });
    assert.equal(list.status, 200);
    assert.equal(list.body.connections.length, 1);
    const conn = list.body.connections[0];
    assert.equal(conn.name, 'Desk App');
    assert.equal(conn.clientId, clientId);
    assert.equal(conn.scope, 'history:read');
    assert.ok(conn.lastUsedAt);

    // Someone else's session cannot disconnect it.
    const other = await getJson(`${t.url}/api/v1/account/connections/${conn.id}`, {
      method: 'DELETE',
      headers: { cookie: session, origin: t.url, 'x-csrf-token': csrfTokenOf(session) },
    });
    assert.equal(other.status, 404);
    assert.equal((await callHistory(tokens.access_token)).status, 200);

    const del = await getJson(`${t.url}/api/v1/account/connections/${conn.id}`, {
      method: 'DELETE',
      headers: { cookie: mine, origin: t.url, 'x-csrf-token': csrfTokenOf(mine) },
    });
    assert.equal(del.status, 200);
    assert.equal((await callHistory(tokens.access_token)).status, 401);
    const refresh = await getJson(`${t.url}/oauth/token`, form({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: clientId }));
    assert.equal(refresh.body.error, 'invalid_grant');
    assert.deepEqual((await getJson(`${t.url}/api/v1/account/connections`, { headers: { cookie: mine } })).body.connections, []);
  });

  test('a token without the history scope gets 403 insufficient_scope on history, public tools still work', async () => {
    const user = await createUser(t, 'pro');
    const svc = oauthService({ oauth: t.repos.oauth, clock });
    const client = (await t.repos.oauth.getClient(clientId))!;
    const { verifier, challenge } = verifierPair();
    const c = await svc.createCode({
      client,
      userId: user.userId,
      orgId: user.userId,
      scope: '',
      resource: `${t.url}/mcp`,
      redirectUri: REDIRECT_URI,
      codeChallenge: challenge,
    });
    const tokens = await svc.exchangeCode({ client, code: c, redirectUri: REDIRECT_URI, codeVerifier: verifier, resource: undefined });
    const r = await callHistory(tokens.access_token);
    assert.equal(r.status, 403);
    assert.match(r.headers.get('www-authenticate') ?? '', /error="insufficient_scope", scope="history:read"/);
    const k = await connect(`${t.url}/mcp`, { token: tokens.access_token });
    const pub = await k.client.callTool({ name: 'get_active_incidents', arguments: {} });
    assert.equal(pub.isError, undefined);
    await k.close();
  });

  test('a token granted in a team organisation answers for the team, and stops when the user leaves it', async () => {
    // docs/teams.md, "MCP": the grant belongs to the user in the organisation their session acted for.
    const owner = await createUser(t, 'free');
    const member = await createUser(t, 'free');
    const team = await t.app.services.orgs.createFor(owner.userId, 'Team with MCP', 'pro');
    assert.ok(await t.repos.organisations.addMember(team.id, member.userId, 'viewer', clock.now()));
    const svc = oauthService({ oauth: t.repos.oauth, clock });
    const client = (await t.repos.oauth.getClient(clientId))!;
    const { verifier, challenge } = verifierPair();
    const c = await svc.createCode({
      client,
      userId: member.userId,
      orgId: team.id,
      scope: 'history:read',
      resource: `${t.url}/mcp`,
      redirectUri: REDIRECT_URI,
      codeChallenge: challenge,
    });
    const tokens = await svc.exchangeCode({ client, code: c, redirectUri: REDIRECT_URI, codeVerifier: verifier, resource: undefined });
    const k = await connect(`${t.url}/mcp`, { token: tokens.access_token });
    const r = await k.client.callTool({ name: 'get_incident_history', arguments: { timePeriod: '30d' } });
    await k.close();
    // The team's plan (pro), not the member's personal one (free, 7 days).
    assert.equal((r.structuredContent as { plan: string }).plan, 'pro');
    const ownerViewer = { ...(await t.app.services.accounts.personalViewer(owner.userId)), orgId: team.id, role: 'owner' as const };
    await t.app.services.orgs.removeMember(ownerViewer, team.id, member.userId);
    assert.equal((await callHistory(tokens.access_token)).status, 401);
  });

  test('a token issued for another resource is refused at the MCP endpoint (audience)', async () => {
    const user = await createUser(t, 'pro');
    const svc = oauthService({ oauth: t.repos.oauth, clock });
    const client = (await t.repos.oauth.getClient(clientId))!;
    const { verifier, challenge } = verifierPair();
    const c = await svc.createCode({
      client,
      userId: user.userId,
      orgId: user.userId,
      scope: 'history:read',
      resource: 'https://other.example/mcp',
      redirectUri: REDIRECT_URI,
      codeChallenge: challenge,
    });
    const tokens = await svc.exchangeCode({ client, code: c, redirectUri: REDIRECT_URI, codeVerifier: verifier, resource: undefined });
    const r = await callHistory(tokens.access_token);
    assert.equal(r.status, 401);
    assert.match(r.headers.get('www-authenticate') ?? '', /issued for another resource/);
  });
});

describe('MCP on its own port (MCP_PORT)', () => {
  let t: TestApp;
  before(async () => {
    t = await startApp({ env: { MCP_PORT: '0' } });
  });
  after(async () => t.close());

  test('serves /mcp and its metadata; OAuth runs on the main listener and the token works on both', async () => {
    const port = await t.app.mcp.listenOnOwnPort();
    assert.ok(port > 0 && port !== Number(new URL(t.url).port));
    const mcpOrigin = `http://127.0.0.1:${port}`;
    const prm = await getJson(`${mcpOrigin}/.well-known/oauth-protected-resource/mcp`);
    assert.deepEqual(prm.body.resource, `${mcpOrigin}/mcp`);
    assert.deepEqual(prm.body.authorization_servers, [t.url]);
    assert.equal((await getJson(`${mcpOrigin}/oauth/token`, { method: 'POST' })).status, 404, 'the authorization server is not on the MCP port');

    const anon = await connect(`${mcpOrigin}/mcp`);
    const down = await anon.client.callTool({ name: 'get_active_incidents', arguments: {} });
    assert.match(textOf(down), /No ongoing incidents known across all watched vendors/);
    await assert.rejects(
      anon.client.callTool({ name: 'get_incident_history', arguments: {} }),
      (err: unknown) => err instanceof StreamableHTTPError && err.code === 401,
    );
    await anon.close();

    const user = await createUser(t, 'free');
    const provider = new TestOAuthProvider(t.url, await webLogin(t, user.email));
    let c = await connect(`${mcpOrigin}/mcp`, { authProvider: provider });
    await assert.rejects(c.client.callTool({ name: 'get_incident_history', arguments: {} }));
    assert.equal(provider.authorizationUrls[0].searchParams.get('resource'), `${mcpOrigin}/mcp`);
    await c.transport.finishAuth(provider.code!);
    await c.close();
    c = await connect(`${mcpOrigin}/mcp`, { authProvider: provider });
    const r = await c.client.callTool({ name: 'get_incident_history', arguments: { vendor: 'github' } });
    assert.equal(r.isError, undefined, textOf(r));
    await c.close();
    const main = await connect(`${t.url}/mcp`, { token: provider.saved!.access_token });
    assert.equal((await main.client.callTool({ name: 'get_incident_history', arguments: {} })).isError, undefined);
    await main.close();
  });
});
