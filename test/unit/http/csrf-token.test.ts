import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { cookieValue } from '../../../src/http/cookies.ts';
import { csrfTokenMatches, ensureCsrfCookie } from '../../../src/http/csrf-token.ts';

// The cookie reader and the double-submit token shared by the web pages and the OAuth
// forms (src/http/csrf-token.ts). The flows themselves: test/integration/web/csrf.test.ts,
// test/integration/mcp/oauth-server.test.ts.

const TOKEN = 'A'.repeat(43);
const request = (cookie?: string) => ({ headers: cookie === undefined ? {} : { cookie } }) as unknown as FastifyRequest;
function reply() {
  const set: string[] = [];
  return { set, reply: { header: (name: string, value: string) => set.push(`${name}: ${value}`) } as unknown as FastifyReply };
}

describe('cookieValue', () => {
  test('finds a cookie among others, the first of repeated names, trimmed', () => {
    assert.equal(cookieValue({ cookie: `a=1; vis_session=${TOKEN} ; b=2` }, 'vis_session'), TOKEN);
    assert.equal(cookieValue({ cookie: 'x=1;x=2' }, 'x'), '1');
  });

  test('no header, another name only, or the name inside a value: undefined', () => {
    assert.equal(cookieValue({}, 'vis_session'), undefined);
    assert.equal(cookieValue({ cookie: 'other=1' }, 'vis_session'), undefined);
    assert.equal(cookieValue({ cookie: 'other=vis_session' }, 'vis_session'), undefined);
    assert.equal(cookieValue({ cookie: 'vis_session_old=1' }, 'vis_session'), undefined);
  });
});

describe('double-submit token', () => {
  const cookie = { name: 'c', attributes: 'Path=/; HttpOnly; SameSite=Strict' };

  test('a well-formed cookie is kept; none or a malformed one is replaced, Secure over TLS', () => {
    const kept = reply();
    assert.equal(ensureCsrfCookie(request(`c=${TOKEN}`), kept.reply, cookie, false), TOKEN);
    assert.deepEqual(kept.set, []);
    const fresh = reply();
    const token = ensureCsrfCookie(request('c=short'), fresh.reply, cookie, true);
    assert.match(token, /^[A-Za-z0-9_-]{43}$/);
    assert.deepEqual(fresh.set, [`set-cookie: c=${token}; Path=/; HttpOnly; SameSite=Strict; Secure`]);
  });

  test('matches only the exact token of a well-formed cookie', () => {
    assert.equal(csrfTokenMatches(request(`c=${TOKEN}`), 'c', TOKEN), true);
    assert.equal(csrfTokenMatches(request(`c=${TOKEN}`), 'c', `${TOKEN.slice(1)}B`), false);
    assert.equal(csrfTokenMatches(request(`c=${TOKEN}`), 'c', ''), false);
    assert.equal(csrfTokenMatches(request(`c=${TOKEN}`), 'c', undefined), false);
    assert.equal(csrfTokenMatches(request(), 'c', TOKEN), false);
    assert.equal(csrfTokenMatches(request('c=short'), 'c', 'short'), false);
  });

  test('a sent value as long as the token but longer in bytes is refused, not an error', () => {
    assert.equal(csrfTokenMatches(request(`c=${TOKEN}`), 'c', 'é'.repeat(43)), false);
  });
});
