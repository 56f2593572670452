// Heroku status API v4 current-status, on payloads written for this test in the shape
// the Heroku CLI's types document (docs/mappings.md "Heroku").
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseSource } from '../../../../src/ingest/adapters/index.ts';

const parse = (body: unknown) =>
  parseSource('heroku-status', {
    vendor: 'heroku',
    url: 'https://status.heroku.com/api/v4/current-status',
    body: Buffer.from(JSON.stringify(body)),
    now: new Date('2026-06-01T00:00:00Z'),
  });

describe('heroku-status', () => {
  test('all green: operational, three systems, no incidents', () => {
    const s = parse({
      status: [
        { system: 'Apps', status: 'green' },
        { system: 'Data', status: 'green' },
        { system: 'Tools', status: 'green' },
      ],
      incidents: [],
      scheduled: [],
    });
    assert.deepEqual(s.status, { indicator: 'operational', description: 'All Systems Operational' });
    assert.deepEqual(
      s.components?.map((c) => `${c.name}:${c.status}`),
      ['Apps:operational', 'Data:operational', 'Tools:operational'],
    );
    assert.deepEqual(s.incidents, []);
    assert.equal(s.incidentsAreCompleteUnresolvedSet, true);
  });

  test('a red system with an open incident; the id comes from full_url', () => {
    const s = parse({
      status: [
        { system: 'Apps', status: 'red' },
        { system: 'Data', status: 'yellow' },
        { system: 'Tools', status: 'green' },
      ],
      incidents: [
        {
          title: 'Increased error rates for Apps in the EU',
          created_at: '2026-05-30T09:00:00Z',
          full_url: 'https://status.heroku.com/incidents/2871',
          updates: [
            { update_type: 'issue', updated_at: '2026-05-30T09:00:00Z', contents: 'We are investigating.' },
            { update_type: 'monitoring', updated_at: '2026-05-30T09:45:00Z', contents: 'A fix has been applied.' },
          ],
        },
      ],
      scheduled: [{ anything: true }],
    });
    assert.equal(s.status?.indicator, 'partial_outage');
    assert.deepEqual(s.incidents, [
      {
        id: 'heroku:2871',
        vendor: 'heroku',
        title: 'Increased error rates for Apps in the EU',
        status: 'monitoring',
        sourceStatus: 'monitoring',
        impact: 'major',
        startedAt: '2026-05-30T09:00:00.000Z',
        updatedAt: '2026-05-30T09:45:00.000Z',
        resolvedAt: null,
        components: [],
        updates: [
          { status: 'monitoring', sourceStatus: 'monitoring', body: 'A fix has been applied.', createdAt: '2026-05-30T09:45:00.000Z' },
          { status: 'investigating', sourceStatus: 'issue', body: 'We are investigating.', createdAt: '2026-05-30T09:00:00.000Z' },
        ],
        url: 'https://status.heroku.com/incidents/2871',
        source: 'heroku-status',
      },
    ]);
  });

  test('a resolved last update resolves the incident; every system red is a major outage', () => {
    const s = parse({
      status: [
        { system: 'Apps', status: 'red' },
        { system: 'Data', status: 'red' },
        { system: 'Tools', status: 'red' },
      ],
      incidents: [
        {
          title: 'x',
          created_at: '2026-05-30T09:00:00Z',
          full_url: 'https://status.heroku.com/incidents/7/',
          updates: [{ update_type: 'resolved', updated_at: '2026-05-30T10:00:00Z', contents: 'Done' }],
        },
      ],
    });
    assert.equal(s.status?.indicator, 'major_outage');
    assert.equal(s.incidents?.[0]?.id, 'heroku:7');
    assert.equal(s.incidents?.[0]?.status, 'resolved');
    assert.equal(s.incidents?.[0]?.resolvedAt, '2026-05-30T10:00:00.000Z');
  });

  test('a payload without the status list is refused', () => {
    assert.throws(() => parse({ incidents: [] }), /heroku-status: invalid payload at \/status/);
  });
});
