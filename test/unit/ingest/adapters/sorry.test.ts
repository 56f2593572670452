// sorry™ status page API, on payloads written for this test in the documented shape
// (docs/mappings.md "sorry™").
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseSource } from '../../../../src/ingest/adapters/index.ts';

const parse = (path: string, body: unknown) =>
  parseSource('sorry', {
    vendor: 'postmark',
    url: `https://status.postmarkapp.com${path}`,
    body: Buffer.from(JSON.stringify(body)),
    now: new Date('2026-06-01T00:00:00Z'),
  });

describe('sorry', () => {
  test('/api/v1/status: the page state', () => {
    const s = parse('/api/v1/status', {
      page: {
        name: 'Postmark',
        state: 'degraded',
        state_text: 'Some systems are degraded',
        updated_at: '2026-05-31T10:00:00Z',
        links: { components: 'x', notices: 'y' },
      },
    });
    assert.deepEqual(s.status, { indicator: 'degraded', description: 'Some systems are degraded' });
    assert.equal(parse('/api/v1/', { page: { state: 'operational' } }).status?.indicator, 'operational');
    assert.equal(parse('/api/v1/', { page: { state: 'maintenance' } }).status?.indicator, 'maintenance');
  });

  test('/api/v1/notices: unplanned notices are incidents, planned ones maintenance', () => {
    const s = parse('/api/v1/notices', {
      notices: [
        {
          id: 'n1',
          type: 'unplanned',
          state: 'recovering',
          subject: 'Delayed outbound sending',
          url: 'https://status.postmarkapp.com/notices/n1',
          began_at: '2026-05-31T10:00:00Z',
          updated_at: '2026-05-31T11:00:00Z',
          timeline_state: 'present',
          latest_update: { content: '<p>Queues are draining.</p>', created_at: '2026-05-31T11:00:00Z' },
        },
        {
          id: 'n2',
          type: 'unplanned',
          state: 'false_alarm',
          subject: 'Not an issue',
          began_at: '2026-05-30T10:00:00Z',
          ended_at: '2026-05-30T10:20:00Z',
          updated_at: '2026-05-30T10:20:00Z',
        },
        {
          id: 'n3',
          type: 'planned',
          state: 'scheduled',
          subject: 'Network maintenance',
          begins_at: '2026-06-03T01:00:00Z',
          ends_at: '2026-06-03T02:00:00Z',
          updated_at: '2026-05-29T09:00:00Z',
        },
        {
          id: 'n4',
          type: 'planned',
          state: 'underway',
          subject: 'DB failover',
          began_at: '2026-05-31T23:00:00Z',
          begins_at: '2026-05-31T23:00:00Z',
          ends_at: '2026-06-01T01:00:00Z',
          updated_at: '2026-05-31T23:00:00Z',
        },
      ],
      meta: { next_page: null },
    });
    assert.deepEqual(s.incidents?.[0], {
      id: 'postmark:n1',
      vendor: 'postmark',
      title: 'Delayed outbound sending',
      status: 'monitoring',
      sourceStatus: 'recovering',
      impact: 'minor',
      startedAt: '2026-05-31T10:00:00.000Z',
      updatedAt: '2026-05-31T11:00:00.000Z',
      resolvedAt: null,
      components: [],
      updates: [{ status: 'monitoring', body: 'Queues are draining.', createdAt: '2026-05-31T11:00:00.000Z' }],
      url: 'https://status.postmarkapp.com/notices/n1',
      source: 'sorry',
    });
    assert.equal(s.incidents?.[1]?.status, 'resolved');
    assert.equal(s.incidents?.[1]?.impact, 'none');
    assert.equal(s.incidents?.[1]?.resolvedAt, '2026-05-30T10:20:00.000Z');
    assert.deepEqual(
      s.maintenances?.map((m) => [m.id, m.status, m.scheduledFor, m.scheduledUntil]),
      [
        ['postmark:n3', 'scheduled', '2026-06-03T01:00:00.000Z', '2026-06-03T02:00:00.000Z'],
        ['postmark:n4', 'in_progress', '2026-05-31T23:00:00.000Z', '2026-06-01T01:00:00.000Z'],
      ],
    );
  });

  test('/api/v1/components: states, parents become groups', () => {
    const s = parse('/api/v1/components', {
      components: [
        { id: 'p', name: 'Sending', state: 'partially-degraded', parent_id: null },
        { id: 'a', name: 'SMTP', state: 'degraded', parent_id: 'p' },
        { id: 'b', name: 'API', state: 'operational', parent_id: 'p' },
        { id: 'c', name: 'Web app', state: 'operational', parent_id: null },
      ],
      meta: { next_page: null },
    });
    assert.deepEqual(
      s.components?.map((c) => [c.name, c.status, c.group]),
      [
        ['SMTP', 'partial_outage', 'Sending'],
        ['API', 'operational', 'Sending'],
        ['Web app', 'operational', null],
      ],
    );
  });

  test('anything else is refused and says what arrived', () => {
    assert.throws(() => parse('/api/v1/notices', { data: [] }), /sorry: not a sorry™ page payload .*got keys data/);
    assert.throws(() => parse('/api/v1/notices', { notices: [{ id: 'x', type: 'planned' }] }), /\/notices\/0\/state/);
  });
});
