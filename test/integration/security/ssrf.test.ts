import assert from 'node:assert/strict';
import dns from 'node:dns';
import { after, before, describe, test } from 'node:test';
import { interceptors, request } from 'undici';
import { BlockedDestinationError, guardedAgent, guardedLookup } from '../../../src/infra/ssrf-guard.ts';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { createUser, send, type TestUser } from '../../helpers/users.ts';
import { type HttpReceiver, startReceiver } from '../../helpers/receivers.ts';
import { startRedirector } from './support.ts';

// SSRF through the one user-given outbound URL, the webhook (Slack and PagerDuty
// endpoints and the polled status pages come from configuration and the catalog,
// never from users). Save time refuses what the URL itself shows; connect time
// (src/infra/ssrf-guard.ts) refuses whatever the name resolves to and every
// address literal, on every connection, redirects included. Extends
// test/integration/alerts/scope-and-ssrf.test.ts and the URL policy cases of
// test/unit/domain/preferences.test.ts.

/** Internal destinations written every way a URL can spell them. */
const INTERNAL_HOSTS = [
  '127.0.0.1',
  '10.0.0.1',
  '172.16.0.1',
  '192.168.1.1',
  '169.254.169.254',
  '[::1]',
  '[::ffff:127.0.0.1]',
  '[::ffff:a9fe:a9fe]',
  '0.0.0.0',
  '0',
  '2130706433',
  '0x7f000001',
  '0177.0.0.1',
  '017700000001',
  '127.1',
  '%31%32%37.0.0.1',
  'localhost',
  'LOCALHOST',
  'localhost.',
  'metadata.google.internal',
  // Single-label names resolve only through /etc/hosts or a search domain (here: vm, runsc).
  'vm',
  'runsc',
  'metadata',
  // IPv6 forms that carry an internal IPv4 address or are not public.
  '[::127.0.0.1]',
  '[::ffff:0:7f00:1]',
  '[64:ff9b::a9fe:a9fe]',
  '[64:ff9b::a00:1]',
  '[64:ff9b:1::1]',
  '[2002:a9fe:a9fe::1]',
  '[fec0::1]',
  '[fe80::1]',
  '[fd00::1]',
  '[::]',
];

