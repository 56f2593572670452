import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  type AlertRoute,
  defaultRouteFilters,
  destinationProblems,
  filterProblems,
  inRouteScope,
  maskedDestination,
  routeAdmits,
  routeReceiver,
  routeRowStart,
  routeToRoutes,
} from '../../../src/domain/alert-routes.ts';
import type { AlertEvent } from '../../../src/domain/alerts.ts';
import type { StoredEvent } from '../../../src/domain/events.ts';

// The pure rules of alert routes (docs/alert-routes.md): scope, filters, quiet hours,
// fair-share keys, masking and the checks of what an editor sends.

const route = (o: Omit<Partial<AlertRoute>, 'filters'> & { filters?: Partial<AlertRoute['filters']> } = {}): AlertRoute => ({
  id: 'rte_1',
  orgId: 'org1',
  name: 'r',
  enabled: true,
  destination: { channel: 'webhook', url: 'https://hooks.example.com/a/b', format: 'standard', secret: 'whsec_abcdEFGH' },
  disabledReason: null,
  createdAt: '',
  updatedAt: '',
  ...o,
  filters: { ...defaultRouteFilters(), ...o.filters },
});
const event = (o: Partial<AlertEvent> = {}): AlertEvent => ({
  type: 'incident.created',
  vendor: 'github',
  impact: 'major',
  components: [],
  kind: 'created',
  ...o,
});
const scope = {
  onWatchlist: (org: string, v: string) => org === 'org1' && v === 'github',
  onNamedWatchlist: (id: string, v: string) => id === 'pay' && v === 'stripe',
};

describe('alert routes: scope and filters', () => {
  test('scope: vendors, else the named watchlist, else the organisation watchlist', () => {
    assert.equal(inRouteScope(route(), 'github', scope), true);
    assert.equal(inRouteScope(route(), 'stripe', scope), false);
    assert.equal(inRouteScope(route({ filters: { watchlistId: 'pay' } }), 'stripe', scope), true);
    assert.equal(inRouteScope(route({ filters: { watchlistId: 'pay' } }), 'github', scope), false);
    assert.equal(inRouteScope(route({ filters: { vendors: ['aws'] } }), 'aws', scope), true);
    assert.equal(inRouteScope(route({ filters: { vendors: ['aws'] } }), 'github', scope), false);
  });

  test('kinds, minimum impact and components', () => {
    assert.equal(routeAdmits(route(), event({ kind: 'updated', type: 'incident.updated' })), false);
    assert.equal(routeAdmits(route({ filters: { kinds: ['updated'] } }), event({ kind: 'updated', type: 'incident.updated' })), true);
    assert.equal(routeAdmits(route({ filters: { minImpact: 'critical' } }), event()), false);
    assert.equal(routeAdmits(route({ filters: { components: ['Actions'] } }), event({ components: ['ACTIONS'] })), true);
    assert.equal(routeAdmits(route({ filters: { components: ['Actions'] } }), event({ components: ['Pages'] })), false);
    // Maintenance is not held back by the impact floor (it has none), but can be switched off.
    const maint = event({ type: 'maintenance.scheduled', impact: 'none' });
    assert.equal(routeAdmits(route({ filters: { minImpact: 'major' } }), maint), true);
    assert.equal(routeAdmits(route({ filters: { maintenance: false } }), maint), false);
  });

  test('paging routes page for incidents and windows, and always for a resolve', () => {
    const pd = route({ destination: { channel: 'pagerduty', routingKey: 'k'.repeat(32) }, filters: { minImpact: 'critical', kinds: ['created'] } });
    assert.equal(routeAdmits(pd, event({ type: 'maintenance.scheduled', kind: 'created' })), false);
    assert.equal(routeAdmits(pd, event({ type: 'incident.resolved', kind: 'resolved', impact: 'minor' })), true);
    assert.equal(routeAdmits(pd, event({ impact: 'major' })), false);
  });

  test('quiet hours hold chat and e-mail rows to their end, never paging or webhooks', () => {
    const at = new Date('2026-11-29T23:30:00Z');
    const quiet = { quietHours: { start: '22:00', end: '07:00', timezone: 'UTC' } };
    const teams = route({ destination: { channel: 'teams', url: 'https://x.example.com/w' }, filters: quiet });
    assert.equal(routeRowStart(teams, at).nextAttemptAt, '2026-11-30T07:00:00.000Z');
    assert.equal(routeRowStart(route({ filters: quiet }), at).nextAttemptAt, at.toISOString());
    assert.equal(routeRowStart(teams, new Date('2026-11-29T12:00:00Z')).nextAttemptAt, '2026-11-29T12:00:00.000Z');
  });

  test('routeToRoutes: one row per event and admitting route, switched-off and unavailable routes skipped', () => {
    const ev: StoredEvent = {
      seq: 7,
      type: 'incident.created',
      vendor: 'github',
      entityKind: 'incident',
      entityId: 'i1',
      occurredAt: '2026-11-29T00:00:00Z',
      payload: { impact: 'major', components: [] },
    } as never;
    const rows = routeToRoutes({
      events: [ev],
      routes: [
        route({ id: 'a' }),
        route({ id: 'b', enabled: false }),
        route({ id: 'c', destination: { channel: 'email', to: ['x@example.com'] } }),
        route({ id: 'd', orgId: 'org2' }),
      ],
      scope,
      available: { email: false, slack: true },
      now: new Date('2026-11-29T00:00:01Z'),
    });
    assert.deepEqual(
      rows.map((r) => [r.routeId, r.orgId, r.channel, r.receiver]),
      [['a', 'org1', 'webhook', 'hooks.example.com']],
    );
  });
});

describe('alert routes: what an editor sends, what answers show', () => {
  test('destination checks', () => {
    const none: string[] = [];
    assert.deepEqual(destinationProblems({ channel: 'webhook', url: 'https://hooks.example.com/x', format: 'standard', secret: 's' }, none), []);
    assert.equal(destinationProblems({ channel: 'webhook', url: 'https://10.0.0.1/x', format: 'standard', secret: 's' }, none)[0]?.field, 'destination.url');
    assert.equal(destinationProblems({ channel: 'teams', url: 'https://acme.webhook.office.com/x' }, none).length, 1);
    assert.equal(destinationProblems({ channel: 'email', to: [] }, none).length, 1);
    assert.equal(destinationProblems({ channel: 'slack', conversation: 'D123' }, none).length, 1);
  });

  test('filter checks', () => {
    assert.deepEqual(filterProblems(defaultRouteFilters()), []);
    assert.equal(filterProblems({ ...defaultRouteFilters(), vendors: ['a'], watchlistId: 'w' })[0]?.field, 'filters.watchlistId');
    assert.equal(filterProblems({ ...defaultRouteFilters(), quietHours: { start: '7', end: '08:00', timezone: 'UTC' } })[0]?.field, 'filters.quietHours.start');
  });

  test('masking keeps hosts and the last four characters only', () => {
    assert.deepEqual(maskedDestination({ channel: 'webhook', url: 'https://hooks.example.com/secret/path', format: 'slack', secret: 'whsec_abcdEFGH' }), {
      channel: 'webhook',
      url: 'https://hooks.example.com/****',
      format: 'slack',
      secret: '****EFGH',
    });
    assert.deepEqual(maskedDestination({ channel: 'opsgenie', apiKey: '12345678-1234-1234-1234-123456789abc', region: 'eu' }), {
      channel: 'opsgenie',
      apiKey: '****9abc',
      region: 'eu',
    });
    assert.equal(routeReceiver({ channel: 'pagerduty', routingKey: 'x' }), 'pagerduty');
  });
});
