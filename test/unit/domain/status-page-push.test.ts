import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type AlertRoute, defaultRouteFilters, routeAdmits } from '../../../src/domain/alert-routes.ts';
import type { AlertEvent } from '../../../src/domain/alerts.ts';
import { mappingProblems, pageStatus } from '../../../src/domain/status-page-push.ts';

// The pure rules of pushing vendor statuses into a team's own page (docs/alert-routes.md
// "Our own status page"): status words per product, nothing for an unobserved component,
// the mapping's checks, and which events a status page route takes.

const pageRoute = (): AlertRoute => ({
  id: 'rte_p',
  orgId: 'org1',
  name: 'page',
  enabled: true,
  destination: {
    channel: 'statuspage',
    pageId: 'pg1',
    apiKey: 'key-123456789',
    components: [{ vendor: 'github', component: 'Actions', pageComponentId: 'c1' }],
  },
  disabledReason: null,
  createdAt: '',
  updatedAt: '',
  filters: { ...defaultRouteFilters(), kinds: ['created'] },
});
const event = (o: Partial<AlertEvent> = {}): AlertEvent => ({
  type: 'incident.created',
  vendor: 'github',
  impact: 'major',
  components: [],
  kind: 'created',
  ...o,
});

test('status words per product; an unobserved component gives no status at all', () => {
  assert.equal(pageStatus('statuspage', 'partial_outage'), 'partial_outage');
  assert.equal(pageStatus('instatus', 'partial_outage'), 'PARTIALOUTAGE');
  assert.equal(pageStatus('instatus', 'under_maintenance'), 'UNDERMAINTENANCE');
  assert.equal(pageStatus('statuspage', 'unknown'), null);
  assert.equal(pageStatus('instatus', 'unknown'), null);
});

test('a mapping is checked line by line, each page component driven once, at most 25 lines', () => {
  const line = { vendor: 'github', component: 'Actions', pageComponentId: 'c1' };
  assert.deepEqual(mappingProblems([line]), []);
  assert.deepEqual(
    mappingProblems([]).map((p) => p.field),
    ['destination.components'],
  );
  assert.deepEqual(
    mappingProblems([{ ...line, vendor: 'Git Hub' }]).map((p) => p.field),
    ['destination.components.0.vendor'],
  );
  assert.deepEqual(
    mappingProblems([{ ...line, pageComponentId: 'a/../b' }]).map((p) => p.field),
    ['destination.components.0.pageComponentId'],
  );
  assert.deepEqual(
    mappingProblems([{ ...line, component: ' ' }]).map((p) => p.field),
    ['destination.components.0.component'],
  );
  assert.match(mappingProblems([line, { ...line, component: 'API' }])[0]!.why, /driven twice/);
  assert.match(mappingProblems(Array.from({ length: 26 }, (_, i) => ({ ...line, pageComponentId: `c${i}` })))[0]!.why, /at most 25/);
});

test('a status page route takes every change of its mapped vendors, never a schedule, whatever the alert filters', () => {
  const r = pageRoute();
  assert.equal(routeAdmits(r, event()), true);
  assert.equal(routeAdmits(r, event({ vendor: 'stripe' })), false);
  assert.equal(routeAdmits(r, event({ type: 'maintenance.scheduled', kind: 'created' })), false);
  assert.equal(routeAdmits(r, event({ type: 'maintenance.started', kind: 'status_changed' })), true);
  // Kinds say created only and impact critical, yet updates and resolutions pass: the page follows every change.
  r.filters.minImpact = 'critical';
  assert.equal(routeAdmits(r, event({ type: 'incident.updated', kind: 'updated', impact: 'minor' })), true);
  assert.equal(routeAdmits(r, event({ type: 'incident.resolved', kind: 'resolved' })), true);
});
