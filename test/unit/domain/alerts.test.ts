import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MAX_ATTEMPTS, nextRetryDelay, parseRetryAfter, RETRY_DELAYS_MS } from '../../../src/domain/alerts.ts';
import { ConfigError, loadConfig } from '../../../src/infra/config.ts';

test('retry delays follow the Standard Webhooks schedule with ±10 % jitter', () => {
  assert.equal(MAX_ATTEMPTS, 10);
  assert.deepEqual(
    RETRY_DELAYS_MS.map((ms) => ms / 1000),
    [5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400],
  );
  assert.equal(
    nextRetryDelay(1, null, () => 0),
    4_500,
  );
  assert.equal(
    nextRetryDelay(1, null, () => 1),
    5_500,
  );
  assert.equal(
    nextRetryDelay(2, null, () => 0.5),
    300_000,
  );
  assert.equal(nextRetryDelay(MAX_ATTEMPTS, null), null);
  // Retry-After later than the schedule wins, capped at 24 h; earlier does not shorten it.
  assert.equal(
    nextRetryDelay(1, 120_000, () => 0.5),
    120_000,
  );
  assert.equal(
    nextRetryDelay(3, 1_000, () => 0.5),
    1_800_000,
  );
  assert.equal(
    nextRetryDelay(1, 10 * 86_400_000, () => 0.5),
    86_400_000,
  );
});

test('Retry-After: delay-seconds or an HTTP date', () => {
  const now = new Date('2026-03-02T10:00:00Z');
  assert.equal(parseRetryAfter('120', now), 120_000);
  assert.equal(parseRetryAfter('Mon, 02 Mar 2026 10:01:00 GMT', now), 60_000);
  assert.equal(parseRetryAfter('soon', now), null);
  assert.equal(parseRetryAfter(null, now), null);
});

test('alert settings are validated with the variable named', () => {
  const bad: Record<string, string> = {
    SMTP_URL: 'http://mail.example.com',
    SLACK_BOT_TOKEN: 'not-a-token',
    SLACK_API_URL: 'ftp://x',
    PAGERDUTY_EVENTS_URL: 'nope',
    DELIVER: 'maybe',
    DELIVERY_TIMEOUT_MS: '5',
    DELIVERY_CONCURRENCY: '0',
    EMAIL_FROM: 'a@b.c\r\nBcc: x@y.z',
  };
  for (const [name, value] of Object.entries(bad)) {
    assert.throws(
      () => loadConfig({ [name]: value }),
      (err: unknown) => err instanceof ConfigError && err.variable === name,
      name,
    );
  }
  const c = loadConfig({ SLACK_API_URL: 'http://127.0.0.1:9/api', SMTP_URL: 'smtp://127.0.0.1:2525', EMAIL_FROM: 'Alerts <a@example.com>' });
  assert.equal(c.slackApiUrl, 'http://127.0.0.1:9/api/');
  assert.equal(c.deliver, true);
  assert.equal(c.pagerdutyEventsUrl, 'https://events.pagerduty.com/v2/enqueue');
});
