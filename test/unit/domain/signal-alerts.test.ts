import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { pagerdutyEvent } from '../../../src/alerts/channels/pagerduty.ts';
import { opsgenieRequest } from '../../../src/alerts/channels/opsgenie.ts';
import { signalHits } from '../../../src/domain/alert-impact.ts';
import { type AlertRoute, defaultRouteFilters, filterProblems, routeAdmits, routeTakesSignal } from '../../../src/domain/alert-routes.ts';
import { eventLabel } from '../../../src/domain/events.ts';
import { isClosingType, signalAlertPayload, signalAlertRowId } from '../../../src/domain/signal-alerts.ts';
import type { Delivery } from '../../../src/store/repositories/deliveries-repository.ts';

// The pure rules of early-warning alerts (docs/alerts.md "Early warning"): which routes take a
// signal, the wording that marks it as ours, the row ids that make it once, what closes a page,
// and the services a signal may hit (docs/services.md "Impact of signals").

const route = (o: Omit<Partial<AlertRoute>, 'filters'> & { filters?: Partial<AlertRoute['filters']> } = {}): AlertRoute => ({
  id: 'rte_1',
  orgId: 'org1',
  name: 'r',
  enabled: true,
  destination: { channel: 'webhook', url: 'https://hooks.example.com/a/b', format: 'standard', secret: 'whsec_abcdEFGH' },
  disabledReason: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...o,
  filters: { ...defaultRouteFilters(), ...o.filters },
});
const scope = {
  onWatchlist: (org: string, v: string) => org === 'org1' && v === 'github',
  onNamedWatchlist: (id: string, v: string) => id === 'pay' && v === 'stripe',
};
const signal = { orgId: 'org1', vendor: 'github', components: ['Actions'], openedAt: '2026-02-01T00:00:00.000Z' };
const EW = ['created', 'status_changed', 'resolved', 'early_warning'] as const;
const available = { email: true, slack: true };

describe('early-warning alerts: routes', () => {
  test('off by default; a route takes signals only when it lists the kind', () => {
    assert.ok(!defaultRouteFilters().kinds.includes('early_warning' as never));
    assert.equal(routeTakesSignal(route(), signal, scope, null, available), false);
    assert.equal(routeTakesSignal(route({ filters: { kinds: [...EW] } }), signal, scope, null, available), true);
    assert.equal(routeTakesSignal(route({ filters: { kinds: ['early_warning'] } }), signal, scope, null, available), true);
    // A route that takes only early warning lets no vendor record through.
    assert.equal(
      routeAdmits(route({ filters: { kinds: ['early_warning'] } }), {
        type: 'incident.created',
        vendor: 'github',
        impact: 'major',
        components: [],
        kind: 'created',
      }),
      false,
    );
  });

  test('its own organisation, in scope, switched on, made before the signal opened, through its filters', () => {
    const r = (o: Parameters<typeof route>[0] = {}) => route({ ...o, filters: { kinds: [...EW], ...o.filters } });
    assert.equal(routeTakesSignal(r({ orgId: 'org2' }), signal, scope, null, available), false);
    assert.equal(routeTakesSignal(r(), { ...signal, vendor: 'stripe' }, scope, null, available), false);
    assert.equal(routeTakesSignal(r({ filters: { watchlistId: 'pay' } }), { ...signal, vendor: 'stripe' }, scope, null, available), true);
    assert.equal(routeTakesSignal(r({ enabled: false }), signal, scope, null, available), false);
    assert.equal(routeTakesSignal(r({ createdAt: '2026-03-01T00:00:00.000Z' }), signal, scope, null, available), false);
    assert.equal(routeTakesSignal(r({ filters: { components: ['Pages'] } }), signal, scope, null, available), false);
    assert.equal(routeTakesSignal(r({ filters: { components: ['actions'] } }), signal, scope, null, available), true);
    assert.equal(routeTakesSignal(r({ filters: { onlyAffectingServices: true } }), signal, scope, [], available), false);
    assert.equal(
      routeTakesSignal(r({ destination: { channel: 'slack', conversation: 'C0AAAAAAA' } }), signal, scope, null, { email: true, slack: false }),
      false,
    );
    // An owner route hears of a signal hitting its service whatever its scope.
    const hit = {
      serviceId: 's1',
      serviceName: 'ci',
      criticality: 'high' as const,
      confidence: 'low' as const,
      reasons: [],
      via: 'GitHub',
      ownerRouteId: 'rte_1',
    };
    assert.equal(routeTakesSignal(r({ filters: { vendors: ['aws'] } }), signal, scope, [hit], available), true);
  });

  test('kinds are checked: unknown ones and an empty list refused', () => {
    assert.deepEqual(filterProblems({ ...defaultRouteFilters(), kinds: ['early_warning'] }), []);
    assert.equal(filterProblems({ ...defaultRouteFilters(), kinds: [] }).length, 1);
    assert.equal(filterProblems({ ...defaultRouteFilters(), kinds: ['early' as never] }).length, 1);
  });
});

