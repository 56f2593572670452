import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DomainError } from '../../../src/domain/errors.ts';
import { isAllowListed, isNonPublicAddress, webhookUrlProblem } from '../../../src/domain/outbound-url.ts';
import {
  defaultPreferences,
  invalidPreferences,
  isDiscordWebhookUrl,
  isEmailAddress,
  isMasked,
  mask,
  mergedProblems,
  mergePreferences,
  normalizeStored,
  patchProblems,
  vendorSlugsIn,
} from '../../../src/domain/preferences.ts';
import { watchlistView } from '../../../src/domain/watchlist.ts';

describe('preferences merge', () => {
  test('omitted fields stay, objects merge key by key, lists replace', () => {
    const base = defaultPreferences();
    base.muted_vendors = ['zoom', 'slack'];
    base.email = { enabled: true, address: 'a@example.com', digest: 'daily', alert_on: null };
    const next = mergePreferences(base, { email: { digest: 'hourly' }, muted_vendors: ['github'] });
    assert.deepEqual(next.email, { enabled: true, address: 'a@example.com', digest: 'hourly', alert_on: null });
    assert.deepEqual(next.muted_vendors, ['github']);
    assert.deepEqual(next.content_filters, base.content_filters);
    assert.deepEqual(base.email.digest, 'daily', 'the input is not mutated');
  });

  test('null resets a channel vendor list to the watchlist; duplicates collapse', () => {
    const base = mergePreferences(defaultPreferences(), { slack: { vendors: ['github', 'github', 'aws'] } });
    assert.deepEqual(base.slack.vendors, ['github', 'aws']);
    assert.equal(mergePreferences(base, { slack: { vendors: null } }).slack.vendors, null);
  });

  test('read-only and secret fields never reach the stored document', () => {
    const next = mergePreferences(defaultPreferences(), {
      slack_connection: { connected: true },
      webhook: { secret: 'whsec_x', url: 'https://example.com/h' },
      pagerduty: { routing_key: 'a'.repeat(32) },
      rss: { feed_url: '/x', enabled: true },
    });
    const text = JSON.stringify(next);
    assert.ok(!text.includes('whsec_x') && !text.includes('a'.repeat(32)) && !text.includes('slack_connection'));
    assert.equal(next.rss.enabled, true);
    assert.ok(!('feed_url' in next.rss));
  });

  test('a Discord webhook URL defaults to the discord format unless one is given', () => {
    const url = 'https://discord.com/api/webhooks/123/abc';
    assert.equal(mergePreferences(defaultPreferences(), { webhook: { url } }).webhook.format, 'discord');
    assert.equal(mergePreferences(defaultPreferences(), { webhook: { url, format: 'standard' } }).webhook.format, 'standard');
    assert.equal(mergePreferences(defaultPreferences(), { webhook: { url: 'https://example.com/h' } }).webhook.format, 'standard');
    assert.ok(isDiscordWebhookUrl('https://discordapp.com/api/webhooks/1/x'));
    assert.ok(!isDiscordWebhookUrl('https://discord.com.evil.example/api/webhooks/1/x'));
  });

  test('a Slack incoming webhook URL defaults to the slack format', () => {
    const url = 'https://hooks.slack.com/services/T000/B000/XXXX';
    assert.equal(mergePreferences(defaultPreferences(), { webhook: { url } }).webhook.format, 'slack');
    assert.equal(mergePreferences(defaultPreferences(), { webhook: { url: 'https://hooks.slack.com.evil.example/services/x' } }).webhook.format, 'standard');
  });

  test('channel secrets never enter the settings document', () => {
    const next = mergePreferences(defaultPreferences(), {
      teams: { enabled: true, webhook_url: 'https://prod.logic.azure.com/w?sig=SECRET1' },
      google_chat: { enabled: true, webhook_url: 'https://chat.googleapis.com/v1/spaces/A/messages?token=SECRET2' },
      opsgenie: { enabled: true, api_key: 'SECRET3', region: 'eu' },
      pagerduty: { routing_key: 'SECRET4' },
    });
    assert.equal(next.opsgenie.region, 'eu');
    assert.equal(next.teams.enabled, true);
    assert.ok(!/SECRET/.test(JSON.stringify(next)), JSON.stringify(next));
  });

  test('stored documents from older versions gain new keys and lose unknown ones', () => {
    const n = normalizeStored({ email: { enabled: true }, legacy: 1 });
    assert.equal(n.email.enabled, true);
    assert.equal(n.email.digest, 'off');
    assert.ok(!('legacy' in n));
    assert.deepEqual(normalizeStored(null), defaultPreferences());
  });
});

