import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { userWithKey, uniqueEmail } from '../helpers/access.ts';
import { getJson, startApp, type TestApp } from '../helpers/app.ts';
import { cookieFrom, formFields } from '../helpers/mcp.ts';

// Login and signup throttles under concurrent bursts over real HTTP (docs/security.md,
// "Throttles under concurrency"): an attempt is reserved before any password work, so
// a burst gets no more evaluations than the window allows. Runs on SQLite with
// in-process limits, and on PostgreSQL + Redis with DATABASE_URL/REDIS_URL set.

const post = (t: TestApp, path: string, body: unknown, ip?: string) =>
  getJson(`${t.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(ip ? { 'x-forwarded-for': ip } : {}) },
    body: JSON.stringify(body),
  });

const tally = (rs: { status: number }[]) => {
  const out: Record<number, number> = {};
  for (const r of rs) out[r.status] = (out[r.status] ?? 0) + 1;
  return out;
};

describe('login and signup throttles under concurrency', () => {
  let t: TestApp;
  before(async () => {
    // One proxy hop in front: each test speaks from its own client address.
    t = await startApp({ env: { TRUST_PROXY: '1' } });
  });
  after(async () => t.close());

  test('40 concurrent wrong passwords for one account: at most 5 are evaluated', async () => {
    const u = await userWithKey(t, 'free');
    const rs = await Promise.all(
      Array.from({ length: 40 }, () => post(t, '/api/v1/auth/login', { email: u.email, password: 'not the right one' }, '198.51.100.1')),
    );
    const n = tally(rs);
    assert.equal((n[401] ?? 0) + (n[429] ?? 0), 40, JSON.stringify(n));
    assert.ok((n[401] ?? 0) <= 5, `evaluated ${n[401]} of 40: ${JSON.stringify(n)}`);
    for (const r of rs.filter((x) => x.status === 429)) assert.equal(r.body.error, 'rate_limit_exceeded');
  });

  test('the right password inside a 50-guess burst does not get through the throttle', async () => {
    const u = await userWithKey(t, 'free');
    const guesses = Array.from({ length: 50 }, (_, i) => (i === 49 ? u.password : `wrong guess ${i}`));
    const rs = await Promise.all(guesses.map((password) => post(t, '/api/v1/auth/login', { email: u.email, password }, '198.51.100.2')));
    const n = tally(rs);
    assert.ok((n[200] ?? 0) + (n[401] ?? 0) <= 5, `evaluated ${JSON.stringify(n)}`);
    // The window is spent: the right password is refused now too.
    const again = await post(t, '/api/v1/auth/login', { email: u.email, password: u.password }, '198.51.100.2');
    assert.equal(again.status, 429);
  });

  test('the OAuth sign-in form: a 40-guess burst gets at most 5 evaluations', async () => {
    const u = await userWithKey(t, 'free');
    const page = await fetch(`${t.url}/oauth/login?return_to=${encodeURIComponent('/oauth/authorize?client_id=x')}`, {
      redirect: 'manual',
      headers: { 'x-forwarded-for': '198.51.100.7' },
    });
    assert.equal(page.status, 200);
    const csrf = cookieFrom(page, 'oauth_csrf')!;
    const fields = formFields(await page.text());
    const guesses = Array.from({ length: 40 }, (_, i) => (i === 39 ? u.password : `wrong guess ${i}`));
    const rs = await Promise.all(
      guesses.map((password) =>
        fetch(`${t.url}/oauth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', origin: t.url, cookie: csrf, 'x-forwarded-for': '198.51.100.7' },
          body: new URLSearchParams({ ...fields, email: u.email, password }),
          redirect: 'manual',
        }).then(async (r) => ({ status: r.status, text: await r.text() })),
      ),
    );
    const n = tally(rs);
    assert.equal(n[429] ?? 0, rs.length - (n[401] ?? 0) - (n[302] ?? 0) - (n[303] ?? 0), JSON.stringify(n));
    assert.ok(rs.length - (n[429] ?? 0) <= 5, `evaluated ${JSON.stringify(n)}`);
  });

  test('40 concurrent wrong logins on different accounts from one address: at most 30 are evaluated', async () => {
    const rs = await Promise.all(
      Array.from({ length: 40 }, (_, i) => post(t, '/api/v1/auth/login', { email: uniqueEmail(`nobody${i}`), password: 'whatever password' }, '198.51.100.3')),
    );
    const n = tally(rs);
    assert.ok((n[401] ?? 0) <= 30 && (n[429] ?? 0) >= 10, JSON.stringify(n));
  });

  test('a successful login costs no attempt', async () => {
    const u = await userWithKey(t, 'free');
    for (let i = 0; i < 8; i++) assert.equal((await post(t, '/api/v1/auth/login', { email: u.email, password: u.password }, '198.51.100.4')).status, 200);
    assert.equal((await post(t, '/api/v1/auth/login', { email: u.email, password: 'wrong password 1' }, '198.51.100.4')).status, 401);
  });

  test('20 concurrent signups from one address make at most 10 accounts', async () => {
    const rs = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        post(t, '/api/v1/auth/signup', { email: uniqueEmail(`burst${i}`), password: 'long enough password' }, '198.51.100.5'),
      ),
    );
    const n = tally(rs);
    assert.ok((n[201] ?? 0) <= 10, `created ${JSON.stringify(n)}`);
    assert.equal((n[201] ?? 0) + (n[429] ?? 0), 20, JSON.stringify(n));
  });

  test('signups answered 409 count toward the limit; 400s do not', async () => {
    const taken = uniqueEmail('taken');
    const ip = '198.51.100.6';
    assert.equal((await post(t, '/api/v1/auth/signup', { email: taken, password: 'long enough password' }, ip)).status, 201);
    for (let i = 0; i < 5; i++) assert.equal((await post(t, '/api/v1/auth/signup', { email: taken, password: 'short' }, ip)).status, 400);
    for (let i = 0; i < 9; i++)
      assert.equal((await post(t, '/api/v1/auth/signup', { email: taken, password: 'long enough password' }, ip)).status, 409, `attempt ${i}`);
    const over = await post(t, '/api/v1/auth/signup', { email: uniqueEmail('fresh'), password: 'long enough password' }, ip);
    assert.equal(over.status, 429);
    assert.equal(over.body.error, 'rate_limit_exceeded');
  });
});
