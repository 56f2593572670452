import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { userWithKey } from '../../helpers/access.ts';
import type { TestUser } from '../../helpers/users.ts';

// The order of a route's chain (docs/access.md "Pipeline"), seen from outside: the query
// check comes before authentication, CORS headers before every refusal, authentication
// before counting, a 304 is free, a generated HEAD route is counted once, like its GET.

describe('access chain order', () => {
  let t: TestApp;
  let u: TestUser & { secret: string };
  const remaining = async (headers: Record<string, string>) => {
    const r = await fetch(`${t.api}/vendor-list`, { headers });
    assert.equal(r.status, 200);
    return Number(r.headers.get('x-ratelimit-remaining'));
  };

  before(async () => {
    t = await startApp({ env: { CORS_ORIGINS: 'https://dash.example.com' } });
    u = (await userWithKey(t, 'pro')) as never;
  });
  after(() => t.close());

  test('an undocumented query parameter is refused before the key is looked at', async () => {
    const r = await fetch(`${t.api}/incidents?limti=5`, { headers: { 'x-api-key': 'vis_not_a_key' } });
    assert.equal(r.status, 400);
    assert.equal((await r.json()).error, 'invalid_parameter');
  });

  test('a refusal of authentication carries the CORS headers', async () => {
    const r = await fetch(`${t.api}/incidents`, { headers: { 'x-api-key': 'vis_not_a_key', origin: 'https://dash.example.com' } });
    assert.equal(r.status, 401);
    assert.equal(r.headers.get('access-control-allow-origin'), 'https://dash.example.com');
  });

  test('counting comes after authentication: refused calls and 304s cost nothing, HEAD counts once', async () => {
    const key = { 'x-api-key': u.secret };
    const start = await remaining(key);
    // A refused credential is not counted against anyone's organisation.
    assert.equal((await fetch(`${t.api}/vendor-list`, { headers: { 'x-api-key': `${u.secret}x` } })).status, 401);
    assert.equal(await remaining(key), start - 1);
    const etag = (await fetch(`${t.api}/incidents`, { headers: key })).headers.get('etag')!;
    const before304 = await remaining(key);
    const conditional = await fetch(`${t.api}/incidents`, { headers: { ...key, 'if-none-match': etag } });
    assert.equal(conditional.status, 304);
    assert.equal(await remaining(key), before304 - 1, 'the 304 was free');
    const head = await fetch(`${t.api}/vendor-list`, { method: 'HEAD', headers: key });
    assert.equal(head.status, 200);
    assert.equal(Number(head.headers.get('x-ratelimit-remaining')), before304 - 2, 'HEAD counted once');
  });
});
