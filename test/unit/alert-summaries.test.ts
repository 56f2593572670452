import assert from 'node:assert/strict';
import { test } from 'node:test';
import { gatherHeld, heldSummaryId, MAX_SUMMARY_ITEMS, type SummaryPayload } from '../../src/alerts/held-summaries.ts';
import { defaultPreferences, mergePreferences } from '../../src/domain/preferences.ts';
import type { Delivery, NewDelivery } from '../../src/store/repositories/deliveries-repository.ts';

// Digest and quiet-hour summaries gathered across dispatch batches
// (docs/alerts.md "Digests", "Quiet hours").

const row = (o: Partial<NewDelivery>): NewDelivery => ({
  id: `dlv_${Math.random()}`,
  eventSeq: 1,
  orgId: 'u1',
  channel: 'email',
  eventType: 'incident.created',
  vendor: 'github',
  entityId: 'inc-1',
  payloadJson: '',
  occurredAt: '2026-06-01T10:20:00Z',
  status: 'pending',
  nextAttemptAt: '2026-06-01T10:20:00Z',
  receiver: 'email',
  ...o,
});
const record = (r: NewDelivery) => ({ title: `Title of ${r.entityId}`, status: r.eventType.split('.')[1], impact: 'major', vendorName: 'GitHub' });

test('a digest row grows across batches, one line per record, due at the period end', () => {
  const s = mergePreferences(defaultPreferences(), { email: { digest: 'hourly' }, timezone: 'UTC' });
  const now = new Date('2026-06-01T10:20:00Z');
  const first = gatherHeld([row({}), row({ channel: 'webhook' })], () => s, record, new Map(), now);
  assert.equal(first.rows.length, 1, 'the webhook row is sent now');
  assert.equal(first.summaries.length, 1);
  const id = heldSummaryId('u1', 'email', 'digest', '2026-06-01T10:00:00.000Z');
  assert.equal(first.summaries[0]!.id, id);
  assert.equal(first.summaries[0]!.nextAttemptAt, '2026-06-01T11:00:00.000Z');
  // The next batch reads the row as stored and adds to it.
  const stored = { payload: JSON.parse(first.summaries[0]!.payloadJson) } as Delivery;
  const second = gatherHeld(
    [row({ eventType: 'incident.resolved' }), row({ entityId: 'inc-2' })],
    () => s,
    record,
    new Map([[id, stored]]),
    new Date('2026-06-01T10:40:00Z'),
  );
  const p = JSON.parse(second.summaries[0]!.payloadJson) as SummaryPayload;
  assert.equal(p.count, 3);
  assert.deepEqual(
    p.items.map((i) => [i.entityId, i.changes, i.status]),
    [
      ['inc-1', ['incident.created', 'incident.resolved'], 'resolved'],
      ['inc-2', ['incident.created'], 'created'],
    ],
  );
  assert.equal(p.title, 'Hourly digest: 3 changes to 2 records: github (3)');
});

test('records beyond the list limit are counted, not listed; quiet hours hold chat rows only', () => {
  const s = mergePreferences(defaultPreferences(), { quiet_hours: { enabled: true, start: '22:00', end: '07:00' } });
  const rows = Array.from({ length: MAX_SUMMARY_ITEMS + 5 }, (_, i) => row({ channel: 'slack', entityId: `inc-${i}` }));
  const out = gatherHeld([...rows, row({ channel: 'pagerduty' })], () => s, record, new Map(), new Date('2026-06-01T23:00:00Z'));
  assert.deepEqual(
    out.rows.map((r) => r.channel),
    ['pagerduty'],
  );
  const p = JSON.parse(out.summaries[0]!.payloadJson) as SummaryPayload;
  assert.equal(p.items.length, MAX_SUMMARY_ITEMS);
  assert.equal(p.more, 5);
  assert.equal(out.summaries[0]!.nextAttemptAt, '2026-06-02T07:00:00.000Z');
  assert.match(p.updates[0]!.body, /… and 5 more$/);
});
