import assert from 'node:assert/strict';
import { test } from 'node:test';
import { resolveTarget } from '../../src/alerts/targets.ts';
import type { AlertChannel } from '../../src/domain/alerts.ts';
import type { Delivery } from '../../src/store/repositories/deliveries-repository.ts';
import { emptyPreferencesState } from '../../src/store/repositories/preferences-repository.ts';

// Where a claimed row is sent, read from the preferences at send time
// (docs/alerts.md "Deliveries and workers", "Proven addresses").

const NOW = new Date('2026-03-01T12:00:00.000Z');
const row = (channel: AlertChannel, isTest = false) => ({ channel, isTest }) as Delivery;

test('a webhook signs with the current secret, and the previous one during its grace period', () => {
  const s = emptyPreferencesState();
  s.settings.webhook = { ...s.settings.webhook, enabled: true, url: 'https://hooks.example.com/in' };
  s.webhookSecret = 'whsec_new';
  s.webhookPreviousSecret = 'whsec_old';
  s.webhookPreviousExpiresAt = '2026-03-01T12:00:01.000Z';
  assert.deepEqual(resolveTarget(row('webhook'), s, null, NOW), {
    channel: 'webhook',
    url: 'https://hooks.example.com/in',
    format: 'standard',
    secrets: ['whsec_new', 'whsec_old'],
  });
  s.webhookPreviousExpiresAt = '2026-03-01T12:00:00.000Z';
  assert.deepEqual((resolveTarget(row('webhook'), s, null, NOW) as { secrets: string[] }).secrets, ['whsec_new'], 'expired grace');
});

test('a channel switched off meanwhile cancels the row, except for a test alert', () => {
  const s = emptyPreferencesState();
  s.settings.webhook = { ...s.settings.webhook, enabled: false, url: 'https://hooks.example.com/in' };
  assert.equal(resolveTarget(row('webhook'), s, null, NOW), 'webhook disabled');
  assert.equal((resolveTarget(row('webhook', true), s, null, NOW) as { channel: string }).channel, 'webhook');
  s.channelSecrets.teamsWebhookUrl = null;
  assert.equal(resolveTarget(row('teams', true), s, null, NOW), 'no Teams webhook URL');
});

test('e-mail goes only to a proven address, test alerts included', () => {
  const s = emptyPreferencesState();
  s.settings.email = { ...s.settings.email, enabled: true, address: 'ops@example.com' };
  assert.equal(resolveTarget(row('email', true), s, 'me@example.com', NOW), 'e-mail address not confirmed: follow the link sent to it');
  s.emailConfirmedAddress = 'ops@example.com';
  assert.deepEqual(resolveTarget(row('email'), s, 'me@example.com', NOW), { channel: 'email', to: 'ops@example.com' });
  s.settings.email.address = null;
  assert.deepEqual(resolveTarget(row('email'), s, 'me@example.com', NOW), { channel: 'email', to: 'me@example.com' }, "no address: the account's own");
});
