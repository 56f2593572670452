import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { alertEventOf, candidatesByVendor, heldEvents, needAccountEmail, type RoutingState, routeEvents } from '../../../src/domain/alert-routing.ts';
import type { StoredEvent } from '../../../src/domain/events.ts';
import { defaultPreferences, mergePreferences } from '../../../src/domain/preferences.ts';

// Routing rules of the dispatcher (docs/alerts.md "Dispatcher"): who an event
// concerns, on which channels, and how each row starts.

const NOW = new Date('2026-03-01T12:00:00.000Z');

const state = (patch: Parameters<typeof mergePreferences>[1] = {}, o: Partial<RoutingState> = {}): RoutingState => ({
  settings: mergePreferences(defaultPreferences(), patch),
  pagerdutyRoutingKey: null,
  slackConnection: null,
  channelSecrets: { teamsWebhookUrl: null, googleChatWebhookUrl: null, opsgenieApiKey: null },
  emailConfirmedAddress: null,
  ...o,
});

const event = (seq: number, vendor: string, payload: Record<string, unknown> = {}): StoredEvent =>
  ({
    seq,
    type: 'incident.created',
    vendor,
    entityKind: 'incident',
    entityId: `${vendor}:i${seq}`,
    occurredAt: '2026-03-01T11:59:00.000Z',
    payload: { id: `${vendor}:i${seq}`, vendor, status: 'investigating', impact: 'major', components: [], updates: [], ...payload },
  }) as never;

const counter = () => {
  let n = 0;
  return () => `id${++n}`;
};

describe('who an event concerns', () => {
  test('the watchers of its vendor plus users whose vendor lists name it, per vendor', () => {
    const c = candidatesByVendor(
      ['github', 'aws', 'slack'],
      new Map([
        ['github', ['u1', 'u2']],
        ['aws', ['u2']],
      ]),
      new Map([
        ['github', ['u2', 'u3']],
        ['slack', ['u4']],
      ]),
    );
    assert.deepEqual([...c.get('github')!], ['u1', 'u2', 'u3'], 'a user both watching and listing it is asked once');
    assert.deepEqual([...c.get('aws')!], ['u2']);
    assert.deepEqual([...c.get('slack')!], ['u4'], 'a vendor list reaches users who do not watch the vendor');
  });

  test('the account address is read only for e-mail that is on and not proven without it', () => {
    const states = new Map([
      ['own', state({ email: { enabled: true } })],
      ['other', state({ email: { enabled: true, address: 'ops@example.com' } })],
      ['confirmed', state({ email: { enabled: true, address: 'ops@example.com' } }, { emailConfirmedAddress: 'OPS@example.com' })],
      ['off', state({ email: { enabled: false, address: 'ops@example.com' } })],
    ]);
    assert.deepEqual(needAccountEmail(states), ['other']);
  });
});

describe('what the rules read of an event', () => {
  test('impact, components and the kind of change come from the record', () => {
    const e = alertEventOf(event(1, 'github', { impact: 'critical', components: ['Actions', 7] }));
    assert.deepEqual(e, { type: 'incident.created', vendor: 'github', impact: 'critical', components: ['Actions', '7'], kind: 'created' });
    assert.equal(alertEventOf(event(2, 'github', { impact: 'severe' })).impact, 'none', 'an unknown impact counts as none');
    assert.deepEqual(alertEventOf(event(3, 'github', { components: undefined })).components, []);
  });
});

