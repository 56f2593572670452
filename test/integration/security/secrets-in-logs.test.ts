import assert from 'node:assert/strict';
import { test } from 'node:test';
import { getJson, startApp } from '../../helpers/app.ts';
import { pagerDutyReply, startReceiver } from '../../helpers/receivers.ts';
import { send } from '../../helpers/users.ts';
import { redactUrl } from '../../../src/http/log-redaction.ts';
import { callMcpTool, fullAccount, logCapture } from './support.ts';

// The whole life of an account at LOG_LEVEL=trace, every log line captured, then
// searched for each secret and credential header value. Extends
// test/integration/http/secrets-in-logs.test.ts (account flow) and
// test/integration/mcp/secrets-in-logs.test.ts (OAuth flow) with the delivery secrets, the
// personal feed URL (its path is the token) and credentials put in a query string.

test('a whole account flow at trace level leaves no secret, Authorization or cookie value in the log', async () => {
  const log = logCapture();
  const hook = await startReceiver();
  const pd = await startReceiver(pagerDutyReply);
  const t = await startApp({
    env: { LOG_LEVEL: 'trace', DELIVER: 'off', OUTBOUND_ALLOW_PRIVATE: '127.0.0.1', PAGERDUTY_EVENTS_URL: `${pd.url}/v2/enqueue` },
    logStream: log.stream,
  });
  const secrets: Record<string, string> = {};
  try {
    const a = await fullAccount(t, { webhookUrl: `${hook.url}/hook` });
    Object.assign(secrets, a.hidden, a.channelSecrets, { csrfToken: a.csrfToken });
    const headers = { 'x-api-key': a.apiKey };

    // Log in again: JSON, form, and a wrong password.
    const again = await fetch(`${t.url}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email: a.email, password: a.password }),
    });
    assert.equal(again.status, 200);
    const second = again.headers
      .getSetCookie()
      .find((c) => c.startsWith('vis_session='))!
      .split(';')[0]!;
    secrets.secondSession = second.split('=')[1]!;
    assert.equal((await send(`${t.url}/api/v1/auth/login`, 'POST', {}, { email: a.email, password: `${a.password}x` })).status, 401);

    // The key in each header, and in query strings (not a way to authenticate, but it happens).
    assert.equal((await getJson(`${t.api}/vendor-count`, { headers })).status, 200);
    assert.equal((await getJson(`${t.api}/vendor-count`, { headers: { authorization: `Bearer ${a.apiKey}` } })).status, 200);
    for (const q of [
      `api_key=${a.apiKey}`,
      `apiKey=${a.apiKey}`,
      `key=${a.apiKey}`,
      `x=${a.apiKey}`,
      `access_token=${a.oauth.accessToken}`,
      `token=${a.feedToken}`,
    ]) {
      await getJson(`${t.api}/vendor-count?${q}`);
    }
    // Session calls, a session write (CSRF header), a wrong key, a wrong bearer token.
    assert.equal((await getJson(`${t.url}/api/v1/account`, { headers: { cookie: a.cookie } })).status, 200);
    assert.equal((await send(`${t.api}/watchlist/openai`, 'POST', { cookie: a.cookie, origin: t.url })).status, 200);
    assert.equal((await getJson(`${t.api}/watchlist`, { headers: { 'x-api-key': `${a.apiKey.slice(0, -2)}zz` } })).status, 401);

    // Personal feed (the token is the path) and delivery channels (signing secret, routing key).
    assert.equal((await fetch(`${t.url}/api/v1/feeds/${a.feedToken}.rss`)).status, 200);
    assert.equal((await fetch(`${t.url}/api/v1/feeds/${a.feedToken}.atom`)).status, 200);
    for (const channel of ['webhook', 'pagerduty']) {
      const r = await send(`${t.api}/notification-preferences/test`, 'POST', headers, { channel });
      assert.equal(r.body.delivered, true, JSON.stringify(r.body));
    }
    const rotated = await send(`${t.api}/notification-preferences/webhook/rotate-secret`, 'POST', headers);
    assert.equal(rotated.status, 200);
    secrets.rotatedWebhookSecret = rotated.body.preferences.webhook.secret;
    const feed = await send(`${t.api}/notification-preferences/rss/rotate-token`, 'POST', headers);
    assert.equal(feed.status, 200);
    secrets.rotatedFeedToken = /\/feeds\/([^.]+)\.rss$/.exec(feed.body.preferences.rss.feed_url)![1]!;
    assert.equal((await fetch(`${t.url}/api/v1/feeds/${secrets.rotatedFeedToken}.rss`)).status, 200);
    assert.equal((await fetch(`${t.url}/api/v1/feeds/${a.feedToken}.rss`)).status, 404);

    // MCP with the OAuth access token, then with a wrong one.
    const tool = await callMcpTool(t, a.oauth.accessToken, 'get_incident_history');
    assert.equal(tool.isError, undefined);
    const wrong = await fetch(`${t.url}/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${a.oauth.accessToken}x`, 'content-type': 'application/json' },
      body: '{}',
    });
    assert.equal(wrong.status, 401);

    const out = await send(`${t.url}/api/v1/auth/logout`, 'POST', { cookie: a.cookie, origin: t.url });
    assert.equal(out.status, 200);
  } finally {
    await t.close();
    await hook.close();
    await pd.close();
  }

  const text = log.text();
  assert.ok(text.includes('incoming request'), 'request lines were captured');
  assert.ok(text.includes('/api/v1/feeds/[redacted].rss'), 'feed requests were logged, redacted');
  assert.ok(text.includes('api_key=[redacted]'), 'the query-string key was logged, redacted');
  for (const [name, secret] of Object.entries(secrets)) {
    assert.ok(secret && secret.length >= 16, name);
    assert.ok(!text.includes(secret), `the log contains ${name}`);
  }
  // No credential header value of any kind, whatever its secret.
  assert.doesNotMatch(text, /Bearer [A-Za-z0-9_.~+/-]{8,}/);
  assert.doesNotMatch(text, /Basic [A-Za-z0-9+/=]{8,}/);
  assert.doesNotMatch(text, /vis_session=[A-Za-z0-9_-]{8,}/);
  assert.doesNotMatch(text, /vis_csrf=[A-Za-z0-9_-]{8,}/);
  assert.doesNotMatch(text, /whsec_[A-Za-z0-9+/=]{8,}/);
  assert.doesNotMatch(text, /vis_[0-9A-Za-z]{32,}/);
});

test('URL redaction: feed tokens, credential-named parameters and API keys anywhere', () => {
  const key = `vis_${'a1B2'.repeat(10)}`;
  assert.equal(redactUrl('/api/v1/feeds/abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG.atom'), '/api/v1/feeds/[redacted].atom');
  assert.equal(redactUrl('/api/v1/feeds/tok?x=1'), '/api/v1/feeds/[redacted]?x=1');
  assert.equal(
    redactUrl(`/x?vendor=github&api_key=${key}&Access-Token=abc&client_secret=s&code=c&limit=5`),
    '/x?vendor=github&api_key=[redacted]&Access-Token=[redacted]&client_secret=[redacted]&code=[redacted]&limit=5',
  );
  assert.equal(redactUrl(`/x?q=${key}`), '/x?q=vis_[redacted]');
  assert.equal(redactUrl(`/path/${key}/y`), '/path/vis_[redacted]/y');
  // Ordinary URLs are left as they are.
  for (const u of [
    '/api/v1/infrastructure/incidents?vendor=github&limit=50',
    '/',
    '/oauth/authorize?client_id=c&state=s&code_challenge_method=S256',
    '/login?next=%2Faccount',
  ]) {
    assert.equal(redactUrl(u), u);
  }
});
