// Round trips for the status APIs the simulator renders (status.io, Slack, Heroku,
// Salesforce Trust, sorry, Cachet): records → upstream shape → adapter → the same facts.
// Also: arbitrary JSON at each adapter's real URL only ever fails as validation.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import type { ComponentRecord, IncidentRecord, MaintenanceRecord, SourceType } from '../../../../src/domain/records.ts';
import { AdapterError } from '../../../../src/ingest/adapters/adapter.ts';
import { parseSource } from '../../../../src/ingest/adapters/index.ts';
import {
  renderCachetIncidents,
  renderHerokuCurrentStatus,
  renderSlackCurrent,
  renderSorryNotices,
  renderSorryPage,
  renderStatusio,
  renderTrustActiveIncidents,
} from '../../../../src/ingest/simulator/render/index.ts';

const V = 'acme';
const NOW = new Date('2026-04-10T12:00:00Z');
const parse = (type: SourceType, url: string, body: string) => parseSource(type, { vendor: V, url, body: Buffer.from(body), now: NOW });

const components: ComponentRecord[] = [
  { id: 'api', name: 'API', status: 'partial_outage', group: null, position: 0 },
  { id: 'web', name: 'Dashboard', status: 'operational', group: null, position: 1 },
];

const incident: IncidentRecord = {
  id: `${V}:1042`,
  vendor: V,
  title: 'Elevated API error rates',
  status: 'monitoring',
  sourceStatus: 'monitoring',
  impact: 'major',
  startedAt: '2026-04-10T10:00:00.000Z',
  updatedAt: '2026-04-10T11:00:00.000Z',
  resolvedAt: null,
  components: ['API'],
  updates: [
    { status: 'monitoring', body: 'A fix is deployed.', createdAt: '2026-04-10T11:00:00.000Z' },
    { status: 'investigating', body: 'We are looking into errors.', createdAt: '2026-04-10T10:00:00.000Z' },
  ],
  url: 'https://status.acme.test/incidents/1042',
  source: 'demo',
};

const maintenance: MaintenanceRecord = {
  id: `${V}:m7`,
  vendor: V,
  title: 'Database upgrade',
  status: 'scheduled',
  sourceStatus: 'scheduled',
  impact: 'none',
  scheduledFor: '2026-04-12T22:00:00.000Z',
  scheduledUntil: '2026-04-12T23:00:00.000Z',
  startedAt: null,
  completedAt: null,
  components: ['Dashboard'],
  updates: [{ status: 'scheduled', body: 'Planned upgrade.', createdAt: '2026-04-09T09:00:00.000Z' }],
  url: 'https://status.acme.test/incidents/m7',
  source: 'demo',
};

const core = (i: IncidentRecord) => ({ id: i.id, title: i.title, status: i.status, startedAt: i.startedAt, resolvedAt: i.resolvedAt });

