// Salesforce Trust status API, on payloads written for this test in the shape of the
// public client types (docs/mappings.md "Salesforce Trust").
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseSource } from '../../../../src/ingest/adapters/index.ts';
import { trustInstanceStatus } from '../../../../src/ingest/adapters/salesforce-trust.ts';

const BASE = 'https://api.status.salesforce.com/v1';
const parse = (path: string, body: unknown, now = '2026-06-01T00:00:00Z') =>
  parseSource('salesforce-trust', { vendor: 'salesforce', url: `${BASE}${path}`, body: Buffer.from(JSON.stringify(body)), now: new Date(now) });

const INCIDENT = {
  id: 12345,
  message: { pathToResolution: '', actionPlan: '', rootCause: '' },
  externalId: null,
  affectsAll: false,
  isCore: true,
  additionalInformation: null,
  serviceKeys: ['Core'],
  instanceKeys: ['NA45', 'CS10'],
  IncidentImpacts: [
    {
      id: 1,
      startTime: '2026-05-31T10:00:00.000Z',
      endTime: null,
      serviceIssue: true,
      endUserImpact: true,
      severity: 'minor',
      type: 'performanceDegradation',
      createdAt: '2026-05-31T10:05:00.000Z',
      updatedAt: '2026-05-31T10:05:00.000Z',
    },
    {
      id: 2,
      startTime: '2026-05-31T10:30:00.000Z',
      endTime: null,
      serviceIssue: true,
      endUserImpact: true,
      severity: 'major',
      type: 'serviceDisruption',
      createdAt: '2026-05-31T10:35:00.000Z',
      updatedAt: '2026-05-31T10:35:00.000Z',
    },
  ],
  IncidentEvents: [
    { id: 10, type: 'update', message: 'Our engineers are investigating.', createdAt: '2026-05-31T10:06:00.000Z', updatedAt: '2026-05-31T10:06:00.000Z' },
    { id: 11, type: 'update', message: 'Mitigation in progress.', createdAt: '2026-05-31T11:00:00.000Z', updatedAt: '2026-05-31T11:00:00.000Z' },
  ],
  createdAt: '2026-05-31T10:05:00.000Z',
  updatedAt: '2026-05-31T11:00:00.000Z',
};

describe('salesforce-trust', () => {
  test('/incidents/active: the complete open set, a title built from impact and instances', () => {
    const s = parse('/incidents/active', [INCIDENT]);
    assert.equal(s.incidentsAreCompleteUnresolvedSet, true);
    assert.deepEqual(s.incidents, [
      {
        id: 'salesforce:12345',
        vendor: 'salesforce',
        title: 'Performance degradation on NA45, CS10',
        status: 'investigating',
        sourceStatus: 'active',
        impact: 'major',
        startedAt: '2026-05-31T10:00:00.000Z',
        updatedAt: '2026-05-31T11:00:00.000Z',
        resolvedAt: null,
        components: ['Core'],
        updates: [
          { status: 'investigating', body: 'Mitigation in progress.', createdAt: '2026-05-31T11:00:00.000Z' },
          { status: 'investigating', body: 'Our engineers are investigating.', createdAt: '2026-05-31T10:06:00.000Z' },
        ],
        url: 'https://status.salesforce.com/incidents/12345',
        source: 'salesforce-trust',
      },
    ]);
  });

  test('/incidents: an incident whose impacts all ended is resolved; long instance lists are shortened', () => {
    const ended = {
      ...INCIDENT,
      instanceKeys: ['NA1', 'NA2', 'NA3', 'NA4', 'NA5', 'NA6', 'NA7'],
      IncidentImpacts: INCIDENT.IncidentImpacts.map((i) => ({ ...i, endTime: '2026-05-31T12:00:00.000Z' })),
    };
    const s = parse('/incidents', [ended]);
    assert.equal(s.incidentsAreCompleteUnresolvedSet, false);
    assert.equal(s.incidents?.[0]?.status, 'resolved');
    assert.equal(s.incidents?.[0]?.resolvedAt, '2026-05-31T12:00:00.000Z');
    assert.equal(s.incidents?.[0]?.title, 'Performance degradation on NA1, NA2, NA3, NA4, NA5 and 2 more');
  });

  test('/maintenances: the state follows the planned window', () => {
    const m = {
      id: 777,
      name: 'NA45 Major Release',
      plannedStartTime: '2026-06-01T02:00:00.000Z',
      plannedEndTime: '2026-06-01T06:00:00.000Z',
      serviceKeys: ['Core'],
      instanceKeys: ['NA45'],
      MaintenanceEvents: [],
    };
    assert.equal(parse('/maintenances', [m], '2026-06-01T00:00:00Z').maintenances?.[0]?.status, 'scheduled');
    assert.equal(parse('/maintenances', [m], '2026-06-01T03:00:00Z').maintenances?.[0]?.status, 'in_progress');
    const done = parse('/maintenances', [m], '2026-06-01T07:00:00Z').maintenances?.[0];
    assert.equal(done?.status, 'completed');
    assert.equal(done?.completedAt, '2026-06-01T06:00:00.000Z');
    assert.equal(done?.url, 'https://status.salesforce.com/maintenances/777');
  });

  test('/instances/status/preview: instance statuses by their suffix', () => {
    const s = parse('/instances/status/preview', [
      { key: 'NA45', status: 'OK', environment: 'production' },
      { key: 'CS10', status: 'MAJOR_INCIDENT_NONCORE', environment: 'sandbox' },
    ]);
    assert.deepEqual(
      s.components?.map((c) => [c.name, c.status, c.group]),
      [
        ['NA45', 'operational', 'production'],
        ['CS10', 'partial_outage', 'sandbox'],
      ],
    );
    assert.equal(s.status?.indicator, 'partial_outage');
    assert.equal(trustInstanceStatus('MAJOR_INCIDENT_CORE'), 'major_outage');
    assert.equal(trustInstanceStatus('MINOR_INCIDENT_CORE'), 'degraded_performance');
    assert.equal(trustInstanceStatus('MAINTENANCE_NONCORE'), 'under_maintenance');
    assert.equal(trustInstanceStatus('UNPLANNED_MAINTENANCE_CORE'), 'under_maintenance');
    assert.equal(trustInstanceStatus('INFORMATIONAL_CORE'), 'operational');
    assert.equal(trustInstanceStatus('SOMETHING_NEW'), 'unknown');
  });

  test('an unknown path or a wrong shape is refused', () => {
    assert.throws(() => parse('/generalMessages', []), /salesforce-trust: cannot tell what \/v1\/generalMessages returns/);
    assert.throws(() => parse('/incidents/active', { incidents: [] }), /invalid payload at \/: Expected array/);
  });
});