describe('the rows of a batch', () => {
  const input = (o: Partial<Parameters<typeof routeEvents>[0]> = {}) => ({
    events: [event(10, 'github')],
    candidates: new Map([['github', ['watcher', 'lister', 'gone']]]),
    watchers: new Map([['github', ['watcher']]]),
    states: new Map([
      ['watcher', state({ webhook: { enabled: true, url: 'https://Hooks.Example.com:8443/in' } })],
      [
        'lister',
        state(
          { in_app: { enabled: true }, teams: { enabled: true, vendors: ['github'] } },
          { channelSecrets: { teamsWebhookUrl: 'https://teams.example.com/w', googleChatWebhookUrl: null, opsgenieApiKey: null } },
        ),
      ],
    ]),
    accountEmails: new Map<string, string>(),
    available: { email: true, slack: true },
    now: NOW,
    ...o,
  });

  test('one row per user and channel the rules let through; stored channels are done when written', () => {
    const rows = routeEvents(input(), counter());
    assert.deepEqual(
      rows.map((r) => [r.id, r.orgId, r.channel, r.status, r.nextAttemptAt, r.receiver]),
      [
        ['id1', 'watcher', 'webhook', 'pending', NOW.toISOString(), 'hooks.example.com:8443'],
        ['id2', 'watcher', 'in_app', 'succeeded', null, null],
        // Not watching: only the channel whose vendor list names the vendor, no in-app item.
        ['id3', 'lister', 'teams', 'pending', NOW.toISOString(), 'teams.example.com'],
      ],
    );
    const r = rows[0]!;
    assert.deepEqual(
      [r.eventSeq, r.eventType, r.vendor, r.entityId, r.occurredAt],
      [10, 'incident.created', 'github', 'github:i10', '2026-03-01T11:59:00.000Z'],
    );
    assert.equal(rows[0]!.payloadJson, rows[2]!.payloadJson, 'the rows of one event share its serialised record');
    assert.equal(JSON.parse(r.payloadJson).id, 'github:i10');
  });

  test('events of a vendor nobody is concerned by make no rows; each event is routed on its own', () => {
    const rows = routeEvents(input({ events: [event(10, 'aws'), event(11, 'github', { impact: 'minor' })] }), counter());
    assert.deepEqual(
      rows.map((r) => r.eventSeq),
      [11, 11, 11],
    );
    const filtered = input({
      states: new Map([['watcher', state({ webhook: { enabled: true, url: 'https://h.example.com/' }, content_filters: { min_impact: 'critical' } })]]),
    });
    assert.deepEqual(
      routeEvents(filtered, counter())
        .filter((r) => r.orgId === 'watcher')
        .map((r) => r.channel),
      [],
      'a major incident is below a critical minimum impact',
    );
  });

  test('e-mail goes only to a proven address, the account address included', () => {
    const states = new Map([['watcher', state({ in_app: { enabled: false }, email: { enabled: true, address: 'me@example.com' } })]]);
    const base = input({ candidates: new Map([['github', ['watcher']]]), states });
    assert.deepEqual(
      routeEvents(base, counter()).map((r) => r.channel),
      [],
    );
    const own = routeEvents({ ...base, accountEmails: new Map([['watcher', 'ME@example.com']]) }, counter());
    assert.deepEqual(
      own.map((r) => [r.channel, r.receiver]),
      [['email', 'email']],
    );
    assert.deepEqual(
      routeEvents({ ...base, available: { email: false, slack: true }, accountEmails: new Map([['watcher', 'me@example.com']]) }, counter()),
      [],
      'no SMTP, no e-mail rows',
    );
  });
});

test('heldEvents: a closed organisation holds the events of its vendors, and every event once it has a route', () => {
  const events = [
    { seq: 1, vendor: 'github' },
    { seq: 2, vendor: 'stripe' },
    { seq: 3, vendor: 'github' },
  ];
  const candidates = new Map([
    ['github', new Set(['o1', 'o2'])],
    ['stripe', new Set(['o2'])],
  ]);
  const held = (closed: string[], routes: { orgId: string }[] = []) =>
    heldEvents(events, candidates, routes, new Set(closed)).map(([org, e]) => `${org}:${e.seq}`);
  assert.deepEqual(held([]), []);
  assert.deepEqual(held(['o1']), ['o1:1', 'o1:3']);
  assert.deepEqual(held(['o1', 'o2']), ['o1:1', 'o1:3', 'o2:1', 'o2:2', 'o2:3']);
  // A route may take any vendor (its owner rule): every event is held for its organisation.
  assert.deepEqual(held(['o3'], [{ orgId: 'o3' }]), ['o3:1', 'o3:2', 'o3:3']);
  // An organisation that is not closed holds nothing, whatever it watches.
  assert.deepEqual(held(['o3'], [{ orgId: 'o1' }]), []);
});
