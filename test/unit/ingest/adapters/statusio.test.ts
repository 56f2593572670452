// status.io public status API, on payloads written for this test in the documented
// shape (docs/mappings.md "status.io").
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { AdapterError } from '../../../../src/ingest/adapters/adapter.ts';
import { parseSource } from '../../../../src/ingest/adapters/index.ts';
import { statusioComponentStatus, statusioIndicator } from '../../../../src/ingest/adapters/statusio.ts';

const URL_ = 'https://api.status.io/1.0/status/0123456789abcdef01234567';
const parse = (body: unknown) =>
  parseSource('statusio', { vendor: 'acme', url: URL_, body: Buffer.from(JSON.stringify(body)), now: new Date('2026-06-01T00:00:00Z') });

const PAGE = {
  result: {
    status_overall: { updated: '2026-05-24T14:30:00.000Z', status: 'Partial Service Disruption', status_code: 400 },
    status: [
      {
        id: 'c1',
        name: 'Website',
        status: 'Operational',
        status_code: 100,
        updated: '2026-05-24T14:30:00.000Z',
        containers: [{ id: 'k1', name: 'EU', status: 'Operational', status_code: 100 }],
      },
      { id: 'c2', name: 'API', status: 'Partial Service Disruption', status_code: 400, updated: '2026-05-24T14:30:00.000Z', containers: [] },
    ],
    incidents: [
      {
        _id: 'inc1',
        name: 'API errors in EU',
        datetime_open: '2026-05-24T13:00:00.000Z',
        status_code: 300,
        messages: [
          { details: 'A fix is rolling out <b>now</b>.', state: 300, status: 400, datetime: '2026-05-24T14:00:00.000Z' },
          { details: 'Looking into it.', state: 100, status: 300, datetime: '2026-05-24T13:05:00.000Z' },
        ],
        components_affected: [{ name: 'API', _id: 'c2' }],
        containers_affected: [{ name: 'EU', _id: 'k1' }],
      },
    ],
    maintenance: {
      active: [] as unknown[],
      upcoming: [
        {
          name: 'Database upgrade',
          _id: 'm1',
          datetime_open: '2026-05-20T10:00:00.000Z',
          datetime_planned_start: '2026-06-02T22:00:00.000Z',
          datetime_planned_end: '2026-06-02T23:00:00.000Z',
          messages: [{ details: 'We will upgrade the database.', state: 100, status: 200, datetime: '2026-05-20T10:00:00.000Z' }],
          containers_affected: [],
          components_affected: [{ name: 'Website', _id: 'c1' }],
        },
      ],
    },
  },
};

describe('statusio', () => {
  test('page, components, an open incident and an upcoming maintenance', () => {
    const s = parse(PAGE);
    assert.deepEqual(s.status, { indicator: 'partial_outage', description: 'Partial Service Disruption' });
    assert.deepEqual(
      s.components?.map((c) => [c.name, c.status]),
      [
        ['Website', 'operational'],
        ['API', 'partial_outage'],
      ],
    );
    assert.equal(s.incidentsAreCompleteUnresolvedSet, true);
    assert.deepEqual(s.incidents, [
      {
        id: 'acme:inc1',
        vendor: 'acme',
        title: 'API errors in EU',
        status: 'monitoring',
        sourceStatus: 'monitoring',
        impact: 'major',
        startedAt: '2026-05-24T13:00:00.000Z',
        updatedAt: '2026-05-24T14:00:00.000Z',
        resolvedAt: null,
        components: ['API', 'EU'],
        updates: [
          { status: 'monitoring', sourceStatus: 'monitoring', body: 'A fix is rolling out now.', createdAt: '2026-05-24T14:00:00.000Z' },
          { status: 'investigating', sourceStatus: 'investigating', body: 'Looking into it.', createdAt: '2026-05-24T13:05:00.000Z' },
        ],
        url: null,
        source: 'statusio',
      },
    ]);
    assert.equal(s.maintenances?.length, 1);
    const m = s.maintenances![0]!;
    assert.equal(m.id, 'acme:m1');
    assert.equal(m.status, 'scheduled');
    assert.equal(m.scheduledFor, '2026-06-02T22:00:00.000Z');
    assert.equal(m.scheduledUntil, '2026-06-02T23:00:00.000Z');
    assert.equal(m.startedAt, null);
    assert.deepEqual(m.components, ['Website']);
  });

  test('a resolved message state resolves the incident; an active maintenance is in progress', () => {
    const body = structuredClone(PAGE);
    body.result.incidents[0]!.messages.unshift({ details: 'Fixed.', state: 400, status: 100, datetime: '2026-05-24T15:00:00.000Z' });
    body.result.maintenance.active = body.result.maintenance.upcoming;
    body.result.maintenance.upcoming = [] as typeof body.result.maintenance.upcoming;
    const s = parse(body);
    assert.equal(s.incidents![0]!.status, 'resolved');
    assert.equal(s.incidents![0]!.resolvedAt, '2026-05-24T15:00:00.000Z');
    assert.equal(s.maintenances![0]!.status, 'in_progress');
    assert.equal(s.maintenances![0]!.startedAt, '2026-06-02T22:00:00.000Z');
  });

  test('the 100–600 scale', () => {
    assert.deepEqual([100, 200, 300, 400, 500, 600, 999].map(statusioIndicator), [
      'operational',
      'maintenance',
      'degraded',
      'partial_outage',
      'major_outage',
      'major_outage',
      'unknown',
    ]);
    assert.deepEqual([100, 200, 300, 400, 500, 600].map(statusioComponentStatus), [
      'operational',
      'under_maintenance',
      'degraded_performance',
      'partial_outage',
      'major_outage',
      'major_outage',
    ]);
  });

  test('a payload without result is refused with its path', () => {
    assert.throws(
      () => parse({ status_overall: {} }),
      (e: unknown) => e instanceof AdapterError && /statusio: invalid payload at \/result/.test(e.message),
    );
    assert.throws(() => parse({ result: { status_overall: { status_code: 'x' } } }), /\/result\/status_overall\/status_code/);
  });
});
