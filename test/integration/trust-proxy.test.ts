import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ConfigError, loadConfig } from '../../src/infra/config.ts';
import { getJson, startApp, TestClock } from '../helpers/app.ts';

// TRUST_PROXY takes a hop count or a list of proxy addresses/CIDRs, never "every hop"
// (docs/security.md, "Client address behind proxies"): an X-Forwarded-For entry the
// client wrote itself, left of what our proxies appended, gives it no fresh quota.

const parse = (value: string) => loadConfig({ TRUST_PROXY: value }).trustProxy;

describe('TRUST_PROXY', () => {
  test('values: false, hop counts, true = one hop, address/CIDR lists; anything else stops start-up', () => {
    assert.equal(parse(''), false);
    assert.equal(parse('false'), false);
    assert.equal(parse('0'), false);
    assert.equal(parse('true'), 1);
    assert.equal(parse('2'), 2);
    assert.deepEqual(parse('10.0.0.0/8, 192.0.2.7,::1, fd00::/8,loopback'), ['10.0.0.0/8', '192.0.2.7', '::1', 'fd00::/8', 'loopback']);
    for (const bad of ['everything', '11', '10.0.0.0/33', '10.0.0.1/8/2', 'proxy.example.com', '::1/129']) {
      assert.throws(
        () => parse(bad),
        (err: unknown) => err instanceof ConfigError && /TRUST_PROXY/.test(String(err)),
        bad,
      );
    }
  });

  const spoofs = (real: string) => Array.from({ length: 12 }, (_, i) => `203.0.113.${i}, ${real}`);

  async function anonymousCalls(env: Record<string, string>, forwardedFor: string[]) {
    // A clock that stands still: twelve calls never straddle the turn of a minute window
    // (on a loaded machine they took over 3 s, and a window turning midway gave a fresh quota).
    const t = await startApp({ clock: new TestClock(new Date('2026-03-02T10:00:10.000Z')), env: { RATE_LIMITS: '{}', ...env } });
    try {
      const out: number[] = [];
      for (const xff of forwardedFor) out.push((await getJson(`${t.api}/vendor-count`, { headers: { 'x-forwarded-for': xff } })).status);
      return out;
    } finally {
      await t.close();
    }
  }

  for (const [name, value] of [
    ['one hop', '1'],
    ['true (one hop)', 'true'],
    ['the proxy address', '127.0.0.1'],
    ['a CIDR holding the proxy', '127.0.0.0/8'],
  ] as const) {
    test(`${name}: a client-written left-most X-Forwarded-For gives no fresh quota`, async () => {
      // The test client is the proxy (127.0.0.1); it appended the real client 198.51.100.20.
      const statuses = await anonymousCalls({ TRUST_PROXY: value }, spoofs('198.51.100.20'));
      assert.deepEqual(statuses, [...Array(10).fill(200), 429, 429]);
      // Another real client still has its own quota.
      const other = await anonymousCalls({ TRUST_PROXY: value }, ['198.51.100.21']);
      assert.deepEqual(other, [200]);
    });
  }

  test('two hops: the address the outer proxy saw is the client', async () => {
    const statuses = await anonymousCalls(
      { TRUST_PROXY: '2' },
      Array.from({ length: 12 }, (_, i) => `203.0.113.${i}, 198.51.100.30, 10.0.0.5`),
    );
    assert.deepEqual(statuses, [...Array(10).fill(200), 429, 429]);
  });

  test('a peer outside the proxy list is the client, whatever it forwards', async () => {
    const statuses = await anonymousCalls(
      { TRUST_PROXY: '10.0.0.0/8' },
      Array.from({ length: 12 }, (_, i) => `198.51.100.${i}`),
    );
    assert.deepEqual(statuses, [...Array(10).fill(200), 429, 429]);
  });
});