const lookupOf = (table: Record<string, string[]>) => (host: string, cb: (err: Error | null, a: { address: string; family: number }[]) => void) => {
  const list = table[host];
  if (!list) return cb(Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' }), []);
  cb(
    null,
    list.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
  );
};

const isBlocked = (err: any) => {
  const e = err?.cause ?? err;
  return e instanceof BlockedDestinationError || e?.code === 'ERR_BLOCKED_DESTINATION' || err?.code === 'ERR_BLOCKED_DESTINATION';
};

describe('SSRF: webhook URLs', () => {
  let trap: HttpReceiver;
  let strict: TestApp;
  let user: TestUser;
  before(async () => {
    // The trap stands for an internal service on loopback: it must never be reached.
    trap = await startReceiver();
    strict = await startApp({ env: { DELIVER: 'off' } });
    user = await createUser(strict, 'pro');
  });
  after(async () => {
    await strict?.close();
    await trap?.close();
  });

  test('save time: every spelling of an internal destination is refused (400 webhook.url)', async () => {
    for (const host of INTERNAL_HOSTS) {
      for (const url of [`https://${host}/hook`, `https://${host}:${trap.port}/hook`]) {
        const r = await send(`${strict.api}/notification-preferences`, 'PUT', user.headers, { webhook: { enabled: true, url } });
        assert.equal(r.status, 400, `${url}: ${JSON.stringify(r.body)}`);
        assert.equal(r.body.parameter, 'webhook.url', url);
      }
    }
    // Plain http, credentials in the URL: refused too. A public name is fine.
    for (const url of ['http://hooks.example.com/x', 'https://user:pw@hooks.example.com/x', 'file:///etc/passwd', 'gopher://127.0.0.1:6379/_INFO']) {
      assert.equal((await send(`${strict.api}/notification-preferences`, 'PUT', user.headers, { webhook: { url } })).status, 400, url);
    }
    const ok = await send(`${strict.api}/notification-preferences`, 'PUT', user.headers, { webhook: { enabled: true, url: 'https://hooks.example.com/x' } });
    assert.equal(ok.status, 200);
  });

  test('connect time: a stored URL that points inside (literal, or a name resolving there) is never connected to', async () => {
    // What the save-time check cannot see: DNS that changes after saving, names
    // resolving to loopback. The stored URL is changed behind the check.
    const urls = [
      `http://127.0.0.1:${trap.port}/x`,
      `http://2130706433:${trap.port}/x`,
      `http://0x7f000001:${trap.port}/x`,
      `http://0177.0.0.1:${trap.port}/x`,
      `http://[::ffff:127.0.0.1]:${trap.port}/x`,
      `http://localhost:${trap.port}/x`,
      `http://localhost.:${trap.port}/x`,
      `http://vm:${trap.port}/x`,
      `http://runsc:${trap.port}/x`,
      'http://169.254.169.254/latest/meta-data/',
      'http://[::1]/x',
    ];
    for (const url of urls) {
      await strict.repos.preferences.update(user.id, new Date(), (s) => ({ ...s, settings: { ...s.settings, webhook: { ...s.settings.webhook, url } } }));
      const r = await send(`${strict.api}/notification-preferences/test`, 'POST', user.headers, { channel: 'webhook' });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.equal(r.body.delivered, false, url);
      // `localhost.` resolves on some systems only; where it does not, nothing is connected either.
      assert.match(JSON.stringify(r.body), url.includes('localhost.') ? /destination refused|ENOTFOUND/ : /destination refused/, url);
    }
    assert.equal(trap.requests.length, 0, 'the internal service was never reached');
  });

  test('a test send to a name resolving inside says "not a public address" and never which address', async () => {
    // Naming the address a name resolved to would map the inside of the network for the caller.
    for (const name of ['localhost', 'vm', 'runsc']) {
      const addresses = await dns.promises.lookup(name, { all: true }).catch(() => []);
      if (!addresses.length) continue;
      await strict.repos.preferences.update(user.id, new Date(), (s) => ({
        ...s,
        settings: { ...s.settings, webhook: { ...s.settings.webhook, url: `http://${name}:${trap.port}/x` } },
      }));
      const r = await send(`${strict.api}/notification-preferences/test`, 'POST', user.headers, { channel: 'webhook' });
      assert.equal(r.body.delivered, false, name);
      const said = JSON.stringify(r.body);
      assert.match(said, /destination refused \(not a public address\)/, name);
      for (const a of addresses) assert.ok(!said.includes(a.address), `${name}: the answer names ${a.address}: ${said}`);
    }
    assert.equal(trap.requests.length, 0);
  });

  test('redirects are not followed: a receiver answering 302/307 into internal space gets one request, the target none', async () => {
    // The allow-list names only the receiver's own address (127.0.0.2, also loopback);
    // the redirect targets are other internal addresses.
    const app = await startApp({ env: { DELIVER: 'off', OUTBOUND_ALLOW_PRIVATE: '127.0.0.2' } });
    const redirectors = [
      await startRedirector('127.0.0.2', 302, `http://127.0.0.1:${trap.port}/stolen`),
      await startRedirector('127.0.0.2', 307, `http://127.0.0.1:${trap.port}/stolen`),
      await startRedirector('127.0.0.2', 307, 'http://169.254.169.254/latest/meta-data/iam/security-credentials/'),
      await startRedirector('127.0.0.2', 301, `http://localhost:${trap.port}/stolen`),
    ];
    try {
      const u = await createUser(app, 'pro');
      for (const r of redirectors) {
        const put = await send(`${app.api}/notification-preferences`, 'PUT', u.headers, { webhook: { enabled: true, url: `${r.url}/hook` } });
        assert.equal(put.status, 200, JSON.stringify(put.body));
        const test = await send(`${app.api}/notification-preferences/test`, 'POST', u.headers, { channel: 'webhook' });
        assert.equal(test.body.delivered, false);
        assert.match(JSON.stringify(test.body), /HTTP 30[127]/);
        assert.deepEqual(r.requests, ['POST /hook']);
      }
      assert.equal(trap.requests.length, 0);
    } finally {
      await app.close();
      for (const r of redirectors) await r.close();
    }
  });
});

describe('SSRF guard (connect time)', () => {
  test('the guarded agent refuses redirect targets even when redirects are followed', async () => {
    // Defence in depth: were a redirect ever followed, its connection still goes
    // through the agent's connector, which refuses address literals and resolved names.
    const trap = await startReceiver();
    const hops = [
      await startRedirector('127.0.0.2', 307, `http://127.0.0.1:${trap.port}/stolen`),
      await startRedirector('127.0.0.2', 302, `http://[::ffff:7f00:1]:${trap.port}/stolen`),
      await startRedirector('127.0.0.2', 302, `http://localhost:${trap.port}/stolen`),
      await startRedirector('127.0.0.2', 302, 'http://169.254.169.254/latest/meta-data/'),
    ];
    const agent = guardedAgent({ allowList: ['127.0.0.2'], timeoutMs: 2000 });
    const following = agent.compose(interceptors.redirect({ maxRedirections: 3 }));
    try {
      for (const hop of hops) {
        await assert.rejects(request(`${hop.url}/hook`, { dispatcher: following, method: 'GET' }), isBlocked, hop.url);
        assert.equal(hop.requests.length, 1);
      }
      assert.equal(trap.requests.length, 0);
      // An allowed address literal still connects.
      const direct = await request(`${hops[0]!.url}/ok`, { dispatcher: agent, method: 'GET' });
      assert.equal(direct.statusCode, 307);
      await direct.body.dump();
    } finally {
      await agent.close();
      for (const h of hops) await h.close();
      await trap.close();
    }
  });

  test('names answering with internal IPv6 forms (NAT64, 6to4, IPv4-compatible, site-local) are refused', async () => {
    const table: Record<string, string[]> = {
      'nat64-internal.test': ['64:ff9b::a00:1'],
      'nat64-metadata.test': ['64:ff9b::a9fe:a9fe'],
      'nat64-local.test': ['64:ff9b:1::a00:1'],
      '6to4.test': ['2002:7f00:1::1'],
      'compat.test': ['::7f00:1'],
      'translated.test': ['::ffff:0:a00:1'],
      'sitelocal.test': ['fec0::1'],
      'mixed.test': ['93.184.216.34', '10.0.0.1'],
      'nat64-public.test': ['64:ff9b::5db8:d822'],
      'public6.test': ['2606:2800:220:1:248:1893:25c8:1946'],
    };
    const lookup = guardedLookup([], lookupOf(table));
    const resolve = (host: string) => new Promise<unknown>((res, rej) => lookup(host, { all: true }, (err: unknown, a: unknown) => (err ? rej(err) : res(a))));
    for (const host of [
      'nat64-internal.test',
      'nat64-metadata.test',
      'nat64-local.test',
      '6to4.test',
      'compat.test',
      'translated.test',
      'sitelocal.test',
      'mixed.test',
    ]) {
      await assert.rejects(resolve(host), BlockedDestinationError, host);
    }
    assert.deepEqual(await resolve('nat64-public.test'), [{ address: '64:ff9b::5db8:d822', family: 6 }]);
    assert.deepEqual(await resolve('public6.test'), [{ address: '2606:2800:220:1:248:1893:25c8:1946', family: 6 }]);
  });

  test('names under .invalid are not found without asking the resolver (RFC 6761)', async () => {
    const asked: string[] = [];
    const lookup = guardedLookup([], (host, cb) => {
      asked.push(host);
      cb(null, [{ address: '93.184.216.34', family: 4 }]);
    });
    const resolve = (host: string) => new Promise<unknown>((res, rej) => lookup(host, { all: true }, (err: unknown, a: unknown) => (err ? rej(err) : res(a))));
    for (const host of ['hooks.fuzz.invalid', 'a.b.INVALID', 'x.invalid.', 'invalid']) {
      await assert.rejects(resolve(host), (err: NodeJS.ErrnoException) => err.code === 'ENOTFOUND' && err.message.includes(host), host);
    }
    // Only the last label counts.
    assert.deepEqual(await resolve('invalid.example.com'), [{ address: '93.184.216.34', family: 4 }]);
    assert.deepEqual(await resolve('notinvalid'), [{ address: '93.184.216.34', family: 4 }]);
    assert.deepEqual(asked, ['invalid.example.com', 'notinvalid']);
  });
});
