import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { getJson, startApp, TestClock, type TestApp } from '../helpers/app.ts';
import { emit, incident, webhookUser } from '../helpers/alerts.ts';
import { type HttpReceiver, startReceiver } from '../helpers/receivers.ts';

// One noisy source cannot flood a receiver (docs/alerts.md "Flood cap"): a poll
// announcing 2,000 incidents gives a watcher at most ALERT_FLOOD_LIMIT webhooks
// per window, then exactly one summary at the end of the window that counts the
// rest. The in-app list keeps every alert.

const LIMIT = 25;
const WINDOW_S = 900;
const EVENTS = 2_000;

describe('flood cap per user and channel', () => {
  const clock = new TestClock(new Date());
  let t: TestApp;
  let hook: HttpReceiver;

  before(async () => {
    hook = await startReceiver();
    t = await startApp({
      clock,
      env: {
        DELIVER: 'off',
        OUTBOUND_ALLOW_PRIVATE: '127.0.0.1',
        ALERT_FLOOD_LIMIT: String(LIMIT),
        ALERT_FLOOD_WINDOW_SECONDS: String(WINDOW_S),
      },
    });
  });
  after(async () => {
    await t?.close();
    await hook?.close();
  });

  test('2,000 incidents in one batch: the cap, then one summary naming the rest', async () => {
    const { user } = await webhookUser(t, ['github'], `${hook.url}/flood`, { in_app: { enabled: true } });
    // Another watcher on the same vendor has a cap of its own.
    const { user: other } = await webhookUser(t, ['github'], `${hook.url}/other`);
    for (let i = 0; i < EVENTS; i++) await emit(t, 'incident.created', incident('github'));
    await t.app.alerts.runOnce();
    await t.app.alerts.runOnce();

    const to = (path: string) => hook.requests.filter((r) => r.path === path);
    assert.equal(to('/flood').length, LIMIT, 'no more than the cap is sent in the window');
    assert.equal(to('/other').length, LIMIT);
    assert.ok(to('/flood').every((r) => JSON.parse(r.body).type === 'incident.created'));
    // Nothing lost: in-app keeps all of them.
    assert.equal(await t.repos.inbox.countUnread(user.id, 'in_app'), EVENTS);

    // The summary is due when the window ends, with the final count.
    clock.advance(WINDOW_S * 1000 + 1_000);
    await t.app.alerts.runOnce();
    const flood = to('/flood');
    assert.equal(flood.length, LIMIT + 1, 'exactly one summary');
    const summary = JSON.parse(flood.at(-1)!.body);
    assert.equal(summary.type, 'alerts.held');
    assert.equal(summary.data.held, EVENTS - LIMIT);
    assert.deepEqual(summary.data.vendors, { github: EVENTS - LIMIT });
    assert.match(summary.data.title, new RegExp(`${EVENTS - LIMIT} more alerts were held back`));
    assert.equal(to('/other').length, LIMIT + 1);

    // The delivery log lists the summary like any delivery.
    const log = await getJson(`${t.api}/notification-deliveries?limit=200`, { headers: user.headers });
    assert.equal(log.status, 200);
    assert.equal(log.body.items.length, LIMIT + 1);
    assert.equal(log.body.items.filter((d: any) => d.type === 'alerts.held' && d.status === 'succeeded').length, 1);
    void other;
  });

  test('a new window sends again', async () => {
    hook.requests.length = 0;
    await webhookUser(t, ['cloudflare'], `${hook.url}/later`);
    for (let i = 0; i < LIMIT + 5; i++) await emit(t, 'incident.created', incident('cloudflare'));
    await t.app.alerts.runOnce();
    assert.equal(hook.requests.filter((r) => r.path === '/later').length, LIMIT);
    clock.advance(WINDOW_S * 1000 + 1_000);
    for (let i = 0; i < 3; i++) await emit(t, 'incident.created', incident('cloudflare'));
    await t.app.alerts.runOnce();
    const later = hook.requests.filter((r) => r.path === '/later').map((r) => JSON.parse(r.body));
    // The cap, the first window's summary (5 held), then the 3 new ones of the next window.
    assert.equal(later.length, LIMIT + 1 + 3);
    assert.equal(later.filter((b) => b.type === 'alerts.held').length, 1);
    assert.equal(later.find((b) => b.type === 'alerts.held').data.held, 5);
  });
});
