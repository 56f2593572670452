import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  affectsLine,
  type AlertHit,
  alertHits,
  type AlertService,
  impactRecordOfPayload,
  MAX_ALERT_SERVICES,
  payloadHits,
} from '../../../src/domain/alert-impact.ts';
import { type AlertRoute, defaultRouteFilters, filterProblems, inRouteScopeOrOwner, serviceFiltersAdmit } from '../../../src/domain/alert-routes.ts';
import { impactIndex } from '../../../src/domain/impact.ts';

// What an alert says it hits (docs/alert-routes.md "Affected services in alerts") and the
// service filters and owner rule of routes (docs/alert-routes.md "Routing by service").

const components = new Map([
  ['cmp-api', 'API'],
  ['cmp-dash', 'Dashboard'],
]);
const services: AlertService[] = [
  {
    id: 's1',
    name: 'checkout-api',
    criticality: 'critical',
    ownerRouteId: 'rte_owner',
    dependencies: [{ vendor: 'stripe', kind: 'hard', components: ['cmp-api'], regions: [] }],
  },
  { id: 's2', name: 'billing', criticality: 'medium', ownerRouteId: null, dependencies: [{ vendor: 'stripe', kind: 'soft', components: [], regions: [] }] },
  {
    id: 's3',
    name: 'console',
    criticality: 'high',
    ownerRouteId: null,
    dependencies: [{ vendor: 'stripe', kind: 'hard', components: ['cmp-dash'], regions: [] }],
  },
  {
    id: 's4',
    name: 'eu-api',
    criticality: 'high',
    ownerRouteId: null,
    dependencies: [{ vendor: 'amazon-web-services', kind: 'hard', components: [], regions: ['eu-west-1'] }],
  },
];
const payload = (o: Record<string, unknown>) => ({ id: 'inc1', title: 'Elevated errors', components: [], updates: [], ...o });
const hitsFor = (vendor: string, vendorName: string, p: Record<string, unknown>) =>
  alertHits(impactRecordOfPayload(vendor, 'incident.created', p, vendor === 'stripe' ? components : undefined), vendorName, services, impactIndex(services));

describe('affected services of an alert', () => {
  test('each hit says the dependency it comes through: the vendor, then the components matched', () => {
    const hits = hitsFor('stripe', 'Stripe', payload({ components: ['API'] }));
    assert.deepEqual(
      hits.map((h) => [h.serviceName, h.confidence, h.via, h.ownerRouteId]),
      [
        ['checkout-api', 'high', 'Stripe: API', 'rte_owner'],
        ['billing', 'low', 'Stripe', null],
      ],
    );
    assert.equal(affectsLine(payloadHits(hits)), 'affects checkout-api (critical) via Stripe: API; billing (medium) via Stripe');
    assert.ok(!('ownerRouteId' in payloadHits(hits)[0]!), 'the owner route stays inside');
  });

  test('a region named in an update is the dependency it comes through', () => {
    const hits = hitsFor('amazon-web-services', 'AWS', payload({ updates: [{ createdAt: '2026-01-01T10:00:00Z', body: 'Errors in EU-WEST-1.' }] }));
    assert.deepEqual(
      hits.map((h) => [h.serviceName, h.via]),
      [['eu-api', 'AWS: eu-west-1']],
    );
  });

  test('nothing hit, or anything but a list: no line', () => {
    assert.equal(affectsLine([]), null);
    assert.equal(affectsLine(undefined), null);
    assert.equal(affectsLine('checkout-api'), null);
    assert.deepEqual(hitsFor('github', 'GitHub', payload({})), []);
  });

  test('long lists: five named, the rest counted; the payload keeps the first fifty', () => {
    const many = Array.from(
      { length: 60 },
      (_, i) => ({ serviceId: `s${i}`, serviceName: `svc-${i}`, criticality: 'low', confidence: 'low', reasons: [], via: 'X', ownerRouteId: null }) as AlertHit,
    );
    assert.equal(payloadHits(many).length, MAX_ALERT_SERVICES);
    assert.match(affectsLine(payloadHits(many))!, /svc-4 \(low\) via X and 45 more$/);
  });
});

const route = (filters: Partial<AlertRoute['filters']> = {}, id = 'rte_1'): AlertRoute => ({
  id,
  orgId: 'org1',
  name: 'r',
  enabled: true,
  destination: { channel: 'webhook', url: 'https://hooks.example.com/a', format: 'standard', secret: 'whsec_x' },
  disabledReason: null,
  createdAt: '',
  updatedAt: '',
  filters: { ...defaultRouteFilters(), ...filters },
});
const hit = (serviceName: string, ownerRouteId: string | null = null): AlertHit => ({
  serviceId: serviceName,
  serviceName,
  criticality: 'high',
  confidence: 'high',
  reasons: [],
  via: 'Stripe',
  ownerRouteId,
});
const scope = { onWatchlist: () => false, onNamedWatchlist: () => false };

describe('routing by service', () => {
  test('no service filter: everything passes, services or not', () => {
    assert.equal(serviceFiltersAdmit(route(), null), true);
    assert.equal(serviceFiltersAdmit(route(), []), true);
  });
  test('onlyAffectingServices wants a hit', () => {
    const r = route({ onlyAffectingServices: true });
    assert.equal(serviceFiltersAdmit(r, null), false);
    assert.equal(serviceFiltersAdmit(r, []), false);
    assert.equal(serviceFiltersAdmit(r, [hit('web')]), true);
  });
  test('services wants a hit on one of those names', () => {
    const r = route({ services: ['checkout-api'] });
    assert.equal(serviceFiltersAdmit(r, [hit('web')]), false);
    assert.equal(serviceFiltersAdmit(r, [hit('web'), hit('checkout-api')]), true);
    assert.equal(serviceFiltersAdmit(r, null), false);
  });
  test('a service the route owns passes its service filters and widens its scope', () => {
    const r = route({ vendors: ['cloudflare'], services: ['other'] }, 'rte_owner');
    assert.equal(serviceFiltersAdmit(r, [hit('web', 'rte_owner')]), true);
    assert.equal(inRouteScopeOrOwner(r, 'stripe', scope, [hit('web', 'rte_owner')]), true);
    assert.equal(inRouteScopeOrOwner(r, 'stripe', scope, [hit('web', 'rte_else')]), false);
    assert.equal(inRouteScopeOrOwner(r, 'stripe', scope, null), false);
    assert.equal(inRouteScopeOrOwner(r, 'cloudflare', scope, null), true);
  });
  test('filter checks: names and count', () => {
    assert.deepEqual(filterProblems({ ...defaultRouteFilters(), services: ['ok-name'] }), []);
    assert.equal(filterProblems({ ...defaultRouteFilters(), services: ['Bad Name'] })[0]?.field, 'filters.services');
    assert.equal(filterProblems({ ...defaultRouteFilters(), services: Array.from({ length: 51 }, (_, i) => `s${i}`) })[0]?.field, 'filters.services');
  });
});
