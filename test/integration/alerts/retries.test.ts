import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { MAX_ATTEMPTS } from '../../../src/domain/alerts.ts';
import { getJson, startApp, TestClock, type TestApp } from '../../helpers/app.ts';
import { emit, incident, webhookUser } from '../../helpers/alerts.ts';
import { type HttpReceiver, startReceiver } from '../../helpers/receivers.ts';
import { send } from '../../helpers/users.ts';

// Retries on the Standard Webhooks schedule: 5xx, timeouts and 429 with
// Retry-After are tried again under the same delivery id; 410 switches the
// webhook off; after the last attempt the delivery is `failed` and listed.

describe('delivery retries', () => {
  const clock = new TestClock(new Date());
  let t: TestApp;
  let hook: HttpReceiver;
  const deliveries = async (headers: Record<string, string>) => (await getJson(`${t.api}/notification-deliveries`, { headers })).body.items;

  before(async () => {
    hook = await startReceiver();
    t = await startApp({ clock, env: { DELIVER: 'off', OUTBOUND_ALLOW_PRIVATE: '127.0.0.1', DELIVERY_TIMEOUT_MS: '500' } });
  });
  beforeEach(() => {
    hook.requests.length = 0;
  });
  after(async () => {
    await t?.close();
    await hook?.close();
  });

  test('a 500 is retried 5 s later (±10 %) with the same id, then succeeds', async () => {
    const { user, secret } = await webhookUser(t, ['github'], `${hook.url}/a`);
    hook.reply = (_r, n) => (n === 1 ? { status: 500 } : { status: 200 });
    await emit(t, 'incident.created', incident('github'));
    await t.app.alerts.runOnce();
    let [d] = await deliveries(user.headers);
    assert.equal(d.status, 'pending');
    assert.equal(d.attempts, 1);
    assert.equal(d.lastStatusCode, 500);
    const wait = Date.parse(d.nextAttemptAt) - clock.now().getTime();
    assert.ok(wait >= 4_500 && wait <= 5_500, `retry in ${wait} ms`);
    // Not due yet: nothing is sent.
    await t.app.alerts.runOnce();
    assert.equal(hook.requests.length, 1);
    clock.advance(6_000);
    await t.app.alerts.runOnce();
    [d] = await deliveries(user.headers);
    assert.equal(d.status, 'succeeded');
    assert.equal(d.attempts, 2);
    assert.deepEqual(
      d.recentAttempts.map((a: any) => [a.attempt, a.statusCode, a.outcome]),
      [
        [1, 500, 'retry'],
        [2, 200, 'succeeded'],
      ],
    );
    assert.equal(hook.requests.length, 2);
    assert.equal(hook.requests[0]!.headers['webhook-id'], hook.requests[1]!.headers['webhook-id']);
    for (const r of hook.requests) new Webhook(secret).verify(r.body, r.headers as Record<string, string>);
  });

  test('a receiver that does not answer in time is retried', async () => {
    const { user } = await webhookUser(t, ['cloudflare'], `${hook.url}/b`);
    hook.reply = (_r, n) => (n === 1 ? { status: 200, hang: true } : { status: 204 });
    await emit(t, 'incident.created', incident('cloudflare'));
    await t.app.alerts.runOnce();
    let [d] = await deliveries(user.headers);
    assert.equal(d.status, 'pending');
    assert.match(d.lastError, /timed out|aborted/i);
    assert.equal(d.lastStatusCode, null);
    clock.advance(6_000);
    await t.app.alerts.runOnce();
    [d] = await deliveries(user.headers);
    assert.equal(d.status, 'succeeded');
  });

  test('429 with Retry-After waits at least that long', async () => {
    const { user } = await webhookUser(t, ['openai'], `${hook.url}/c`);
    hook.reply = (_r, n) => (n === 1 ? { status: 429, headers: { 'retry-after': '120' } } : { status: 200 });
    await emit(t, 'incident.created', incident('openai'));
    await t.app.alerts.runOnce();
    let [d] = await deliveries(user.headers);
    assert.equal(d.lastStatusCode, 429);
    assert.ok(Date.parse(d.nextAttemptAt) - clock.now().getTime() >= 120_000);
    clock.advance(60_000);
    await t.app.alerts.runOnce();
    assert.equal(hook.requests.length, 1, 'not retried before Retry-After');
    clock.advance(61_000);
    await t.app.alerts.runOnce();
    [d] = await deliveries(user.headers);
    assert.equal(d.status, 'succeeded');
  });

  test('410 fails the delivery and switches the webhook off', async () => {
    const { user } = await webhookUser(t, ['stripe'], `${hook.url}/d`);
    hook.reply = () => ({ status: 410 });
    await emit(t, 'incident.created', incident('stripe'));
    await t.app.alerts.runOnce();
    const [d] = await deliveries(user.headers);
    assert.equal(d.status, 'failed');
    assert.equal(d.recentAttempts[0].outcome, 'disabled');
    const prefs = await getJson(`${t.api}/notification-preferences`, { headers: user.headers });
    assert.equal(prefs.body.preferences.webhook.enabled, false);
    await emit(t, 'incident.created', incident('stripe'));
    assert.equal((await t.app.alerts.runOnce()).dispatched, 0);
    assert.equal(hook.requests.length, 1);
  });

  test(`after ${MAX_ATTEMPTS} failed attempts the delivery is failed and visible`, async () => {
    const { user } = await webhookUser(t, ['slack'], `${hook.url}/e`);
    hook.reply = () => ({ status: 503 });
    await emit(t, 'incident.created', incident('slack'));
    await t.app.alerts.runOnce();
    for (let i = 0; i < MAX_ATTEMPTS + 2; i++) {
      clock.advance(25 * 3_600_000);
      await t.app.alerts.runOnce();
    }
    const [d] = await deliveries(user.headers);
    assert.equal(d.status, 'failed');
    assert.equal(d.attempts, MAX_ATTEMPTS);
    assert.equal(d.nextAttemptAt, null);
    assert.equal(hook.requests.length, MAX_ATTEMPTS);
    const failed = await getJson(`${t.api}/notification-deliveries?status=failed`, { headers: user.headers });
    assert.deepEqual(
      failed.body.items.map((x: any) => x.id),
      [d.id],
    );
  });

  test('a test alert to a failing receiver reports the failure and is not retried', async () => {
    const { user } = await webhookUser(t, ['github'], `${hook.url}/f`);
    hook.reply = () => ({ status: 500, body: 'boom' });
    const r = await send(`${t.api}/notification-preferences/test`, 'POST', user.headers, { channel: 'webhook' });
    assert.equal(r.status, 200);
    assert.equal(r.body.delivered, false);
    assert.equal(r.body.statusCode, 500);
    const [d] = await deliveries(user.headers);
    assert.equal(d.status, 'failed');
    assert.equal(d.test, true);
    const pd = await send(`${t.api}/notification-preferences/test`, 'POST', user.headers, { channel: 'pagerduty' });
    assert.equal(pd.status, 409);
  });
});