describe('round trips', () => {
  test('status.io', () => {
    const s = parse(
      'statusio',
      'https://api.status.io/1.0/status/x',
      renderStatusio({ indicator: 'partial_outage', updatedAt: NOW.toISOString(), components, incidents: [incident], maintenances: [maintenance] }),
    );
    assert.equal(s.status?.indicator, 'partial_outage');
    assert.deepEqual(
      s.components?.map((c) => [c.name, c.status]),
      [
        ['API', 'partial_outage'],
        ['Dashboard', 'operational'],
      ],
    );
    assert.deepEqual(s.incidents?.map(core), [core(incident)]);
    assert.equal(s.incidents?.[0]?.impact, 'major');
    assert.deepEqual(
      s.incidents?.[0]?.updates.map(({ sourceStatus: _word, ...u }) => u),
      incident.updates,
    );
    assert.deepEqual(
      s.maintenances?.map((m) => [m.id, m.status, m.scheduledFor, m.scheduledUntil, m.components]),
      [[maintenance.id, 'scheduled', maintenance.scheduledFor, maintenance.scheduledUntil, ['Dashboard']]],
    );
  });

  test('Slack current', () => {
    const s = parse(
      'slack-status',
      'https://slack-status.com/api/v2.0.0/current',
      renderSlackCurrent({ updatedAt: NOW.toISOString(), incidents: [incident], pageUrl: 'https://x.test' }),
    );
    assert.equal(s.status?.indicator, 'partial_outage');
    assert.deepEqual(
      s.incidents?.map((i) => [i.id, i.title, i.startedAt, i.impact, i.components]),
      [[incident.id, incident.title, incident.startedAt, 'major', ['API']]],
    );
    assert.deepEqual(
      s.incidents?.[0]?.updates.map((u) => u.body),
      incident.updates.map((u) => u.body),
    );
  });

  test('Heroku current-status', () => {
    const s = parse('heroku-status', 'https://status.heroku.com/api/v4/current-status', renderHerokuCurrentStatus({ components, incidents: [incident] }));
    assert.deepEqual(
      s.components?.map((c) => [c.name, c.status]),
      [
        ['Apps', 'degraded_performance'],
        ['Data', 'operational'],
        ['Tools', 'operational'],
      ],
    );
    assert.deepEqual(s.incidents?.map(core), [core(incident)]);
  });

  test('Salesforce Trust active incidents', () => {
    const s = parse('salesforce-trust', 'https://api.status.salesforce.com/v1/incidents/active', renderTrustActiveIncidents({ incidents: [incident] }));
    assert.deepEqual(
      s.incidents?.map((i) => [i.id, i.status, i.impact, i.startedAt, i.components]),
      [[incident.id, 'investigating', 'major', incident.startedAt, ['API']]],
    );
    assert.equal(s.incidents?.[0]?.title, 'Service disruption on SIM1');
  });

  test('sorry page and notices', () => {
    const p = parse(
      'sorry',
      'https://status.acme.test/api/v1/status',
      renderSorryPage({
        name: 'Acme',
        url: 'https://status.acme.test',
        indicator: 'maintenance',
        description: 'Under maintenance',
        updatedAt: NOW.toISOString(),
      }),
    );
    assert.deepEqual(p.status, { indicator: 'maintenance', description: 'Under maintenance' });
    const s = parse('sorry', 'https://status.acme.test/api/v1/notices', renderSorryNotices({ incidents: [incident], maintenances: [maintenance] }));
    assert.deepEqual(s.incidents?.map(core), [core(incident)]);
    assert.deepEqual(
      s.maintenances?.map((m) => [m.id, m.status, m.scheduledFor, m.scheduledUntil]),
      [[maintenance.id, 'scheduled', maintenance.scheduledFor, maintenance.scheduledUntil]],
    );
  });

  test('Cachet incidents', () => {
    const resolved = { ...incident, id: `${V}:1043`, status: 'resolved' as const, sourceStatus: 'resolved', resolvedAt: incident.updatedAt };
    const s = parse('cachet', 'https://status.acme.test/api/v1/incidents', renderCachetIncidents({ incidents: [incident, resolved] }));
    assert.deepEqual(s.incidents?.map(core), [core(incident), core(resolved)]);
  });
});

describe('hostile input at the real URLs', () => {
  const targets: [SourceType, string][] = [
    ['statusio', 'https://api.status.io/1.0/status/x'],
    ['slack-status', 'https://slack-status.com/api/v2.0.0/current'],
    ['heroku-status', 'https://status.heroku.com/api/v4/current-status'],
    ['salesforce-trust', 'https://api.status.salesforce.com/v1/incidents/active'],
    ['salesforce-trust', 'https://api.status.salesforce.com/v1/maintenances'],
    ['salesforce-trust', 'https://api.status.salesforce.com/v1/instances/status/preview'],
    ['sorry', 'https://status.acme.test/api/v1/notices'],
    ['cachet', 'https://status.acme.test/api/v1/incidents'],
    ['cachet', 'https://status.acme.test/api/v1/components'],
    ['cachet', 'https://status.acme.test/api/v1/schedules'],
    ['cachet', 'https://status.acme.test/api/v1/status'],
  ];
  test('property: arbitrary JSON fails only as validation (AdapterError), never as a crash', () => {
    const shaped = fc.oneof(
      fc.jsonValue(),
      fc.record({
        result: fc.record(
          { status_overall: fc.jsonValue(), status: fc.jsonValue(), incidents: fc.jsonValue(), maintenance: fc.jsonValue() },
          { requiredKeys: [] },
        ),
      }),
      fc.record({ status: fc.jsonValue(), active_incidents: fc.jsonValue(), incidents: fc.jsonValue() }, { requiredKeys: [] }),
      fc.array(
        fc.record(
          {
            id: fc.jsonValue(),
            key: fc.jsonValue(),
            status: fc.jsonValue(),
            plannedStartTime: fc.jsonValue(),
            IncidentImpacts: fc.jsonValue(),
            title: fc.jsonValue(),
          },
          { requiredKeys: [] },
        ),
      ),
      fc.record({ notices: fc.jsonValue(), components: fc.jsonValue(), page: fc.jsonValue(), data: fc.jsonValue() }, { requiredKeys: [] }),
      fc.record({
        data: fc.array(fc.record({ id: fc.jsonValue(), attributes: fc.jsonValue(), status: fc.jsonValue(), name: fc.jsonValue() }, { requiredKeys: [] })),
      }),
    );
    fc.assert(
      fc.property(shaped, fc.constantFrom(...targets), (value, [type, url]) => {
        try {
          parse(type, url, JSON.stringify(value) ?? 'null');
        } catch (err) {
          if (!(err instanceof AdapterError)) throw err;
          assert.doesNotMatch(err.message, /unexpected payload structure/);
        }
      }),
      { numRuns: 2000 },
    );
  });
});
