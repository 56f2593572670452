import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startApp, type TestApp } from '../helpers/app.ts';
import { emit, incident, webhookUser } from '../helpers/alerts.ts';
import { type HttpReceiver, startReceiver } from '../helpers/receivers.ts';
import { waitFor } from '../helpers/wait.ts';

// One slow receiver cannot starve the others (docs/alerts.md "Fair share per
// receiver"): sends in flight to one receiver host are bounded by
// DELIVERY_HOST_CONCURRENCY, so while a receiver that never answers holds its
// share, a fast receiver's alert still goes out. Asserted on arrival order, not time.

const CONCURRENCY = 4;
const SHARE = 2;
const SLOW_USERS = 6;

describe('fair share of sending slots per receiver', () => {
  let t: TestApp;
  let slow: HttpReceiver;
  let fast: HttpReceiver;

  before(async () => {
    // The slow receiver takes each request and never answers (a 14 s receiver, or worse).
    slow = await startReceiver(() => ({ status: 200, hang: true }));
    fast = await startReceiver();
    t = await startApp({
      env: {
        DELIVER: 'on',
        OUTBOUND_ALLOW_PRIVATE: '127.0.0.1',
        DELIVERY_CONCURRENCY: String(CONCURRENCY),
        DELIVERY_HOST_CONCURRENCY: String(SHARE),
        // Longer than the test waits: a slot held by the slow receiver stays held.
        DELIVERY_TIMEOUT_MS: '120000',
      },
    });
  });
  after(async () => {
    // The slow receiver goes first, so the sends it holds fail now instead of at the deadline.
    await slow?.close();
    await t?.close();
    await fast?.close();
  });

  test("a fast receiver's alert arrives while the slow receiver's are still pending", async () => {
    for (let i = 0; i < SLOW_USERS; i++) await webhookUser(t, ['github'], `${slow.url}/s${i}`);
    await webhookUser(t, ['openai'], `${fast.url}/f`);
    // The slow receiver's alerts come first and are more than every slot.
    await emit(t, 'incident.created', incident('github'));
    await waitFor(() => slow.requests.length >= SHARE, { message: 'the slow receiver to hold its sends', timeoutMs: 30_000, intervalMs: 25 });
    await emit(t, 'incident.created', incident('openai'));
    await waitFor(() => fast.requests.length === 1, { message: "the fast receiver's alert", timeoutMs: 30_000, intervalMs: 25 });
    // Arrived while none of the slow receiver's requests had been answered, and the
    // slow receiver never held more than its share.
    assert.equal(slow.requests.length, SHARE);
    // Once the fast result is written, exactly the slow receiver's deliveries are left pending.
    let pending: Record<string, number> = {};
    await waitFor(async () => (pending = await t.repos.deliveries.countPending()).webhook === SLOW_USERS, {
      message: 'only the slow deliveries pending',
      timeoutMs: 30_000,
      intervalMs: 25,
    }).catch(() => {});
    assert.equal(pending.webhook, SLOW_USERS, 'every slow delivery is still pending');
    assert.equal(slow.requests.length, SHARE, 'the slow receiver never held more than its share');
  });
});
