// Cachet 2.x and 3.x public API, on payloads written for this test in the documented
// shapes (docs/mappings.md "Cachet").
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseSource } from '../../../../src/ingest/adapters/index.ts';

const parse = (path: string, body: unknown) =>
  parseSource('cachet', {
    vendor: 'acme',
    url: `https://status.acme.test${path}`,
    body: Buffer.from(JSON.stringify(body)),
    now: new Date('2026-06-01T00:00:00Z'),
  });

const page = (data: unknown[]) => ({
  meta: {
    pagination: { total: data.length, count: data.length, per_page: 20, current_page: 1, total_pages: 1, links: { next_page: null, previous_page: null } },
  },
  data,
});

describe('cachet', () => {
  test('2.x incidents: numeric statuses, zone-less dates read as UTC, the latest update status wins', () => {
    const s = parse(
      '/api/v1/incidents',
      page([
        {
          id: 7,
          component_id: 2,
          name: 'Login failures',
          status: 2,
          human_status: 'Identified',
          latest_status: 3,
          visible: 1,
          message: 'Cause **found**',
          occurred_at: '2026-05-31 10:00:00',
          created_at: '2026-05-31 10:01:00',
          updated_at: '2026-05-31 11:30:00',
          permalink: 'https://status.acme.test/incidents/7',
        },
        {
          id: 8,
          name: 'Old',
          status: 4,
          visible: 1,
          message: '',
          occurred_at: '2026-05-01 10:00:00',
          created_at: '2026-05-01 10:00:00',
          updated_at: '2026-05-01 12:00:00',
        },
        {
          id: 9,
          name: 'Planned work (2.3)',
          status: 0,
          visible: 1,
          message: 'Upgrade',
          occurred_at: '2026-06-02 22:00:00',
          created_at: '2026-05-20 10:00:00',
          updated_at: '2026-05-20 10:00:00',
        },
      ]),
    );
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
      // No embedded updates: the message is the opening post, in the phase `status` gives.
      updates: [{ status: 'investigating', sourceStatus: 'identified', body: 'Cause **found**', createdAt: '2026-05-31T10:01:00.000Z' }],
      url: 'https://status.acme.test/incidents/7',
      source: 'cachet',
    });
    assert.equal(s.incidents?.[1]?.status, 'resolved');
    assert.equal(s.incidents?.length, 2);
    assert.deepEqual(
      s.maintenances?.map((m) => [m.title, m.status, m.scheduledFor]),
      [['Planned work (2.3)', 'scheduled', '2026-06-02T22:00:00.000Z']],
    );
  });

  test('2.x embedded update history: every update, in order, each with its own status and time', () => {
    // No Cachet payload is among the recorded fixtures; this follows Cachet 2.4's documented
    // shape: every incident carries `updates` (newest first) with `status`, `message`,
    // `human_status` and `created_at`, and posting an update overwrites the incident's `status`.
    const s = parse(
      '/api/v1/incidents',
      page([
        {
          id: 31,
          component_id: 0,
          name: 'Checkout errors',
          status: 4,
          human_status: 'Fixed',
          visible: 1,
          message: 'Some checkouts fail.',
          occurred_at: '2026-05-20 08:00:00',
          created_at: '2026-05-20 08:05:00',
          updated_at: '2026-05-20 11:00:00',
          permalink: 'https://status.acme.test/incidents/31',
          latest_status: 4,
          updates: [
            {
              id: 93,
              incident_id: 31,
              status: 4,
              message: 'All checkouts work again.',
              human_status: 'Fixed',
              created_at: '2026-05-20 11:00:00',
              updated_at: '2026-05-20 11:00:00',
            },
            {
              id: 92,
              incident_id: 31,
              status: 3,
              message: 'A fix is out; watching.',
              human_status: 'Watching',
              created_at: '2026-05-20 10:00:00',
              updated_at: '2026-05-20 10:00:00',
            },
            {
              id: 91,
              incident_id: 31,
              status: 2,
              message: 'The payment gateway is timing out.',
              human_status: 'Identified',
              created_at: '2026-05-20 09:00:00',
              updated_at: '2026-05-20 09:00:00',
            },
          ],
        },
        {
          id: 32,
          name: 'Slow dashboard',
          status: 3,
          visible: 1,
          message: 'Dashboards load slowly.',
          occurred_at: '2026-05-21 08:00:00',
          created_at: '2026-05-21 08:00:00',
          updated_at: '2026-05-21 09:00:00',
          updates: [{ id: 94, incident_id: 32, status: 3, message: 'Mitigated; watching.', human_status: 'Watching', created_at: '2026-05-21 09:00:00' }],
        },
      ]),
    );
    const [fixed, watching] = s.incidents ?? [];
    // Four entries, newest first: fixed at 11:00, watching at 10:00, identified at 09:00 and the
    // opening message at 08:05, whose phase Cachet no longer publishes once updates exist.
    assert.deepEqual(fixed?.updates, [
      { status: 'resolved', sourceStatus: 'fixed', body: 'All checkouts work again.', createdAt: '2026-05-20T11:00:00.000Z' },
      { status: 'monitoring', sourceStatus: 'watching', body: 'A fix is out; watching.', createdAt: '2026-05-20T10:00:00.000Z' },
      { status: 'investigating', sourceStatus: 'identified', body: 'The payment gateway is timing out.', createdAt: '2026-05-20T09:00:00.000Z' },
      { status: 'investigating', body: 'Some checkouts fail.', createdAt: '2026-05-20T08:05:00.000Z' },
    ]);
    assert.equal(fixed?.status, 'resolved');
    assert.equal(fixed?.resolvedAt, '2026-05-20T11:00:00.000Z');
    assert.equal(watching?.status, 'monitoring');
    assert.deepEqual(
      watching?.updates.map((u) => [u.status, u.body]),
      [
        ['monitoring', 'Mitigated; watching.'],
        ['investigating', 'Dashboards load slowly.'],
      ],
    );
    // The newest update decides the incident's status even where `status` lags behind.
    const lagging = parse(
      '/api/v1/incidents',
      page([
        {
          id: 33,
          name: 'x',
          status: 1,
          message: 'Opened.',
          occurred_at: '2026-05-22 08:00:00',
          updates: [
            { status: 4, message: 'Closed.', created_at: '2026-05-22 09:00:00' },
            { status: 2, message: 'Found.', created_at: '2026-05-22 08:30:00' },
          ],
        },
      ]),
    );
    assert.equal(lagging.incidents?.[0]?.status, 'resolved');
    assert.deepEqual(
      lagging.incidents?.[0]?.updates.map((u) => u.sourceStatus ?? null),
      ['fixed', 'identified', null],
    );
  });

  test('3.x: updates embedded as JSON:API items are read the same way', () => {
    const s = parse('/api/incidents', {
      data: [
        {
          id: '40',
          type: 'incidents',
          attributes: {
            name: 'Queue delays',
            status: { human: 'Watching', value: 3 },
            message: 'Queues are slow.',
            occurred_at: '2026-05-30T08:00:00Z',
            updates: [
              {
                id: '7',
                type: 'incidentUpdates',
                attributes: { status: { human: 'Watching', value: 3 }, message: 'Draining.', created_at: '2026-05-30T08:40:00Z' },
              },
            ],
          },
        },
      ],
    });
    assert.deepEqual(
      s.incidents?.[0]?.updates.map((u) => [u.status, u.sourceStatus ?? null, u.createdAt]),
      [
        ['monitoring', 'watching', '2026-05-30T08:40:00.000Z'],
        ['investigating', null, '2026-05-30T08:00:00.000Z'],
      ],
    );
  });

  test('a malformed update names its path', () => {
    assert.throws(
      () => parse('/api/v1/incidents', page([{ id: 5, name: 'x', status: 1, occurred_at: '2026-05-22 08:00:00', updates: [{ status: true }] }])),
      /cachet: incident 5 updates: invalid payload at \/0\/status/,
    );
  });

  test('2.x components and schedules', () => {
    const c = parse(
      '/api/v1/components',
      page([
        { id: 1, name: 'API', status: 1, enabled: true },
        { id: 2, name: 'Website', status: 3, enabled: true },
        { id: 3, name: 'Hidden', status: 4, enabled: false },
      ]),
    );
    assert.deepEqual(
      c.components?.map((x) => [x.name, x.status]),
      [
        ['API', 'operational'],
        ['Website', 'partial_outage'],
      ],
    );
    assert.equal(c.status?.indicator, 'partial_outage');
    const m = parse(
      '/api/v1/schedules',
      page([{ id: 4, name: 'DB upgrade', message: 'Short downtime', status: 1, scheduled_at: '2026-05-31 23:00:00', completed_at: null }]),
    );
    assert.deepEqual(
      m.maintenances?.map((x) => [x.id, x.status, x.startedAt]),
      [['acme:schedule-4', 'in_progress', '2026-05-31T23:00:00.000Z']],
    );
  });

  test('2.x system status', () => {
    assert.deepEqual(parse('/api/v1/status', { data: { status: 'danger', message: 'Some systems are down' } }).status, {
      indicator: 'major_outage',
      description: 'Some systems are down',
    });
  });

  test('3.x JSON:API items with {human, value} statuses', () => {
    const s = parse('/api/incidents', {
      data: [
        {
          id: '21',
          type: 'incidents',
          attributes: {
            name: 'Queue delays',
            status: { human: 'Fixed', value: 4 },
            message: 'Resolved.',
            occurred_at: '2026-05-30T08:00:00Z',
            updated_at: '2026-05-30T09:00:00Z',
          },
        },
      ],
      links: {},
      meta: {},
    });
    assert.deepEqual(
      s.incidents?.map((i) => [i.id, i.status, i.resolvedAt]),
      [['acme:21', 'resolved', '2026-05-30T09:00:00.000Z']],
    );
  });

  test('an unknown path or a wrong shape is refused', () => {
    assert.throws(() => parse('/api/v1/metrics', page([])), /cachet: cannot tell what \/api\/v1\/metrics returns/);
    assert.throws(() => parse('/api/v1/incidents', { data: [{ name: 'no id' }] }), /cachet: invalid payload at \/0\/id/);
  });
});