describe('preferences validation', () => {
  const ctx = { allowPrivate: [] };
  test('formats of single fields', () => {
    const problems = patchProblems(
      { email: { address: 'not-an-address' }, webhook: { url: 'http://example.com/h' }, pagerduty: { routing_key: 'short' } },
      ctx,
    );
    assert.deepEqual(
      problems.map((p) => p.field),
      ['email.address', 'webhook.url', 'pagerduty.routing_key'],
    );
    assert.deepEqual(patchProblems({ pagerduty: { routing_key: '****abcd' } }, ctx), [], 'a masked key is checked later');
  });

  test('a channel switched on needs its target', () => {
    const next = mergePreferences(defaultPreferences(), {
      webhook: { enabled: true },
      pagerduty: { enabled: true },
      teams: { enabled: true },
      google_chat: { enabled: true },
      opsgenie: { enabled: true },
    });
    const none = { routingKey: false, teamsUrl: false, googleChatUrl: false, opsgenieKey: false };
    assert.deepEqual(
      mergedProblems(next, none).map((p) => p.field),
      ['webhook.url', 'pagerduty.routing_key', 'teams.webhook_url', 'google_chat.webhook_url', 'opsgenie.api_key'],
    );
    const all = { routingKey: true, teamsUrl: true, googleChatUrl: true, opsgenieKey: true };
    assert.deepEqual(
      mergedProblems(next, all).map((p) => p.field),
      ['webhook.url'],
    );
  });

  test('the error names every field', () => {
    const err = invalidPreferences([
      { field: 'a', why: 'x' },
      { field: 'b.c', why: 'y' },
    ]);
    assert.ok(err instanceof DomainError);
    assert.equal(err.code, 'invalid_parameter');
    assert.match(err.message, /'a' x; 'b\.c' y/);
    assert.deepEqual(err.details.fields, ['a', 'b.c']);
  });

  test('vendor slugs of a patch, for one existence check', () => {
    assert.deepEqual(vendorSlugsIn({ muted_vendors: ['a', 'b'], slack: { vendors: ['b', 'c'] }, webhook: { vendors: null }, pagerduty: { vendors: ['d'] } }), [
      'a',
      'b',
      'c',
      'd',
    ]);
  });

  test('e-mail addresses', () => {
    for (const ok of ['a@example.com', 'first.last+tag@sub.example.co.uk']) assert.ok(isEmailAddress(ok), ok);
    for (const bad of ['a@b', 'a b@example.com', '@example.com', 'a@example', `${'x'.repeat(65)}@example.com`]) {
      assert.ok(!isEmailAddress(bad), bad);
    }
  });

  test('masks show four characters at most', () => {
    assert.equal(mask('whsec_abcdefgh'), '****efgh');
    assert.ok(isMasked('****efgh'));
    assert.ok(!isMasked('whsec_abcdefgh'));
  });
});

describe('webhook URL policy', () => {
  test('https to a public host is accepted', () => {
    assert.equal(webhookUrlProblem('https://hooks.example.com/alerts?x=1', []), null);
    assert.equal(webhookUrlProblem('https://93.184.216.34/h', []), null);
  });

  test('http, credentials, private and loopback hosts are refused', () => {
    const refused = [
      'http://hooks.example.com/h',
      'ftp://example.com/h',
      'https://user:pw@example.com/h',
      'https://127.0.0.1/h',
      'https://10.1.2.3/h',
      'https://172.20.0.1/h',
      'https://192.168.1.1/h',
      'https://169.254.169.254/latest/meta-data',
      'https://100.64.0.1/h',
      'https://0.0.0.0/h',
      'https://[::1]/h',
      'https://[fd00::1]/h',
      'https://[fe80::1]/h',
      'https://[::ffff:127.0.0.1]/h',
      'https://localhost/h',
      'https://api.localhost/h',
      'https://printer.local/h',
      'https://2130706433/h',
      'https://0x7f.1/h',
      'not a url',
      `https://example.com/${'x'.repeat(2100)}`,
    ];
    for (const url of refused) assert.ok(webhookUrlProblem(url, []), url);
  });

  test('the allow-list lets named hosts, addresses and ranges through, http included', () => {
    const allow = ['127.0.0.1', 'receiver.internal', '10.0.0.0/8', '::1'];
    assert.equal(webhookUrlProblem('http://127.0.0.1:8080/h', allow), null);
    assert.equal(webhookUrlProblem('https://receiver.internal/h', allow), null);
    assert.equal(webhookUrlProblem('http://10.9.8.7/h', allow), null);
    assert.equal(webhookUrlProblem('http://[::1]:9000/h', allow), null);
    assert.ok(webhookUrlProblem('http://192.168.1.1/h', allow));
    assert.ok(webhookUrlProblem('http://hooks.example.com/h', allow), 'http only for allow-listed hosts');
    assert.ok(isAllowListed('[::ffff:10.0.0.1]', ['10.0.0.0/8']));
    assert.ok(!isAllowListed('11.0.0.1', ['10.0.0.0/8', 'bad/entry', '10.0.0.0/99']));
  });

  test('address classification', () => {
    assert.ok(isNonPublicAddress('::ffff:7f00:1'));
    assert.ok(!isNonPublicAddress('8.8.8.8'));
    assert.ok(!isNonPublicAddress('2606:4700::1111'));
    assert.ok(!isNonPublicAddress('example.com'));
  });
});

describe('watchlist quota', () => {
  test('free plans show limit and remaining; paid plans are unlimited', () => {
    assert.deepEqual(watchlistView(['a', 'b'], 'free'), { vendors: ['a', 'b'], count: 2, limit: 10, remaining: 8, isUnlimited: false });
    assert.deepEqual(watchlistView(['a'], 'pro'), { vendors: ['a'], count: 1, isUnlimited: true });
    const over = Array.from({ length: 12 }, (_, i) => `v${i}`);
    assert.equal(watchlistView(over, 'free').remaining, 0, 'never negative after a downgrade');
  });
});
