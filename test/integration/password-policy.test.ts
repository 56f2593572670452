import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { hashPassword } from '../../src/services/access/passwords.ts';
import { uniqueEmail } from '../helpers/access.ts';
import { getJson, startApp, type TestApp } from '../helpers/app.ts';

// Password policy (docs/security.md, "Password policy"): new passwords need 10
// characters and must not be common or easily guessed (zxcvbn-ts with its maintained
// common-password lists); accounts made under the old 8-character rule still log in.

describe('password policy', () => {
  let t: TestApp;
  before(async () => {
    t = await startApp();
  });
  after(async () => t.close());

  const signup = (password: string, email = uniqueEmail('policy')) =>
    getJson(`${t.url}/api/v1/auth/signup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });

  test('signup refuses short and common passwords with a 400 naming the parameter', async () => {
    for (const [password, why] of [
      ['9chars-ok', /at least 10 characters/],
      ['password1234', /too common or too easy to guess/],
      ['qwertyuiop', /too common or too easy to guess/],
      ['iloveyou12', /too common or too easy to guess/],
      ['1234567890', /too common or too easy to guess/],
      ['trustno1trustno1', /too common or too easy to guess/],
    ] as const) {
      const r = await signup(password);
      assert.equal(r.status, 400, password);
      assert.equal(r.body.error, 'invalid_parameter');
      assert.equal(r.body.parameter, 'password');
      assert.match(r.body.message, why);
    }
  });

  test('a password made of the email is refused', async () => {
    const email = uniqueEmail('selfname');
    const r = await signup(email, email);
    assert.equal(r.status, 400);
  });

  test('long, unpredictable passwords are accepted', async () => {
    for (const password of ['correct horse battery', 'Violet-tram-47-gusty', 'q8#Lz!m2Vw0p']) {
      assert.equal((await signup(password)).status, 201, password);
    }
  });

  test('the policy applies to accounts made by the operator (service behind `cli users create`)', async () => {
    await assert.rejects(t.app.services.accounts.createUser({ email: uniqueEmail(), password: 'letmein2024!', plan: 'pro' }), /too common/);
  });

  test('an account made under the old rule (8 characters) still logs in', async () => {
    const email = uniqueEmail('legacy');
    const password = 'hunter22';
    await t.repos.users.create({ id: randomUUID(), email, passwordHash: await hashPassword(password, 10), plan: 'free', now: new Date() });
    const r = await getJson(`${t.url}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    assert.equal(r.status, 200);
    assert.equal(r.body.account.email, email);
  });
});
