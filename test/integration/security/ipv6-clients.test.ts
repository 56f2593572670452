import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { clientGroup } from '../../../src/domain/client-address.ts';
import { ConfigError, loadConfig } from '../../../src/infra/config.ts';
import { startApp, type TestApp, TestClock } from '../../helpers/app.ts';
import { uniqueEmail } from '../../helpers/access.ts';
import { seedDashboard } from '../../helpers/seed.ts';

// Attacks on the per-address limits with IPv6 (docs/security.md, "IPv6 clients"): every
// IPv6 address was counted apart, so 25 addresses inside one /64 (which one subscriber
// holds) got 25 fresh quotas. Behind a proxy (TRUST_PROXY=1: the test client is the
// proxy and names the client in X-Forwarded-For), addresses of one /64:
//  1. anonymous data API and badges: one quota for the /64; another /64 has its own;
//  2. signup: 10 per hour for the /64;   3. login failures: 30 per 15 min for the /64;
//  4. OAuth client registration: the anonymous quota of the /64;
//  5. stream slots: one anonymous stream for the /64;
//  6. anonymous streams per server: capped whatever the number of networks;
//  7. IPV6_CLIENT_PREFIX=128 counts each address apart again (configurable).

const net64 = (n: number) => (i: number) =>
  `2001:db8:${n.toString(16)}:64:${(i + 1).toString(16)}:${((i * 7919) % 65536).toString(16)}::${(i + 3).toString(16)}`;

describe('clientGroup', () => {
  test('IPv4 stands for itself, IPv6 for its network; IPv4-mapped is IPv4', () => {
    assert.equal(clientGroup('198.51.100.7', 64), '198.51.100.7');
    assert.equal(clientGroup('::ffff:198.51.100.7', 64), '198.51.100.7');
    assert.equal(clientGroup('2001:db8:1:2:aaaa:bbbb:cccc:dddd', 64), '2001:db8:1:2::/64');
    assert.equal(clientGroup('2001:DB8:1:2::1', 64), '2001:db8:1:2::/64');
    assert.equal(clientGroup('2001:db8:1:2ff::1', 56), '2001:db8:1:200::/56');
    assert.equal(clientGroup('2001:db8:1:2::1', 128), '2001:db8:1:2::1');
    assert.equal(clientGroup('fe80::1%eth0', 64), 'fe80:0:0:0::/64');
  });
  test('IPV6_CLIENT_PREFIX: 64 by default, 16..128, anything else stops start-up', () => {
    assert.equal(loadConfig({}).ipv6ClientPrefix, 64);
    assert.equal(loadConfig({ IPV6_CLIENT_PREFIX: '48' }).ipv6ClientPrefix, 48);
    for (const bad of ['0', '129', '64.5', 'x']) {
      assert.throws(
        () => loadConfig({ IPV6_CLIENT_PREFIX: bad }),
        (e: unknown) => e instanceof ConfigError && /IPV6_CLIENT_PREFIX/.test(String(e)),
        bad,
      );
    }
  });
});

describe('per-address limits count an IPv6 client by its /64', () => {
  let t: TestApp;
  const from = (xff: string, init: RequestInit = {}) => ({ ...init, headers: { ...(init.headers as Record<string, string>), 'x-forwarded-for': xff } });
  const statuses = async (n: number, addr: (i: number) => string, call: (xff: string) => Promise<Response>) => {
    const out: number[] = [];
    for (let i = 0; i < n; i++) {
      const r = await call(addr(i));
      await r.arrayBuffer();
      out.push(r.status);
    }
    return out;
  };
  const post = (path: string, body: unknown) => (xff: string) =>
    fetch(`${t.url}${path}`, from(xff, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }));

  before(async () => {
    // A standing clock: a sequence of calls never straddles the turn of a limit's window.
    t = await startApp({
      clock: new TestClock(new Date('2026-03-02T10:00:10.000Z')),
      env: { TRUST_PROXY: '1', RATE_LIMITS: '{}', ANONYMOUS_STREAMS_PER_SERVER: '3' },
    });
    await seedDashboard(t.store);
  });
  after(async () => t?.close());

  test('anonymous data API and badges: 25 addresses of one /64 share one quota (10 a minute)', async () => {
    const got = await statuses(25, net64(1), (xff) =>
      xff.endsWith('::4') || Number.parseInt(xff.slice(-1), 16) % 2
        ? fetch(`${t.url}/badges/cloudflare.svg`, from(xff))
        : fetch(`${t.api}/vendor-count`, from(xff)),
    );
    assert.deepEqual(got, [...Array(10).fill(200), ...Array(15).fill(429)]);
    // Another network has its own quota.
    assert.deepEqual(await statuses(1, net64(2), (xff) => fetch(`${t.api}/vendor-count`, from(xff))), [200]);
  });

  test('signup: 10 an hour for the /64, whichever of its addresses asks', async () => {
    const got = await statuses(12, net64(3), (xff) => post('/api/v1/auth/signup', { email: uniqueEmail('v6'), password: 'Correct-Horse-Battery-42' })(xff));
    assert.deepEqual(got, [...Array(10).fill(201), 429, 429]);
  });

  test('login failures: 30 per 15 minutes for the /64', async () => {
    const got = await statuses(32, net64(4), (xff) => post('/api/v1/auth/login', { email: uniqueEmail('nobody'), password: 'wrong-password-123' })(xff));
    assert.deepEqual(got, [...Array(30).fill(401), 429, 429]);
  });

  test('OAuth client registration counts against the /64', async () => {
    const body = { client_name: 'v6 client', redirect_uris: ['http://127.0.0.1:9/callback'], token_endpoint_auth_method: 'none' };
    const got = await statuses(12, net64(5), post('/oauth/register', body));
    assert.deepEqual(got, [...Array(10).fill(201), 429, 429]);
  });

  test('one anonymous stream for the /64; anonymous streams per server capped', async () => {
    const open: AbortController[] = [];
    const stream = async (xff: string) => {
      const ac = new AbortController();
      const r = await fetch(`${t.api}/incidents/stream`, from(xff, { signal: ac.signal }));
      if (r.status === 200) open.push(ac);
      else await r.arrayBuffer();
      return r.status;
    };
    try {
      assert.equal(await stream(net64(6)(0)), 200);
      assert.equal(await stream(net64(6)(1)), 429, 'a second address of the same /64 has no slot of its own');
      assert.equal(await stream(net64(7)(0)), 200);
      assert.equal(await stream(net64(8)(0)), 200);
      // ANONYMOUS_STREAMS_PER_SERVER=3: a fourth network is refused.
      assert.equal(await stream(net64(9)(0)), 429);
    } finally {
      for (const ac of open) ac.abort();
    }
  });
});

describe('IPV6_CLIENT_PREFIX=128 counts each address apart', () => {
  test('12 addresses of one /64 each have a quota', async () => {
    const t = await startApp({ env: { TRUST_PROXY: '1', RATE_LIMITS: '{}', IPV6_CLIENT_PREFIX: '128' } });
    try {
      const out: number[] = [];
      for (let i = 0; i < 12; i++) {
        const r = await fetch(`${t.api}/vendor-count`, { headers: { 'x-forwarded-for': net64(10)(i) } });
        await r.arrayBuffer();
        out.push(r.status);
      }
      assert.deepEqual(out, Array(12).fill(200));
    } finally {
      await t.close();
    }
  });
});
