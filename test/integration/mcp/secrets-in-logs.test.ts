import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { test } from 'node:test';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { getJson, startApp } from '../../helpers/app.ts';
import { connect, consent, cookieFrom, createUser, formFields, PASSWORD, REDIRECT_URI, TestOAuthProvider } from '../../helpers/mcp.ts';

test('no password, code, verifier, token or client secret of the OAuth flow reaches a log line, even at trace level', async () => {
  const lines: string[] = [];
  const stream = new PassThrough();
  stream.on('data', (chunk) => lines.push(String(chunk)));
  const t = await startApp({ env: { LOG_LEVEL: 'trace' }, logStream: stream });
  const secrets: string[] = [PASSWORD];
  try {
    const user = await createUser(t, 'pro');

    // Log in through the sign-in step of the authorization endpoint (form post with the password).
    const { challenge: c0 } = pair();
    const start = `${t.url}/oauth/authorize?${new URLSearchParams({ response_type: 'code', client_id: 'x', code_challenge: c0, code_challenge_method: 'S256' })}`;
    const reg = await getJson(`${t.url}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ redirect_uris: [REDIRECT_URI], client_name: 'Confidential' }),
    });
    secrets.push(reg.body.client_secret);
    const loginPage = await fetch(
      `${t.url}/oauth/login?return_to=${encodeURIComponent(start.replace(t.url, '').replace('client_id=x', `client_id=${reg.body.client_id}`))}`,
    );
    const csrf = cookieFrom(loginPage, 'oauth_csrf')!;
    const loggedIn = await fetch(`${t.url}/oauth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: t.url, cookie: csrf },
      body: new URLSearchParams({ ...formFields(await loginPage.text()), email: user.email, password: PASSWORD }),
      redirect: 'manual',
    });
    assert.equal(loggedIn.status, 303);
    const session = cookieFrom(loggedIn, 'vis_session')!;
    secrets.push(session.split('=')[1]);

    // A confidential client: code, verifier, basic auth, tokens, refresh, revoke.
    const { verifier, challenge } = pair();
    secrets.push(verifier);
    const back = await consent(
      t.url,
      `${t.url}/oauth/authorize?${new URLSearchParams({ response_type: 'code', client_id: reg.body.client_id, redirect_uri: REDIRECT_URI, code_challenge: challenge, code_challenge_method: 'S256' })}`,
      session,
    );
    const code = back.searchParams.get('code')!;
    secrets.push(code);
    const basic = `Basic ${Buffer.from(`${reg.body.client_id}:${reg.body.client_secret}`).toString('base64')}`;
    const tokens = await getJson(`${t.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic },
      body: new URLSearchParams({ grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: REDIRECT_URI }),
    });
    assert.equal(tokens.status, 200);
    secrets.push(tokens.body.access_token, tokens.body.refresh_token);
    const refreshed = await getJson(`${t.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: tokens.body.refresh_token }),
    });
    secrets.push(refreshed.body.access_token, refreshed.body.refresh_token);
    const mcp = await connect(`${t.url}/mcp`, { token: refreshed.body.access_token });
    assert.equal((await mcp.client.callTool({ name: 'get_incident_history', arguments: {} })).isError, undefined);
    await mcp.close();
    // A replayed refresh token (logged as a failure, without the token).
    const replay = await getJson(`${t.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: tokens.body.refresh_token }),
    });
    assert.equal(replay.body.error, 'invalid_grant');
    await getJson(`${t.url}/oauth/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic },
      body: new URLSearchParams({ token: refreshed.body.refresh_token }),
    });

    // And the SDK-driven flow of a public client.
    const provider = new TestOAuthProvider(t.url, session);
    const c = await connect(`${t.url}/mcp`, { authProvider: provider });
    await assert.rejects(c.client.callTool({ name: 'get_incident_history', arguments: {} }), UnauthorizedError);
    secrets.push(provider.code!, provider.verifier);
    await c.transport.finishAuth(provider.code!);
    secrets.push(provider.saved!.access_token, provider.saved!.refresh_token!);
    await c.close();
  } finally {
    await t.close();
  }
  const log = lines.join('');
  assert.ok(log.includes('oauth consent granted'), 'the log was captured');
  for (const s of secrets) {
    assert.ok(s && s.length > 8);
    assert.ok(!log.includes(s), `log contains a secret (${s.slice(0, 8)}…)`);
  }
});

function pair() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}
