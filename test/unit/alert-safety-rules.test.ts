import assert from 'node:assert/strict';
import { test } from 'node:test';
import { receiverOf } from '../../src/domain/deliveries.ts';
import { splitByCap, summaryId } from '../../src/alerts/flood-cap.ts';
import { withinShare } from '../../src/domain/fair-share.ts';
import { emailAddressStatus } from '../../src/domain/preferences.ts';
import type { AlertChannel } from '../../src/domain/alerts.ts';
import type { NewDelivery } from '../../src/store/repositories/deliveries-repository.ts';
import { emptyPreferencesState } from '../../src/store/repositories/preferences-repository.ts';

// Pure rules of alert safety (docs/alerts.md): proven addresses, the flood cap's
// split, and the fair share of sending slots per receiver.

test('an e-mail address is proven when it is the account address or the confirmed one', () => {
  assert.equal(emailAddressStatus(null, 'me@example.com', null), 'confirmed');
  assert.equal(emailAddressStatus('Me@Example.com', 'me@example.com', null), 'confirmed');
  assert.equal(emailAddressStatus('ops@example.com', 'me@example.com', 'OPS@example.com'), 'confirmed');
  assert.equal(emailAddressStatus('ops@example.com', 'me@example.com', null), 'pending');
  assert.equal(emailAddressStatus('ops@example.com', null, 'old@example.com'), 'pending');
});

const row = (orgId: string, channel: AlertChannel, n: number): NewDelivery => ({
  id: `d${n}`,
  eventSeq: n,
  orgId,
  channel,
  eventType: 'incident.created',
  vendor: 'github',
  entityId: `i${n}`,
  payloadJson: '{}',
  occurredAt: '2026-01-01T00:00:00.000Z',
  status: 'pending',
  nextAttemptAt: '2026-01-01T00:00:00.000Z',
});

test('the flood cap keeps the first alerts per user and push channel, counting earlier batches', () => {
  const rows = [
    ...Array.from({ length: 5 }, (_, i) => row('u1', 'webhook', i)),
    ...Array.from({ length: 5 }, (_, i) => row('u1', 'in_app', 10 + i)),
    ...Array.from({ length: 2 }, (_, i) => row('u2', 'webhook', 20 + i)),
  ];
  const { kept, held } = splitByCap(rows, new Map([['u1\u0000webhook', 1]]), 3);
  assert.deepEqual(
    held.map((r) => r.id),
    ['d2', 'd3', 'd4'],
  );
  assert.equal(kept.filter((r) => r.channel === 'in_app').length, 5, 'in-app is not capped');
  assert.equal(kept.filter((r) => r.orgId === 'u2').length, 2);
  const resolves = Array.from({ length: 4 }, (_, i): NewDelivery => ({ ...row('u3', 'pagerduty', 30 + i), eventType: 'incident.resolved' }));
  assert.equal(splitByCap(resolves, new Map(), 1).held.length, 0, 'PagerDuty resolves are never held');
  const closes = Array.from({ length: 4 }, (_, i): NewDelivery => ({ ...row('u3', 'opsgenie', 40 + i), eventType: 'incident.resolved' }));
  assert.equal(splitByCap(closes, new Map(), 1).held.length, 0, 'Opsgenie closes are never held');
  const teams = Array.from({ length: 4 }, (_, i) => row('u3', 'teams', 50 + i));
  assert.equal(splitByCap(teams, new Map(), 1).held.length, 3, 'Teams alerts are capped like any push channel');
  assert.equal(summaryId('u1', 'webhook', 'w'), summaryId('u1', 'webhook', 'w'));
  assert.notEqual(summaryId('u1', 'webhook', 'w'), summaryId('u1', 'email', 'w'));
  assert.match(summaryId('u1', 'webhook', 'w'), /^dlv_[0-9a-f]{32}$/);
});

test('claimed rows beyond a receiver share are given back; other receivers are untouched', () => {
  const r = (id: string, receiver: string | null) => ({ id, receiver });
  const { send, giveBack } = withinShare(
    [r('a1', 'slow:1'), r('a2', 'slow:1'), r('a3', 'slow:1'), r('b1', 'fast:2'), r('c1', null)],
    new Map([['slow:1', 1]]),
    2,
  );
  assert.deepEqual(
    send.map((x) => x.id),
    ['a1', 'b1', 'c1'],
  );
  assert.deepEqual(
    giveBack.map((x) => x.id),
    ['a2', 'a3'],
  );
});

test('the receiver of a chat channel row is its URL host; a paging service is one receiver', () => {
  const state = emptyPreferencesState();
  state.settings.webhook.url = 'https://Hooks.Example.com:8443/in';
  state.channelSecrets.teamsWebhookUrl = 'https://prod-12.westus.logic.azure.com:443/workflows/abc/triggers/manual/paths/invoke?sig=s3cret';
  state.channelSecrets.googleChatWebhookUrl = 'https://chat.googleapis.com/v1/spaces/AAAA/messages?key=k&token=t';
  assert.equal(receiverOf('webhook', state), 'hooks.example.com:8443');
  assert.equal(receiverOf('teams', state), 'prod-12.westus.logic.azure.com', 'host only: the signed URL stays sealed');
  assert.equal(receiverOf('google_chat', state), 'chat.googleapis.com');
  assert.equal(receiverOf('opsgenie', state), 'opsgenie');
  assert.equal(receiverOf('pagerduty', state), 'pagerduty');
  assert.equal(receiverOf('in_app', state), null);
  assert.equal(receiverOf('teams', emptyPreferencesState()), null);
});
