import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { getJson, startApp, type TestApp } from '../../helpers/app.ts';
import { login, userWithKey, type TestUser } from '../../helpers/access.ts';
import { emit, incident } from '../../helpers/alerts.ts';
import { startSmtp } from '../../helpers/receivers.ts';
import { REDIRECT_URI } from '../../helpers/mcp.ts';
import { send } from '../../helpers/users.ts';
import { rawExchange } from './support.ts';

// Header injection: values a client controls (X-Request-Id, query, path, body)
// that the service could copy into response headers (X-Request-Id, Location of
// redirects, cache entries) or into outgoing messages (alert e-mail headers from
// vendor-controlled incident titles). CR/LF, over-long and non-ASCII values never
// produce an extra header, a broken response or a 500. (No route sets
// Content-Disposition.)

const SAFE_ID = /^[A-Za-z0-9._-]{1,64}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The header block of the first response in raw bytes, as lines. */
const headerLines = (raw: string) => raw.split('\r\n\r\n')[0]!.split('\r\n');

describe('header injection', () => {
  let t: TestApp;
  let u: TestUser;
  let cookie: string;
  let port: number;
  before(async () => {
    t = await startApp();
    u = await userWithKey(t, 'pro');
    cookie = await login(t, u.email, u.password);
    port = Number(new URL(t.url).port);
  });
  after(async () => t?.close());

  test('X-Request-Id: a safe token is echoed; CR/LF, over-long, odd or repeated values are replaced', async () => {
    const echoed = await fetch(`${t.url}/healthz`, { headers: { 'x-request-id': 'client-id_1.2' } });
    assert.equal(echoed.headers.get('x-request-id'), 'client-id_1.2');
    const bad = [
      'abc%0d%0aSet-Cookie:%20x=1',
      'abc\\r\\nX-Evil: 1',
      'a'.repeat(65),
      'b'.repeat(8000),
      'has space',
      'semi;colon',
      'comma,separated',
      '<script>',
      '',
    ];
    const paths = ['/healthz', `${'/api/v1/infrastructure'}/vendor-count`, '/api/v1/infrastructure/nope', '/api/v1/account', '/'];
    for (const value of bad) {
      for (const path of paths) {
        const res = await fetch(`${t.url}${path}`, { headers: { 'x-request-id': value } });
        const id = res.headers.get('x-request-id')!;
        assert.match(id, UUID, `${JSON.stringify(value.slice(0, 20))} on ${path}`);
        assert.equal(res.headers.get('x-evil'), null);
        assert.ok(!res.headers.getSetCookie().some((c) => c.startsWith('x=')));
        const body = await res.text();
        if (res.headers.get('content-type')?.includes('json') && res.status >= 400) assert.equal(JSON.parse(body).requestId, id);
      }
    }
    // Raw bytes: a real CR/LF inside the value never becomes a header of ours (the
    // parser splits it into two request headers, or refuses the request), obs-text
    // (latin1) and a repeated header are replaced.
    const raws = [
      'GET /healthz HTTP/1.1\r\nHost: x\r\nX-Request-Id: abc\rSet-Cookie: x=1\r\nConnection: close\r\n\r\n',
      'GET /healthz HTTP/1.1\r\nHost: x\r\nX-Request-Id: abc\r\nSet-Cookie: x=1\r\nConnection: close\r\n\r\n',
      'GET /healthz HTTP/1.1\r\nHost: x\r\nX-Request-Id: ab\xe9cd\r\nConnection: close\r\n\r\n',
      'GET /healthz HTTP/1.1\r\nHost: x\r\nX-Request-Id: one\r\nX-Request-Id: two\r\nConnection: close\r\n\r\n',
    ];
    for (const r of raws) {
      const { text } = await rawExchange(port, Buffer.from(r, 'latin1'));
      const lines = headerLines(text);
      assert.match(lines[0]!, /^HTTP\/1\.1 (200|400) /);
      assert.ok(!lines.some((l) => /^set-cookie:\s*x=1/i.test(l)), text);
      const id = lines.find((l) => /^x-request-id:/i.test(l))?.split(': ')[1];
      if (lines[0]!.includes('200')) assert.ok(id === 'abc' || UUID.test(id!), `${JSON.stringify(r)} -> ${id}`);
      if (id) assert.match(id, SAFE_ID);
    }
  });

  test('redirect targets (Location) never carry client CR/LF or non-ASCII, and never fail the page', async () => {
    const nexts = [
      '/%0d%0aSet-Cookie:%20x=1',
      '/%0aX-Evil:%201',
      '/%E2%80%A8x',
      '/%C4%81',
      '/ok%20space',
      '//evil.example.net',
      '/\\evil.example.net',
      'https://evil.example.net/',
    ];
    for (const next of nexts) {
      for (const page of ['/login', '/signup']) {
        const res = await fetch(`${t.url}${page}?next=${next}`, { headers: { cookie }, redirect: 'manual' });
        assert.equal(res.status, 303, `${page}?next=${next}`);
        assert.match(res.headers.get('location')!, /^\/account(\?welcome=1)?$/, `${page}?next=${next}`);
        assert.equal(res.headers.get('x-evil'), null);
      }
    }
    // A signed-out visitor sent to the login page: the original URL is percent-encoded into `next`.
    const res = await fetch(`${t.url}/account?x=%0d%0aSet-Cookie:%20x=1&y=%C4%81`, { redirect: 'manual' });
    assert.equal(res.status, 303);
    assert.match(res.headers.get('location')!, /^\/login\?next=[A-Za-z0-9%._~-]+$/);
    assert.ok(!res.headers.getSetCookie().some((c) => c.startsWith('x=')));
    // The OAuth server's redirects: a return_to with CR/LF is refused; `state` goes back percent-encoded.
    const back = await fetch(`${t.url}/oauth/login?return_to=${encodeURIComponent('/oauth/authorize\r\nX-Evil: 1')}`, { redirect: 'manual' });
    assert.equal(back.status, 400);
    const reg = await getJson(`${t.url}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: 'none' }),
    });
    const authorize = (state: string) =>
      fetch(`${t.url}/oauth/authorize?${new URLSearchParams({ client_id: reg.body.client_id, redirect_uri: REDIRECT_URI, response_type: 'token', state })}`, {
        redirect: 'manual',
        headers: { cookie: cookie.split(';')[0]! },
      });
    // Control characters in OAuth parameters are refused outright.
    const crlf = await authorize('x\r\nSet-Cookie: x=1\r\nX-Evil: 1');
    assert.equal(crlf.status, 400);
    assert.equal(crlf.headers.get('x-evil'), null);
    const state = 'x Set-Cookie: x=1; X-Evil: 1 \u0101';
    const err = await authorize(state);
    assert.equal(err.status, 303);
    const location = new URL(err.headers.get('location')!);
    assert.equal(location.searchParams.get('state'), state, 'state round-trips, encoded');
    assert.doesNotMatch(err.headers.get('location')!, /[\r\n\s]/);
    assert.equal(err.headers.get('x-evil'), null);
  });

  test('CR/LF in query, path or body values of API calls: refused or ignored, never reflected into a header', async () => {
    const h = { 'x-api-key': u.secret };
    const urls = [
      `${t.api}/incidents?vendor=%0d%0aX-Evil:%201`,
      `${t.api}/vendor-status/gith%0d%0aub`,
      `${t.api}/vendor-status/github?x=%0d%0aX-Cache:%20HIT%0d%0aX-Evil:%201`,
      `${t.api}/vendor-status/github?skipCache=%0d%0aX-Evil`,
      `${t.api}/incidents?limit=5%0d%0aX-Evil:%201`,
      `${t.url}/api/v1/feeds/abc%0d%0aX-Evil:%201.rss`,
    ];
    for (const url of urls) {
      for (const headers of [h, {}]) {
        const res = await fetch(url, { headers });
        assert.ok(res.status < 500, `${url}: ${res.status}`);
        assert.equal(res.headers.get('x-evil'), null, url);
        for (const [name, value] of res.headers) assert.doesNotMatch(`${name}: ${value}`, /[\r\n]|x-evil/i, url);
        await res.arrayBuffer();
      }
    }
    // The cache entry filled by the probe above is the clean one (the extra parameter was dropped).
    const hit = await fetch(`${t.api}/vendor-status/github`, { headers: h });
    assert.equal(hit.headers.get('x-evil'), null);
    assert.ok(['HIT', 'MISS'].includes(hit.headers.get('x-cache')!));
    // Body values with CR/LF (a key name) are refused as data, never reach a header.
    const key = await send(`${t.url}/api/v1/account/keys`, 'POST', { cookie, origin: t.url }, { name: 'ci\r\nX-Evil: 1' });
    assert.equal(key.status, 400);
    assert.equal(key.headers.get('x-evil'), null);
  });

  test('an incident title with CR/LF (vendor-controlled) does not add headers or recipients to the alert e-mail', async () => {
    const smtp = await startSmtp();
    const app = await startApp({ env: { DELIVER: 'off', SMTP_URL: smtp.url } });
    try {
      const v = await userWithKey(app, 'pro', 'mail');
      assert.equal((await send(`${app.api}/watchlist`, 'PUT', { 'x-api-key': v.secret }, { vendors: ['github'] })).status, 200);
      const p = await send(`${app.api}/notification-preferences`, 'PUT', { 'x-api-key': v.secret }, { email: { enabled: true }, in_app: { enabled: false } });
      assert.equal(p.status, 200, JSON.stringify(p.body));
      await emit(app, 'incident.created', incident('github', { title: 'Outage\r\nBcc: victim@example.net\r\nX-Evil: 1\r\n\r\nforged body' }));
      await app.app.alerts.runOnce();
      assert.equal(smtp.mails.length, 1);
      const mail = smtp.mails[0]!;
      assert.deepEqual(mail.to, [v.email]);
      const head = mail.raw.split('\r\n\r\n')[0]!;
      assert.ok(!/^(bcc|x-evil):/im.test(head), head);
      assert.match(head, /^Subject: .*Outage/m);
    } finally {
      await app.close();
      await smtp.close();
    }
  });
});
