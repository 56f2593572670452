import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { getJson, startApp, type TestApp } from '../helpers/app.ts';
import { seedDashboard } from '../helpers/seed.ts';
import { createUser, type TestUser } from '../helpers/users.ts';

// Opt-in CORS (docs/integrations.md) over real HTTP: preflights with Origin and
// Access-Control-Request-Method, the headers on answers (cache hits and errors
// included), no credentials ever, per-user routes left out, and nothing without
// CORS_ORIGINS.

const PAGE = 'https://app.example.com';

function preflight(url: string, origin: string, headers = 'x-api-key') {
  return fetch(url, {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': 'GET', 'access-control-request-headers': headers },
  });
}

describe('CORS with named origins', () => {
  let t: TestApp;
  let u: TestUser;
  before(async () => {
    t = await startApp({ env: { CORS_ORIGINS: `${PAGE}, https://other.example.org` } });
    await seedDashboard(t.store);
    u = await createUser(t, 'pro');
  });
  after(async () => t.close());

  test('a preflight from an allowed origin is answered for public GET routes', async () => {
    for (const path of ['/api/v1/infrastructure/vendor-status/github', '/api/v1/infrastructure/incidents', '/badges/github.svg']) {
      const r = await preflight(`${t.url}${path}?limit=5`, PAGE);
      assert.equal(r.status, 204, path);
      assert.equal(r.headers.get('access-control-allow-origin'), PAGE);
      assert.equal(r.headers.get('access-control-allow-methods'), 'GET, HEAD');
      assert.match(r.headers.get('access-control-allow-headers') ?? '', /X-API-Key/);
      assert.equal(r.headers.get('access-control-allow-credentials'), null);
      assert.match(r.headers.get('vary') ?? '', /Origin/);
      assert.equal(await r.text(), '');
    }
  });

  test('refused preflights: other origin or method (no CORS headers), per-user or unknown path (404)', async () => {
    const foreign = await preflight(`${t.url}/api/v1/infrastructure/incidents`, 'https://evil.example.net');
    assert.equal(foreign.status, 204);
    assert.equal(foreign.headers.get('access-control-allow-origin'), null);
    const post = await fetch(`${t.url}/api/v1/infrastructure/incidents`, {
      method: 'OPTIONS',
      headers: { origin: PAGE, 'access-control-request-method': 'DELETE' },
    });
    assert.equal(post.headers.get('access-control-allow-origin'), null);
    for (const path of ['/api/v1/infrastructure/watchlist', '/api/v1/account', '/nowhere']) {
      const r = await getJson(`${t.url}${path}`, { method: 'OPTIONS', headers: { origin: PAGE, 'access-control-request-method': 'GET' } });
      assert.equal(r.status, 404, path);
      assert.equal(r.body.error, 'not_found');
      assert.equal(r.headers.get('access-control-allow-origin'), null);
    }
  });

  test('answers carry the origin and exposed headers, on a miss, a keyed cache hit and an error', async () => {
    const url = `${t.api}/vendor-status/github`;
    const headers = { origin: PAGE, ...u.headers };
    const miss = await fetch(url, { headers });
    const hit = await fetch(url, { headers });
    assert.equal(miss.headers.get('x-cache'), 'MISS');
    assert.equal(hit.headers.get('x-cache'), 'HIT');
    for (const r of [miss, hit]) {
      assert.equal(r.status, 200);
      assert.equal(r.headers.get('access-control-allow-origin'), PAGE);
      assert.match(r.headers.get('access-control-expose-headers') ?? '', /ETag.*RateLimit/);
      assert.equal(r.headers.get('access-control-allow-credentials'), null);
      await r.arrayBuffer();
    }
    // Without an Origin the server hot path answers the hit, and says the answer varies by
    // Origin (and by Accept-Encoding, as every compressible answer).
    const plain = await fetch(url, { headers: u.headers });
    assert.equal(plain.headers.get('x-cache'), 'HIT');
    assert.deepEqual((plain.headers.get('vary') ?? '').split(/,\s*/).sort(), ['Accept-Encoding', 'Origin']);
    assert.equal(plain.headers.get('access-control-allow-origin'), null);
    await plain.arrayBuffer();
    const missing = await fetch(`${t.api}/vendor-status/no-such-vendor`, { headers: { origin: PAGE } });
    assert.equal(missing.status, 404);
    assert.equal(missing.headers.get('access-control-allow-origin'), PAGE);
    const badKey = await fetch(url, { headers: { origin: PAGE, 'x-api-key': 'vis_wrong' } });
    assert.equal(badKey.status, 401);
    assert.equal(badKey.headers.get('access-control-allow-origin'), PAGE);
    const foreign = await fetch(url, { headers: { origin: 'https://evil.example.net' } });
    assert.equal(foreign.status, 200);
    assert.equal(foreign.headers.get('access-control-allow-origin'), null);
  });

  test('the event stream answers cross-origin too (EventSource from another origin)', async () => {
    const ac = new AbortController();
    const r = await fetch(`${t.api}/incidents/stream`, { headers: { origin: PAGE, ...u.headers }, signal: ac.signal });
    assert.equal(r.status, 200);
    assert.match(r.headers.get('content-type') ?? '', /^text\/event-stream/);
    assert.equal(r.headers.get('access-control-allow-origin'), PAGE);
    ac.abort();
    await r.body?.cancel().catch(() => {});
  });

  test('per-user routes never answer cross-origin', async () => {
    const r = await fetch(`${t.api}/watchlist`, { headers: { origin: PAGE, ...u.headers } });
    assert.equal(r.status, 200);
    assert.equal(r.headers.get('access-control-allow-origin'), null);
  });
});

describe('CORS with *', () => {
  let t: TestApp;
  before(async () => {
    t = await startApp({ env: { CORS_ORIGINS: '*' } });
  });
  after(async () => t.close());

  test('any origin, answered with *', async () => {
    const p = await preflight(`${t.api}/vendor-list`, 'https://anyone.example');
    assert.equal(p.headers.get('access-control-allow-origin'), '*');
    const r = await fetch(`${t.api}/vendor-list`, { headers: { origin: 'https://anyone.example' } });
    assert.equal(r.headers.get('access-control-allow-origin'), '*');
    assert.equal(r.headers.get('access-control-allow-credentials'), null);
  });
});

describe('CORS off (no CORS_ORIGINS)', () => {
  let t: TestApp;
  before(async () => {
    t = await startApp();
  });
  after(async () => t.close());

  test('no CORS headers and no preflight answers', async () => {
    const p = await preflight(`${t.api}/vendor-list`, PAGE);
    assert.equal(p.status, 404);
    assert.equal(p.headers.get('access-control-allow-origin'), null);
    const r = await fetch(`${t.api}/vendor-list`, { headers: { origin: PAGE } });
    assert.equal(r.headers.get('access-control-allow-origin'), null);
  });
});
