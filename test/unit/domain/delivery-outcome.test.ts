import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MAX_ATTEMPTS } from '../../../src/domain/alerts.ts';
import {
  type AttemptContext,
  type AttemptResult,
  channelToSwitchOff,
  decideAttempt,
  internalFailure,
  unsendable,
} from '../../../src/domain/delivery-outcome.ts';

// What one attempt's result means for its row (docs/alerts.md "Deliveries and
// workers", "Retry schedule").

const NOW = new Date('2026-03-01T12:00:00.000Z');
const at = (ms: number) => new Date(NOW.getTime() + ms).toISOString();
const ctx = (o: Partial<AttemptContext> = {}): AttemptContext => ({
  cancelled: false,
  interrupted: false,
  attempt: 1,
  maxAttempts: MAX_ATTEMPTS,
  now: NOW,
  random: () => 0.5,
  ...o,
});
const failure = (o: Partial<AttemptResult> = {}): AttemptResult => ({
  ok: false,
  statusCode: 503,
  error: 'HTTP 503',
  retryAfterMs: null,
  permanent: false,
  ...o,
});
const brief = (d: ReturnType<typeof decideAttempt>) => [d.status, d.outcome, d.nextAttemptAt];

describe('the outcome of an attempt', () => {
  test('a success is done', () => {
    const ok: AttemptResult = { ok: true, statusCode: 204, error: null, retryAfterMs: null, permanent: false };
    const d = decideAttempt(ok, ctx({ attempt: MAX_ATTEMPTS }));
    assert.deepEqual(brief(d), ['succeeded', 'succeeded', null]);
    assert.equal(d.result, ok);
  });

  test('a failure is tried again on the schedule, a later Retry-After winning, until the last attempt', () => {
    assert.deepEqual(brief(decideAttempt(failure(), ctx())), ['pending', 'retry', at(5_000)]);
    assert.deepEqual(brief(decideAttempt(failure(), ctx({ attempt: 2 }))), ['pending', 'retry', at(300_000)]);
    assert.deepEqual(brief(decideAttempt(failure({ retryAfterMs: 120_000 }), ctx())), ['pending', 'retry', at(120_000)]);
    assert.deepEqual(brief(decideAttempt(failure(), ctx({ random: () => 0 }))), ['pending', 'retry', at(4_500)], 'jitter');
    assert.deepEqual(brief(decideAttempt(failure(), ctx({ attempt: MAX_ATTEMPTS }))), ['failed', 'failed', null]);
    assert.deepEqual(brief(decideAttempt(failure(), ctx({ attempt: 1, maxAttempts: 1 }))), ['failed', 'failed', null], 'a test alert gets one attempt');
  });

  test('a failure retrying cannot help fails at once; a target gone for good also switches the channel off', () => {
    assert.deepEqual(brief(decideAttempt(failure({ statusCode: 400, permanent: true }), ctx())), ['failed', 'failed', null]);
    assert.deepEqual(brief(decideAttempt(failure({ statusCode: 410, disableChannel: true }), ctx())), ['failed', 'disabled', null]);
    const gone = failure({ statusCode: 410, disableChannel: true });
    assert.equal(channelToSwitchOff('webhook', gone), 'webhook');
    assert.equal(channelToSwitchOff('google_chat', gone), 'google_chat');
    assert.equal(channelToSwitchOff('pagerduty', gone), null, 'only channels with a target that can disappear are switched off');
    assert.equal(channelToSwitchOff('webhook', failure()), null);
  });

  test('a row that cannot be sent is cancelled, not retried', () => {
    const r = unsendable('webhook disabled');
    assert.deepEqual(r, { ok: false, statusCode: null, error: 'webhook disabled', retryAfterMs: null, permanent: true });
    assert.deepEqual(brief(decideAttempt(r, ctx({ cancelled: true }))), ['cancelled', 'cancelled', null]);
  });

  test('a channel that throws is a failure that is retried', () => {
    const r = internalFailure('boom');
    assert.equal(r.error, 'internal error: boom');
    assert.deepEqual(brief(decideAttempt(r, ctx())), ['pending', 'retry', at(5_000)]);
  });

  test('a send cut off by shutdown before an answer is due now, without backoff, and says why', () => {
    const cut = failure({ statusCode: null, error: 'timed out' });
    const d = decideAttempt(cut, ctx({ interrupted: true, attempt: MAX_ATTEMPTS }));
    assert.deepEqual(brief(d), ['pending', 'retry', NOW.toISOString()]);
    assert.equal(d.result.error, 'interrupted: the sending instance shut down before an answer (timed out)');
    assert.equal(cut.error, 'timed out', 'the channel result itself is left as it was');
    // An answer that came before the cut counts as usual.
    assert.deepEqual(brief(decideAttempt(failure(), ctx({ interrupted: true }))), ['pending', 'retry', at(5_000)]);
  });
});
