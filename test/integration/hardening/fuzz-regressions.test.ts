import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { csrfTokenOf, login, userWithKey } from '../../helpers/access.ts';
import { getJson, startApp, type TestApp } from '../../helpers/app.ts';
import { rawExchange } from '../../helpers/fuzz-http.ts';

// Bugs the fuzz suite found (docs/hardening.md), each pinned by the request that
// showed it. Both legs: the NUL cases were 500s on PostgreSQL only.

// One suite per file: its hooks belong to it when files share a process (docs/testing.md, "Batches").
describe('fuzzing regressions', () => {
  let t: TestApp;
  let session: Record<string, string>;
  let key: string;
  before(async () => {
    t = await startApp({ env: { API_KEY_MIN_PLAN: 'free' } });
    const u = await userWithKey(t, 'pro', 'regress');
    key = u.secret;
    const cookie = await login(t, u.email, u.password);
    session = { cookie, origin: t.url, 'x-csrf-token': csrfTokenOf(cookie) };
  });
  after(async () => t.close());

  function assertErrorBody(body: any, error: string) {
    assert.equal(body.success, false);
    assert.equal(body.error, error);
    assert.equal(typeof body.message, 'string');
    assert.doesNotMatch(JSON.stringify(body), /FST_ERR|statusCode/);
  }

  describe('answers given before routing have the error body', () => {
    test("a malformed percent-encoding in the path: 400, not Fastify's own body quoting the path", async () => {
      for (const bad of ['%ZZ', '%ED%A0%80', '%C0%AF', 'github%']) {
        const r = await getJson(`${t.api}/vendor-info/${bad}`);
        assert.equal(r.status, 400, bad);
        assertErrorBody(r.body, 'bad_request');
        assert.equal(r.body.requestId, r.headers.get('x-request-id'));
      }
    });

    test('a path parameter over 100 characters: 414 with the error body', async () => {
      const r = await getJson(`${t.api}/vendor-info/${'a'.repeat(150)}`);
      assert.equal(r.status, 414);
      assertErrorBody(r.body, 'uri_too_long');
      assert.equal(r.body.requestId, r.headers.get('x-request-id'));
    });

    test('headers over 16 kB: 431 with the error body, and the connection says it closes', async () => {
      const res = await rawExchange(t.url, Buffer.from(`GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`), { expectResponse: true });
      assert.equal(res.status, 431);
      assert.equal(res.headers.connection, 'close');
      assertErrorBody(JSON.parse(res.body), 'headers_too_large');
    });

    test('broken HTTP framing: 400 with the error body', async () => {
      const res = await rawExchange(t.url, Buffer.from('GET /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n'), {
        expectResponse: true,
      });
      assert.equal(res.status, 400);
      assert.equal(res.headers.connection, 'close');
      assertErrorBody(JSON.parse(res.body), 'bad_request');
    });

    test('the OpenAPI document lists these answers', async () => {
      const doc = (await getJson(`${t.url}/openapi.json`)).body;
      const info = doc.paths['/api/v1/infrastructure/vendor-info/{vendor}'].get.responses;
      assert.ok(info['414'] && info['431'] && info['400']);
      const put = doc.paths['/api/v1/infrastructure/watchlist'].put.responses;
      assert.ok(put['413'] && put['415']);
      assert.ok(doc.paths['/healthz'].get.responses['431']);
    });
  });

  describe('text PostgreSQL cannot store is refused by validation', () => {
    test('NUL in an API key id or a connection id: 400, not a failed query', async () => {
      for (const path of ['/api/v1/account/keys/%00abc', '/api/v1/account/connections/%00abc', '/api/v1/account/keys/a%20b']) {
        const r = await getJson(`${t.url}${path}`, { method: 'DELETE', headers: session });
        assert.equal(r.status, 400, path);
        assertErrorBody(r.body, 'invalid_parameter');
      }
      // A well-formed id that is not the caller's is still a 404.
      const unknown = await getJson(`${t.url}/api/v1/account/keys/00000000-0000-0000-0000-000000000000`, { method: 'DELETE', headers: session });
      assert.equal(unknown.status, 404);
    });

    test('NUL, control characters or a lone surrogate in an API key name: 400', async () => {
      for (const name of ['a\u0000b', 'line\nbreak', 'x\ud800']) {
        const r = await getJson(`${t.url}/api/v1/account/keys`, {
          method: 'POST',
          headers: { ...session, 'content-type': 'application/json' },
          body: JSON.stringify({ name }),
        });
        assert.equal(r.status, 400, JSON.stringify(name));
        assert.equal(r.body.parameter, 'body.name');
      }
      const ok = await getJson(`${t.url}/api/v1/account/keys`, {
        method: 'POST',
        headers: { ...session, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'CI 😀 déploiement' }),
      });
      assert.equal(ok.status, 201);
      assert.equal(ok.body.key.name, 'CI 😀 déploiement');
      const keys = await getJson(`${t.url}/api/v1/account/keys`, { headers: { 'x-api-key': key } });
      assert.equal(keys.status, 200);
    });
  });

  describe('OAuth parameters PostgreSQL cannot look up are refused', () => {
    const form = (path: string, body: string, headers: Record<string, string> = {}) =>
      getJson(`${t.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body });

    test('a NUL in a token, code or client id: 400 invalid_request, not a failed query', async () => {
      for (const [path, body] of [
        ['/oauth/token', 'grant_type=authorization_code&code=%00&client_id=%00&redirect_uri=x&code_verifier=x'],
        ['/oauth/token', 'grant_type=refresh_token&refresh_token=%00abc&client_id=abc'],
        ['/oauth/revoke', 'token=%00abc&client_id=abc'],
      ] as const) {
        const r = await form(path, body);
        assert.equal(r.status, 400, body);
        assert.equal(r.body.error, 'invalid_request');
      }
      const authorize = await fetch(`${t.url}/oauth/authorize?client_id=%00&response_type=code&redirect_uri=x&code_challenge=x&code_challenge_method=S256`);
      assert.equal(authorize.status, 400);
    });

    test('a NUL in HTTP Basic client credentials: 401 invalid_client', async () => {
      const basic = `Basic ${Buffer.from('a%00b:secret').toString('base64')}`;
      for (const path of ['/oauth/token', '/oauth/revoke']) {
        const r = await form(path, path.endsWith('token') ? 'grant_type=refresh_token&refresh_token=abc' : 'token=abc', { authorization: basic });
        assert.equal(r.status, 401, path);
        assert.equal(r.body.error, 'invalid_client');
      }
    });
  });

  describe('integers in query strings', () => {
    test('a value Ajv coerces to Infinity ("1e400", "Infinity"): 400, not a LIMIT Infinity query', async () => {
      const urls = [
        ...['/incidents', '/maintenance', '/advisories-unified', '/dashboard-recent-activity', '/notifications', '/notification-deliveries'].flatMap((p) => [
          `${p}?limit=1e400`,
          `${p}?limit=Infinity`,
          `${p}?limit=-1e400`,
        ]),
        '/incidents?offset=1e400',
        '/maintenance?offset=Infinity',
      ];
      for (const url of urls) {
        const r = await getJson(`${t.api}${url}`, { headers: { 'x-api-key': key } });
        assert.equal(r.status, 400, url);
        assert.match(r.body.message, /must be a finite number/, url);
      }
      const stream = await getJson(`${t.api}/incidents/stream?lastEventId=1e400`, { headers: { 'x-api-key': key } });
      assert.equal(stream.status, 400);
    });
  });

  describe('HEAD of the event stream', () => {
    test('answers the stream headers and ends, instead of never sending them', async () => {
      for (const q of ['', '?lastEventId=1', '?vendor=github&limit=1']) {
        const r = await fetch(`${t.api}/incidents/stream${q}`, { method: 'HEAD', signal: AbortSignal.timeout(10_000) });
        assert.equal(r.status, 200, q);
        assert.match(r.headers.get('content-type') ?? '', /^text\/event-stream/);
      }
      // Validation still applies.
      const unknown = await fetch(`${t.api}/incidents/stream?vendor=no-such-vendor`, { method: 'HEAD' });
      assert.equal(unknown.status, 404);
      // No stream slot was kept: the anonymous caller (one concurrent stream) can still open one.
      const ac = new AbortController();
      const live = await fetch(`${t.api}/incidents/stream`, { signal: ac.signal });
      assert.equal(live.status, 200);
      ac.abort();
    });
  });
});
