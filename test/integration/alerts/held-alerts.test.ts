import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { HELD_REASON } from '../../../src/alerts/worker.ts';
import { getJson, startApp, TestClock, type TestApp } from '../../helpers/app.ts';
import { emit, incident, webhookUser } from '../../helpers/alerts.ts';
import { type HttpReceiver, startReceiver } from '../../helpers/receivers.ts';
import { createUser, loginCookie, send } from '../../helpers/users.ts';

// docs/alerts.md "Held alerts": an organisation whose notification preferences or alert route
// this instance cannot open (sealed with a key it does not have) has its alerts held, in order,
// and sent once the key is back; every other organisation's alerts go out meanwhile. Before,
// the dispatcher threw on the first batch that concerned such an organisation and no alert
// went out for anyone until the key was restored.

describe('alerts held while secrets do not open', () => {
  const clock = new TestClock(new Date());
  const k1 = randomBytes(32).toString('hex');
  const k2 = randomBytes(32).toString('hex');
  const env = { DELIVER: 'off', OUTBOUND_ALLOW_PRIVATE: '127.0.0.1' };
  let hook: HttpReceiver;
  /** The instance that sealed the first organisations' secrets (k1). */
  let a: TestApp;
  /** An instance started on k2 alone: k1's values do not open there. */
  let b: TestApp;
  /** k2 with k1 given back as the previous key. */
  let c: TestApp | null = null;
  const lines: { msg?: string; orgId?: string }[] = [];
  const paths = () => hook.requests.map((r) => r.path);
  const holds = (orgId: string) => b.store.db.selectFrom('dispatch_holds').select('event_seq').where('org_id', '=', orgId).orderBy('event_seq').execute();
  const rowsOf = (orgId: string) => b.store.db.selectFrom('deliveries').selectAll().where('org_id', '=', orgId).execute();

  before(async () => {
    hook = await startReceiver();
    a = await startApp({ clock, env: { ...env, SECRETS_KEY: k1 } });
    const logStream = new Writable({
      write(chunk, _enc, done) {
        for (const l of String(chunk).split('\n')) if (l.trim()) lines.push(JSON.parse(l));
        done();
      },
    });
    b = await startApp({ shareStoreWith: a, clock, logStream, env: { ...env, SECRETS_KEY: k2, LOG_LEVEL: 'warn' } });
  });
  after(async () => {
    await c?.close();
    await b?.close();
    await a?.close();
    await hook?.close();
  });

  test('preferences that do not open: that organisation is held in order, the others are alerted, and it is sent once the key is back', async () => {
    const closed = await webhookUser(a, ['github'], `${hook.url}/closed`);
    const open = await webhookUser(b, ['github'], `${hook.url}/open`);
    const inc = incident('github');
    const first = await emit(b, 'incident.created', inc);
    await b.app.alerts.runOnce();
    const second = await emit(b, 'incident.updated', { ...inc, status: 'identified' });
    await b.app.alerts.runOnce();
    assert.deepEqual(paths(), ['/open', '/open'], 'the organisation that opens is alerted at once');
    assert.deepEqual(await rowsOf(closed.user.id), [], 'no row for the one that does not');
    assert.deepEqual(
      (await holds(closed.user.id)).map((h) => Number(h.event_seq)),
      [first.seq, second.seq],
    );
    assert.equal(lines.filter((l) => l.msg?.startsWith('alerts of an organisation held') && l.orgId === closed.user.id).length, 1, 'told once');
    // Its deliveries say nothing went wrong yet; its preferences say why they cannot be read.
    assert.equal((await getJson(`${b.api}/notification-preferences`, { headers: closed.user.headers })).status, 503);

    // Another run while it still does not open keeps holding.
    await b.app.alerts.runOnce();
    assert.equal((await holds(closed.user.id)).length, 2);

    // The key is given back: the held events go out, oldest first, and are let go.
    c = await startApp({ shareStoreWith: a, clock, env: { ...env, SECRETS_KEY: k2, SECRETS_KEY_PREVIOUS: k1 } });
    await c.app.alerts.runOnce();
    assert.deepEqual(paths(), ['/open', '/open', '/closed', '/closed']);
    const types = hook.requests.slice(2).map((r) => JSON.parse(r.body).type);
    assert.deepEqual(types, ['incident.created', 'incident.updated']);
    assert.deepEqual(await holds(closed.user.id), []);
    assert.equal((await rowsOf(open.user.id)).length, 2, 'the others are not sent twice');
  });

  test('rows made while it opened are held by a worker that cannot open them, without using an attempt', async () => {
    hook.requests.length = 0;
    const onA = await webhookUser(a, ['stripe'], `${hook.url}/on-a`);
    const onB = await webhookUser(b, ['stripe'], `${hook.url}/on-b`);
    // An instance that opens both makes the rows; it does not send them.
    await emit(c!, 'incident.created', incident('stripe'));
    await c!.app.alerts.dispatcher.runOnce();
    assert.equal((await rowsOf(onA.user.id)).length, 1);
    assert.deepEqual(await holds(onA.user.id), []);
    // `b`'s worker claims both rows: the one it can open goes out, the other waits.
    await b.app.alerts.worker.runOnce();
    assert.deepEqual(paths(), ['/on-b']);
    const [held] = await rowsOf(onA.user.id);
    assert.equal(held!.status, 'pending');
    assert.equal(held!.attempts, 0, 'no attempt used');
    assert.equal(held!.last_error, HELD_REASON);
    assert.equal(held!.lease_owner, null);
    assert.ok(Date.parse(held!.next_attempt_at!) > clock.now().getTime(), 'not due again at once');
    // An instance that opens it sends it once it is due.
    clock.advance(61_000);
    await c!.app.alerts.worker.runOnce();
    assert.deepEqual(paths(), ['/on-b', '/on-a']);
    assert.equal((await rowsOf(onB.user.id))[0]!.attempts, 1);
    assert.equal((await rowsOf(onA.user.id))[0]!.status, 'succeeded');
  });

  test('an alert route that does not open: the API says why (503, not 500) and its organisation is held', async () => {
    hook.requests.length = 0;
    const owner = await createUser(a, 'pro');
    const cookie = await loginCookie(a, owner);
    const s = (t: TestApp) => ({ cookie, origin: t.url });
    const orgId = (await send(`${a.url}/api/v1/orgs`, 'POST', s(a), { name: 'Held team' })).body.organisation.id;
    const routes = (t: TestApp) => `${t.url}/api/v1/orgs/${orgId}/alert-routes`;
    const made = await send(routes(a), 'POST', s(a), {
      name: 'all',
      destination: { channel: 'webhook', url: `${hook.url}/route` },
      filters: { vendors: ['openai'] },
    });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const other = await webhookUser(b, ['openai'], `${hook.url}/other`);

    const listed = await getJson(routes(b), { headers: s(b) });
    assert.equal(listed.status, 503);
    assert.equal(listed.body.error, 'unavailable');
    assert.match(listed.body.message, /SECRETS_KEY_PREVIOUS/);

    const e = await emit(b, 'incident.created', incident('openai'));
    await b.app.alerts.runOnce();
    assert.deepEqual(paths(), ['/other']);
    assert.deepEqual(
      (await holds(orgId)).map((h) => Number(h.event_seq)),
      [e.seq],
    );
    await c!.app.alerts.runOnce();
    assert.deepEqual(paths(), ['/other', '/route']);
    assert.deepEqual(await holds(orgId), []);
    assert.equal((await rowsOf(other.user.id)).length, 1);
  });
});
