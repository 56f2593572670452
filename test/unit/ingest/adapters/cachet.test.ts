// Cachet 2.x and 3.x public API, on payloads written for this test in the documented
// shapes (docs/mappings.md "Cachet").
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseSource } from '../../../../src/ingest/adapters/index.ts';

const parse = (path: string, body: unknown) =>
  parseSource('cachet', { vendor: 'acme', url: `https://status.acme.test${path}`, body: Buffer.from(JSON.stringify(body)), now: new Date('2026-06-01T00:00:00Z') });

const page = (data: unknown[]) => ({
  meta: { pagination: { total: data.length, count: data.length, per_page: 20, current_page: 1, total_pages: 1, links: { next_page: null, previous_page: null } } },
  data,
});

describe('cachet', () => {
  test('2.x incidents: numeric statuses, zone-less dates read as UTC, the latest update status wins', () => {
    const s = parse('/api/v1/incidents', page([
      { id: 7, component_id: 2, name: 'Login failures', status: 2, human_status: 'Identified', latest_status: 3, visible: 1, message: 'Cause **found**', occurred_at: '2026-05-31 10:00:00', created_at: '2026-05-31 10:01:00', updated_at: '2026-05-31 11:30:00', permalink: 'https://status.acme.test/incidents/7' },
      { id: 8, name: 'Old', status: 4, visible: 1, message: '', occurred_at: '2026-05-01 10:00:00', created_at: '2026-05-01 10:00:00', updated_at: '2026-05-01 12:00:00' },
      { id: 9, name: 'Planned work (2.3)', status: 0, visible: 1, message: 'Upgrade', occurred_at: '2026-06-02 22:00:00', created_at: '2026-05-20 10:00:00', updated_at: '2026-05-20 10:00:00' },
    ]));
    assert.deepEqual(s.incidents?.[0], {
      id: 'acme:7',
      vendor: 'acme',
      title: 'Login failures',
      status: 'monitoring',
      sourceStatus: 'watching',
      impact: 'minor',
      startedAt: '2026-05-31T10:00:00.000Z',
      updatedAt: '2026-05-31T11:30:00.000Z',
      resolvedAt: null,
      components: [],
      updates: [{ status: 'monitoring', body: 'Cause **found**', createdAt: '2026-05-31T11:30:00.000Z' }],
      url: 'https://status.acme.test/incidents/7',
      source: 'cachet',
    });
    assert.equal(s.incidents?.[1]?.status, 'resolved');
    assert.equal(s.incidents?.length, 2);
    assert.deepEqual(s.maintenances?.map((m) => [m.title, m.status, m.scheduledFor]), [['Planned work (2.3)', 'scheduled', '2026-06-02T22:00:00.000Z']]);
  });

  test('2.x components and schedules', () => {
    const c = parse('/api/v1/components', page([
      { id: 1, name: 'API', status: 1, enabled: true },
      { id: 2, name: 'Website', status: 3, enabled: true },
      { id: 3, name: 'Hidden', status: 4, enabled: false },
    ]));
    assert.deepEqual(c.components?.map((x) => [x.name, x.status]), [['API', 'operational'], ['Website', 'partial_outage']]);
    assert.equal(c.status?.indicator, 'partial_outage');
    const m = parse('/api/v1/schedules', page([{ id: 4, name: 'DB upgrade', message: 'Short downtime', status: 1, scheduled_at: '2026-05-31 23:00:00', completed_at: null }]));
    assert.deepEqual(m.maintenances?.map((x) => [x.id, x.status, x.startedAt]), [['acme:schedule-4', 'in_progress', '2026-05-31T23:00:00.000Z']]);
  });

  test('2.x system status', () => {
    assert.deepEqual(parse('/api/v1/status', { data: { status: 'danger', message: 'Some systems are down' } }).status, { indicator: 'major_outage', description: 'Some systems are down' });
  });

  test('3.x JSON:API items with {human, value} statuses', () => {
    const s = parse('/api/incidents', {
      data: [{ id: '21', type: 'incidents', attributes: { name: 'Queue delays', status: { human: 'Fixed', value: 4 }, message: 'Resolved.', occurred_at: '2026-05-30T08:00:00Z', updated_at: '2026-05-30T09:00:00Z' } }],
      links: {},
      meta: {},
    });
    assert.deepEqual(s.incidents?.map((i) => [i.id, i.status, i.resolvedAt]), [['acme:21', 'resolved', '2026-05-30T09:00:00.000Z']]);
  });

  test('an unknown path or a wrong shape is refused', () => {
    assert.throws(() => parse('/api/v1/metrics', page([])), /cachet: cannot tell what \/api\/v1\/metrics returns/);
    assert.throws(() => parse('/api/v1/incidents', { data: [{ name: 'no id' }] }), /cachet: invalid payload at \/0\/id/);
  });
});