describe('early-warning alerts: payload and channels', () => {
  const input = (to: 'suspected' | 'confirmed' | 'cleared' | 'dismissed', reason = 'inbound and report agree') => ({
    signal: {
      id: 'sig_1',
      vendor: 'github',
      state: to,
      confidence: 0.85,
      components: ['Actions'],
      regions: [],
      openedAt: 'a',
      lastObservedAt: 'b',
      incidentId: to === 'confirmed' ? 'github-1' : null,
    },
    transition: { id: 'sgt_1', from: to === 'suspected' ? null : ('suspected' as const), to, at: '2026-02-01T00:00:00.000Z', actor: 'system', reason },
    evidence: Array.from({ length: 8 }, (_, i) => ({ source: i % 2 ? 'inbound' : 'report', strength: 0.5, summary: `s${i}`, observedAt: 'x' })),
    vendorName: 'GitHub',
  });
  const row = (eventType: string, payload: Record<string, unknown>) =>
    ({
      id: 'dlv_1',
      eventSeq: null,
      orgId: 'org1',
      channel: 'pagerduty',
      eventType,
      vendor: 'github',
      entityId: 'sig_1',
      payload,
      occurredAt: 'x',
      isTest: false,
    }) as unknown as Delivery;

  test('worded as our suspicion, never the vendor status; impact unknown; at most five observations', () => {
    const p = signalAlertPayload(input('suspected'));
    assert.match(String(p.title), /our early warning, not the vendor's status/);
    assert.equal(p.impact, 'unknown');
    assert.equal(p.status, 'suspected');
    assert.equal((p.evidence as unknown[]).length, 5);
    assert.match((p.updates as { body: string }[])[0]!.body, /status page says nothing of it yet\. Confidence 85 % from inbound, report/);
    assert.equal(eventLabel('early_warning.suspected'), 'Suspected problem (early warning)');
    const c = signalAlertPayload(input('confirmed', 'the vendor posted incident github-1'));
    assert.match((c.updates as { body: string }[])[0]!.body, /^The vendor posted incident github-1\.\nThe vendor's incident github-1 continues in this thread/);
  });

  test('one row id per route and transition', () => {
    assert.equal(signalAlertRowId('rte_1', 'sgt_1'), signalAlertRowId('rte_1', 'sgt_1'));
    assert.notEqual(signalAlertRowId('rte_1', 'sgt_1'), signalAlertRowId('rte_2', 'sgt_1'));
    assert.notEqual(signalAlertRowId('rte_1', 'sgt_1'), signalAlertRowId('rte_1', 'sgt_2'));
    assert.match(signalAlertRowId('rte_1', 'sgt_1'), /^dlv_[0-9a-f]{32}$/);
  });

  test('paging: suspected triggers, confirmed is a note, cleared and dismissed resolve', () => {
    assert.ok(isClosingType('early_warning.cleared') && isClosingType('early_warning.dismissed') && isClosingType('incident.resolved'));
    assert.ok(!isClosingType('early_warning.suspected') && !isClosingType('early_warning.confirmed'));
    const key = 'R0UT1NGKEYR0UT1NGKEYR0UT1NGKEY12';
    assert.equal(pagerdutyEvent(row('early_warning.suspected', signalAlertPayload(input('suspected'))), key).event_action, 'trigger');
    assert.deepEqual(pagerdutyEvent(row('early_warning.cleared', signalAlertPayload(input('cleared'))), key), {
      routing_key: key,
      event_action: 'resolve',
      dedup_key: 'sig_1',
    });
    assert.match(
      opsgenieRequest(row('early_warning.dismissed', signalAlertPayload(input('dismissed'))), { alertsPath: '/v2/alerts' }).path,
      /\/close\?identifierType=alias$/,
    );
    assert.match(
      opsgenieRequest(row('early_warning.confirmed', signalAlertPayload(input('confirmed'))), { alertsPath: '/v2/alerts' }).path,
      /\/notes\?identifierType=alias$/,
    );
  });
});

describe('early-warning alerts: services a signal may hit', () => {
  const services = [
    {
      id: 's1',
      name: 'checkout',
      criticality: 'critical' as const,
      ownerRouteId: null,
      dependencies: [{ vendor: 'amazon-web-services', components: [], regions: ['us-east-1'], kind: 'hard' as const }],
    },
    {
      id: 's2',
      name: 'ci',
      criticality: 'high' as const,
      ownerRouteId: null,
      dependencies: [{ vendor: 'github', components: ['cmp_actions'], regions: [], kind: 'hard' as const }],
    },
  ];
  const known = new Map([
    ['cmp_actions', 'Actions'],
    ['cmp_pages', 'Pages'],
  ]);

  test('regions named in the evidence, components by the vendor list; ruled out when another is named', () => {
    const aws = signalHits({ id: 'sig', vendor: 'amazon-web-services', components: [], regions: [] }, ['S3 errors in us-east-1'], 'AWS', services, undefined);
    assert.deepEqual(
      aws.map((h) => [h.serviceName, h.confidence, h.reasons, h.via]),
      [['checkout', 'medium', ['us-east-1 named in the evidence'], 'AWS: us-east-1']],
    );
    assert.deepEqual(signalHits({ id: 'sig', vendor: 'amazon-web-services', components: [], regions: ['eu-west-1'] }, [], 'AWS', services, undefined), []);
    const gh = signalHits({ id: 'sig', vendor: 'github', components: ['actions'], regions: [] }, [], 'GitHub', services, known);
    assert.deepEqual(
      gh.map((h) => [h.serviceName, h.confidence, h.reasons]),
      [['ci', 'high', ["component 'actions' listed"]]],
    );
    assert.deepEqual(signalHits({ id: 'sig', vendor: 'github', components: ['Pages'], regions: [] }, [], 'GitHub', services, known), []);
    const vague = signalHits({ id: 'sig', vendor: 'github', components: [], regions: [] }, ['slow'], 'GitHub', services, known);
    assert.deepEqual(
      vague.map((h) => [h.confidence, h.reasons]),
      [['low', ['the signal lists no components']]],
    );
  });
});
