import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DomainError } from '../../../src/domain/errors.ts';
import { emailDomain, ssoDomain, txtProves, verificationName, verificationValue } from '../../../src/domain/sso.ts';

// Single sign-on rules (docs/teams.md, "Single sign-on"): domain names, e-mail domains and
// the TXT record that proves a domain.

describe('single sign-on rules', () => {
  test('domains are stored lower case without the trailing dot; anything else is refused', () => {
    assert.equal(ssoDomain(' Example.COM. '), 'example.com');
    assert.equal(ssoDomain('mail.corp-1.example.co.uk'), 'mail.corp-1.example.co.uk');
    for (const bad of [
      '',
      'com',
      'localhost',
      'a..b',
      '-a.com',
      'a-.com',
      'a_b.com',
      '1.2.3.4',
      'ex ample.com',
      `${'a'.repeat(64)}.com`,
      `${'a.'.repeat(127)}com`,
      'é.com',
    ]) {
      assert.throws(
        () => ssoDomain(bad),
        (e: unknown) => e instanceof DomainError && e.code === 'invalid_parameter',
        bad,
      );
    }
  });

  test("an e-mail address's domain", () => {
    assert.equal(emailDomain('Ada@Example.COM'), 'example.com');
    assert.equal(emailDomain('a@b@corp.example'), 'corp.example');
    assert.equal(emailDomain('nobody'), null);
    assert.equal(emailDomain('@x.com'), null);
    assert.equal(emailDomain('x@'), null);
  });

  test('the TXT record proves a domain when one record, its strings joined, is the expected value', () => {
    assert.equal(verificationName('example.com'), '_vis-verify.example.com');
    assert.equal(verificationValue('tok'), 'vis-verify=tok');
    assert.ok(txtProves([['v=spf1 -all'], ['vis-verify=', 'tok']], 'tok'));
    assert.ok(!txtProves([['vis-verify=tok2']], 'tok'));
    assert.ok(!txtProves([['vis-verify=tok', 'extra']], 'tok'));
    assert.ok(!txtProves([], 'tok'));
  });
});
