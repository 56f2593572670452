import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { request } from 'undici';
import { BlockedDestinationError, guardedAgent, guardedLookup } from '../../../src/infra/ssrf-guard.ts';
import { getJson, startApp, TestClock, type TestApp } from '../../helpers/app.ts';
import { emit, incident, webhookUser } from '../../helpers/alerts.ts';
import { type HttpReceiver, startReceiver } from '../../helpers/receivers.ts';
import { send } from '../../helpers/users.ts';

// Who gets an alert (watchlist, muted vendors, content filters) and where it may
// go (the connect-time SSRF guard).

const lookupOf = (table: Record<string, string>) => (host: string, cb: (err: Error | null, a: { address: string; family: number }[]) => void) => {
  const address = table[host];
  if (!address) return cb(Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' }), []);
  cb(null, [{ address, family: address.includes(':') ? 6 : 4 }]);
};

describe('alert scope: muted vendors and content filters', () => {
  const clock = new TestClock(new Date());
  let t: TestApp;
  let hook: HttpReceiver;

  before(async () => {
    hook = await startReceiver();
    t = await startApp({ clock, env: { DELIVER: 'off', OUTBOUND_ALLOW_PRIVATE: '127.0.0.1' } });
  });
  after(async () => {
    await t?.close();
    await hook?.close();
  });

  test('muted vendors, min_impact, event types and components are respected', async () => {
    const { user } = await webhookUser(t, ['github', 'openai'], `${hook.url}/x`, {
      muted_vendors: ['openai'],
      content_filters: { min_impact: 'major', event_types: ['incident.created', 'incident.resolved'], components: ['Actions', 'API'] },
    });
    await emit(t, 'incident.created', incident('openai', { impact: 'critical', components: ['API'] })); // muted
    await emit(t, 'incident.created', incident('github', { impact: 'minor', components: ['Actions'] })); // below min_impact
    await emit(t, 'incident.updated', incident('github', { impact: 'critical', components: ['Actions'] })); // type filtered
    await emit(t, 'incident.created', incident('github', { impact: 'critical', components: ['Pages'] })); // other component
    const wanted = incident('github', { impact: 'major', components: ['actions'] });
    await emit(t, 'incident.created', wanted);
    const r = await t.app.alerts.runOnce();
    assert.equal(r.dispatched, 1);
    assert.equal(hook.requests.length, 1);
    assert.equal(JSON.parse(hook.requests[0]!.body).data.id, wanted.id);
    const log = await getJson(`${t.api}/notification-deliveries`, { headers: user.headers });
    assert.equal(log.body.items.length, 1);
  });

  test("one user's deliveries and notifications are not visible to another", async () => {
    const a = await webhookUser(t, ['cloudflare'], `${hook.url}/a`, { in_app: { enabled: true } });
    const b = await webhookUser(t, ['stripe'], `${hook.url}/b`, { in_app: { enabled: true } });
    await emit(t, 'incident.created', incident('cloudflare'));
    await t.app.alerts.runOnce();
    const aList = await getJson(`${t.api}/notifications`, { headers: a.user.headers });
    assert.equal(aList.body.items.length, 1);
    assert.equal((await getJson(`${t.api}/notifications`, { headers: b.user.headers })).body.items.length, 0);
    assert.equal((await getJson(`${t.api}/notification-deliveries`, { headers: b.user.headers })).body.items.length, 0);
    const steal = await send(`${t.api}/notifications/${aList.body.items[0].id}/read`, 'POST', b.user.headers);
    assert.equal(steal.status, 404);
  });
});

describe('SSRF guard', () => {
  test('names resolving to loopback, private, link-local or metadata addresses are refused at connect time', async () => {
    const lookup = guardedLookup(
      [],
      lookupOf({ 'rebind.test': '127.0.0.1', 'meta.test': '169.254.169.254', 'lan.test': '10.1.2.3', 'v6.test': '::1', 'ok.test': '93.184.216.34' }),
    );
    const resolve = (host: string) => new Promise<unknown>((res, rej) => lookup(host, { all: true }, (err: unknown, a: unknown) => (err ? rej(err) : res(a))));
    for (const host of ['rebind.test', 'meta.test', 'lan.test', 'v6.test']) {
      await assert.rejects(resolve(host), BlockedDestinationError, host);
    }
    assert.deepEqual(await resolve('ok.test'), [{ address: '93.184.216.34', family: 4 }]);
  });

  test('the delivery agent refuses a rebinding name, and lets allow-listed addresses through', async () => {
    const hook = await startReceiver();
    try {
      const table = lookupOf({ 'rebind.test': '127.0.0.1' });
      const strict = guardedAgent({ allowList: [], timeoutMs: 1000, resolveAll: table });
      await assert.rejects(request(`http://rebind.test:${hook.port}/`, { dispatcher: strict }), (err: any) => {
        const e = err.cause ?? err;
        return e instanceof BlockedDestinationError || /destination refused/.test(String(err.message) + String(e?.message));
      });
      assert.equal(hook.requests.length, 0);
      const open = guardedAgent({ allowList: ['127.0.0.0/8'], timeoutMs: 1000, resolveAll: table });
      const ok = await request(`http://rebind.test:${hook.port}/`, { dispatcher: open, method: 'POST', body: '{}' });
      assert.equal(ok.statusCode, 204);
      await strict.close();
      await open.close();
    } finally {
      await hook.close();
    }
  });

  test('a webhook pointing at a private address is refused when delivering (no allow-list)', async () => {
    const hook = await startReceiver();
    const t = await startApp({ env: { DELIVER: 'off' } });
    try {
      const { user } = await webhookUser(t, ['github'], 'https://hooks.example.com/x');
      // The stored URL changes behind the save-time check (as a DNS answer can).
      for (const url of [`http://127.0.0.1:${hook.port}/x`, `http://[::ffff:127.0.0.1]:${hook.port}/x`, 'http://169.254.169.254/latest/meta-data/']) {
        await t.repos.preferences.update(user.id, new Date(), (s) => ({ ...s, settings: { ...s.settings, webhook: { ...s.settings.webhook, url } } }));
        await emit(t, 'incident.created', incident('github'));
        await t.app.alerts.runOnce();
        const [d] = (await getJson(`${t.api}/notification-deliveries`, { headers: user.headers })).body.items;
        assert.equal(d.status, 'failed', url);
        assert.match(d.lastError, /destination refused/);
      }
      assert.equal(hook.requests.length, 0);
      // And the save-time check refuses such URLs in the first place.
      const put = await send(`${t.api}/notification-preferences`, 'PUT', user.headers, { webhook: { url: `http://127.0.0.1:${hook.port}/x` } });
      assert.equal(put.status, 400);
    } finally {
      await t.close();
      await hook.close();
    }
  });
});
