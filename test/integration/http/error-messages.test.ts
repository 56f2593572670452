import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startApp, type TestApp, UNLIMITED_RATE_LIMITS } from '../../helpers/app.ts';
import { seedDashboard } from '../../helpers/seed.ts';

// Error messages are written for the person who reads them (docs/api.md, "Errors"): allowed
// values listed, no regular expression quoted back, the nearest parameter or vendor suggested,
// and a known path asked with another method is 405 with `Allow`.

describe('error messages for people', () => {
  let t: TestApp;
  before(async () => {
    t = await startApp({ env: { RATE_LIMITS: UNLIMITED_RATE_LIMITS } });
    await seedDashboard(t.store);
  });
  after(async () => t.close());

  const get = async (path: string, init: RequestInit = {}) => {
    const res = await fetch(`${t.api}${path}`, init);
    return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
  };

  test('an enum lists its allowed values', async () => {
    const r = await get('/incidents?status=bogus');
    assert.equal(r.status, 400);
    assert.equal(r.body.parameter, 'status');
    assert.match(String(r.body.message), /^Invalid parameter 'status': must be one of /);
    for (const v of ['investigating', 'monitoring', 'resolved']) assert.ok(String(r.body.message).includes(v), String(r.body.message));
  });

  test('no regular expression is quoted back', async () => {
    for (const path of ['/vendor-status/GIT%20HUB!', '/incidents?vendor=Not%20A%20Slug!']) {
      const r = await get(path);
      assert.equal(r.status, 400, path);
      assert.doesNotMatch(String(r.body.message), /pattern|\^|\$|\[a-z/, `${path}: ${r.body.message}`);
      assert.match(String(r.body.message), /not allowed here/);
    }
  });

  test('types are named in words', async () => {
    const r = await get('/incidents?limit=abc');
    assert.equal(r.status, 400);
    assert.equal(r.body.message, "Invalid parameter 'limit': must be a whole number");
  });

  test('an unknown vendor suggests the nearest one this caller may see', async () => {
    const r = await get('/vendor-status/githb');
    assert.equal(r.status, 404);
    assert.equal(r.body.message, "Unknown vendor 'githb' (did you mean 'github'?)");
    assert.equal(r.body.suggestion, 'github');
    const list = await get('/incidents?vendor=cloudflar');
    assert.equal(list.status, 404);
    assert.match(String(list.body.message), /did you mean 'cloudflare'\?/);
    const far = await get('/vendor-status/zzzzzzzz');
    assert.equal(far.body.message, "Unknown vendor 'zzzzzzzz'");
    assert.equal(far.body.suggestion, undefined);
  });

  test('a wrong method on a known path is 405 with Allow', async () => {
    const r = await get('/incidents', { method: 'DELETE' });
    assert.equal(r.status, 405);
    assert.equal(r.body.error, 'method_not_allowed');
    assert.match(r.headers.get('allow') ?? '', /\bGET\b/);
    assert.match(String(r.body.message), /^DELETE is not allowed on \/api\/v1\/infrastructure\/incidents; use /);
    const param = await get('/vendor-status/github', { method: 'POST' });
    assert.equal(param.status, 405);
    // A path that exists for no method stays 404.
    assert.equal((await get('/no-such-thing', { method: 'DELETE' })).status, 404);
  });
});
