import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { test } from 'node:test';
import { getJson, startApp } from '../../helpers/app.ts';
import { uniqueEmail } from '../../helpers/access.ts';

test('no password, API key or session token reaches a log line, even at trace level', async () => {
  const lines: string[] = [];
  const stream = new PassThrough();
  stream.on('data', (chunk) => lines.push(String(chunk)));
  const t = await startApp({ env: { LOG_LEVEL: 'trace' }, logStream: stream });
  const email = uniqueEmail('logs');
  const password = 'Pa55word-that-must-not-leak';
  let secret = '';
  let token = '';
  try {
    const signup = await fetch(`${t.url}/api/v1/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    assert.equal(signup.status, 201);
    const cookies = signup.headers.getSetCookie().map((c) => c.split(';')[0]);
    const session = cookies.find((c) => c.startsWith('vis_session='))!;
    const csrf = cookies.find((c) => c.startsWith('vis_csrf='))!;
    const cookie = `${session}; ${csrf}`;
    token = session.split('=')[1];
    const bad = await getJson(`${t.url}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email, password: `${password}-wrong` }).toString(),
    });
    assert.equal(bad.status, 401);
    const created = await getJson(`${t.url}/api/v1/account/keys`, {
      method: 'POST',
      headers: { cookie, origin: t.url, 'content-type': 'application/json', 'x-csrf-token': csrf.split('=')[1] },
      body: '{}',
    });
    assert.equal(created.status, 201);
    secret = created.body.secret;
    assert.equal((await getJson(`${t.api}/vendor-count`, { headers: { 'x-api-key': secret } })).status, 200);
    assert.equal((await getJson(`${t.api}/vendor-count`, { headers: { authorization: `Bearer ${secret}` } })).status, 200);
    assert.equal((await getJson(`${t.api}/vendor-count`, { headers: { 'x-api-key': `${secret}x` } })).status, 401);
    assert.equal((await getJson(`${t.url}/api/v1/account`, { headers: { cookie } })).status, 200);
  } finally {
    await t.close();
  }
  const log = lines.join('');
  assert.ok(log.includes('incoming request'), 'the log was captured');
  for (const s of [password, secret, secret.slice(4), token]) {
    assert.ok(s.length > 8);
    assert.ok(!log.includes(s), `log contains a secret (${s.slice(0, 6)}…)`);
  }
});
