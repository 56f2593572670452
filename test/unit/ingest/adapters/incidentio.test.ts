// incident.io: the recorded Statuspage-compatible summaries, and the /proxy widget
// shape on a payload written for this test (no widget payload has been recorded).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { AdapterError } from '../../../../src/ingest/adapters/adapter.ts';
import { incidentioAdapter } from '../../../../src/ingest/adapters/incidentio.ts';
import { assertSnapshotInvariants, countBy, input, parseFixture } from './helpers.ts';

describe('incident.io Statuspage-compatible summary', () => {
  test('Cohere 2026-07-23: ULID ids, incident page link built from the page url', (t) => {
    const s = parseFixture(t, 'incidentio/cohere/2026-07-23/api-v2-summary.json');
    if (!s) return;
    assert.deepEqual(s.status, { indicator: 'partial_outage', description: 'Partial System Outage' });
    assert.equal(s.components!.length, 24);
    assert.deepEqual(
      countBy(s.components!, (c) => c.status),
      { operational: 23, partial_outage: 1 },
    );
    assert.equal(s.incidents!.length, 1);
    const i = s.incidents![0]!;
    assert.equal(i.id, 'cohere:01KY8K3GWWJTSJTRC17GHEH08Z');
    assert.equal(i.title, 'Dashboard Login Service Disruption');
    assert.equal(i.status, 'investigating');
    assert.equal(i.impact, 'major');
    assert.equal(i.startedAt, '2026-07-23T22:56:25.000Z');
    assert.equal(i.url, 'https://status.cohere.com/incidents/01KY8K3GWWJTSJTRC17GHEH08Z');
    assert.equal(i.source, 'incidentio');
    assert.equal(i.updates.length, 1);
    assert.ok(i.updates[0]!.body.startsWith('🔎 We are currently investigating'));
    // The shim has no scheduled_maintenances key: the snapshot says nothing about maintenance.
    assert.equal(s.maintenances, undefined);
    assert.equal(s.incidentsAreCompleteUnresolvedSet, true);
  });

  test('OpenAI 2026-07-22: degraded page, all components operational', (t) => {
    const s = parseFixture(t, 'incidentio/openai/2026-07-22/api-v2-summary.json');
    if (!s) return;
    assert.deepEqual(s.status, { indicator: 'degraded', description: 'Partial System Degradation' });
    assert.equal(s.components!.length, 25);
    assert.ok(s.components!.every((c) => c.status === 'operational' && c.group === null));
    assert.equal(s.components![0]!.name, 'Codex in ChatGPT Desktop');
    assert.deepEqual(
      s.incidents!.map((i) => [i.id, i.status, i.impact, i.startedAt]),
      [['openai:01KY54SWGRK806N6TJ495MYPDD', 'investigating', 'minor', '2026-07-22T14:48:46.000Z']],
    );
  });
});

/** A widget payload in the documented /proxy/<host> layout, with invented content. */
const widget = {
  summary: {
    id: '01TESTPAGE',
    name: 'Example Cloud',
    public_url: 'https://status.example.test',
    components: [
      { id: 'c-api', name: 'API' },
      { id: 'c-web', name: 'Dashboard' },
      { id: 'c-eu', name: 'Frankfurt' },
      { id: 'c-us', name: 'Virginia' },
    ],
    affected_components: [
      { component_id: 'c-api', status: 'partial_outage' },
      { component_id: 'c-eu', status: 'under_maintenance' },
    ],
    structure: {
      items: [
        { component: { component_id: 'c-api', name: 'API' } },
        {
          group: {
            id: 'g-regions',
            name: 'Regions',
            components: [
              { component_id: 'c-eu', name: 'Frankfurt' },
              { component_id: 'c-us', name: 'Virginia' },
            ],
          },
        },
        { component: { component_id: 'c-web', name: 'Dashboard', hidden: true } },
      ],
    },
    ongoing_incidents: [
      {
        id: '01INC1',
        name: 'Slow API responses',
        status: 'identified',
        published_at: '2026-03-02T10:00:00Z',
        affected_components: [{ component_id: 'c-api' }],
        component_impacts: [{ component_id: 'c-api', status: 'partial_outage', start_at: '2026-03-02T10:00:00Z' }],
        updates: [
          {
            id: 'u1',
            published_at: '2026-03-02T10:00:00Z',
            message: {
              text_node: {
                type: 'doc',
                content: [
                  {
                    type: 'paragraph',
                    content: [
                      { type: 'text', text: 'We are looking into ' },
                      { type: 'text', text: 'slow responses.' },
                    ],
                  },
                ],
              },
            },
          },
          {
            id: 'u2',
            published_at: '2026-03-02T10:30:00Z',
            status: 'identified',
            message: {
              text_node: {
                type: 'doc',
                content: [
                  { type: 'paragraph', content: [{ type: 'text', text: 'Cause found.' }] },
                  { type: 'paragraph', content: [{ type: 'text', text: 'Rolling back.' }] },
                ],
              },
            },
          },
        ],
      },
    ],
    in_progress_maintenances: [
      {
        id: '01MNT1',
        name: 'Frankfurt storage upgrade',
        status: 'maintenance_in_progress',
        started_at: '2026-03-02T09:00:00Z',
        scheduled_end_at: '2026-03-02T12:00:00Z',
        affected_components: [{ component_id: 'c-eu' }],
      },
    ],
    scheduled_maintenances: [
      {
        id: '01MNT2',
        name: 'Virginia network work',
        status: 'maintenance_scheduled',
        starts_at: '2026-03-09T01:00:00Z',
        ends_at: '2026-03-09T03:00:00Z',
        affected_components: [{ component_id: 'c-us' }],
      },
    ],
  },
};

describe('incident.io /proxy widget', () => {
  test('components follow structure order with group names; hidden ones are left out', () => {
    const s = incidentioAdapter.parse(input('example', 'https://status.example.test/proxy/status.example.test', JSON.stringify(widget)));
    assertSnapshotInvariants(s, 'example', 'incidentio');
    assert.deepEqual(s.components, [
      { id: 'c-api', name: 'API', status: 'partial_outage', group: null, position: 0 },
      { id: 'c-eu', name: 'Frankfurt', status: 'under_maintenance', group: 'Regions', position: 1 },
      { id: 'c-us', name: 'Virginia', status: 'operational', group: 'Regions', position: 2 },
    ]);
    assert.deepEqual(s.status, { indicator: 'partial_outage', description: 'Partial System Outage' });
    assert.equal(s.incidentsAreCompleteUnresolvedSet, true);
  });

  test('ongoing incidents: status, impact from component impacts, rich-text updates', () => {
    const s = incidentioAdapter.parse(input('example', 'https://status.example.test/proxy/status.example.test', JSON.stringify(widget)));
    const [i] = s.incidents!;
    assert.equal(i!.id, 'example:01INC1');
    assert.equal(i!.status, 'investigating');
    assert.equal(i!.sourceStatus, 'identified');
    assert.equal(i!.impact, 'major');
    assert.equal(i!.startedAt, '2026-03-02T10:00:00.000Z');
    assert.equal(i!.updatedAt, '2026-03-02T10:30:00.000Z');
    assert.deepEqual(i!.components, ['API']);
    assert.equal(i!.url, 'https://status.example.test/incidents/01INC1');
    assert.deepEqual(i!.updates, [
      { status: 'investigating', sourceStatus: 'identified', body: 'Cause found. Rolling back.', createdAt: '2026-03-02T10:30:00.000Z' },
      { status: 'investigating', body: 'We are looking into slow responses.', createdAt: '2026-03-02T10:00:00.000Z' },
    ]);
  });

  test('an update without a status keeps the phase it was written in, not the current one', () => {
    const text = (t: string) => ({ text_node: { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: t }] }] } });
    const resolved = {
      summary: {
        ongoing_incidents: [
          {
            id: '01INC2',
            name: 'Webhook delays',
            status: 'resolved',
            published_at: '2026-03-04T10:00:00Z',
            // Listed newest first, as the widget does; the phase follows time, not list order.
            updates: [
              { id: 'u4', published_at: '2026-03-04T11:00:00Z', to_status: 'resolved', message: text('Resolved.') },
              { id: 'u3', published_at: '2026-03-04T10:45:00Z', message: text('Backlog half drained.') },
              { id: 'u2', published_at: '2026-03-04T10:30:00Z', to_status: 'monitoring', message: text('Fix deployed.') },
              { id: 'u1', published_at: '2026-03-04T10:00:00Z', message: text('Webhooks are delayed.') },
            ],
          },
        ],
        in_progress_maintenances: [
          {
            id: '01MNT3',
            name: 'Database failover test',
            status: 'maintenance_complete',
            started_at: '2026-03-04T01:00:00Z',
            updates: [
              { id: 'm1', published_at: '2026-03-03T12:00:00Z', message: text('Planned for tonight.') },
              { id: 'm2', published_at: '2026-03-04T01:00:00Z', to_status: 'maintenance_in_progress', message: text('Started.') },
              { id: 'm3', published_at: '2026-03-04T01:20:00Z', message: text('Primary switched.') },
              { id: 'm4', published_at: '2026-03-04T02:00:00Z', to_status: 'maintenance_complete', message: text('Done.') },
            ],
          },
        ],
      },
    };
    const s = incidentioAdapter.parse(input('example', 'https://status.example.test/proxy/status.example.test', JSON.stringify(resolved)));
    assertSnapshotInvariants(s, 'example', 'incidentio');
    assert.deepEqual(
      s.incidents![0]!.updates.map((u) => [u.body, u.status, u.sourceStatus ?? null]),
      [
        ['Resolved.', 'resolved', 'resolved'],
        ['Backlog half drained.', 'monitoring', null],
        ['Fix deployed.', 'monitoring', 'monitoring'],
        ['Webhooks are delayed.', 'investigating', null],
      ],
    );
    assert.deepEqual(
      s.maintenances![0]!.updates.map((u) => [u.body, u.status, u.sourceStatus ?? null]),
      [
        ['Done.', 'completed', 'maintenance_complete'],
        ['Primary switched.', 'in_progress', null],
        ['Started.', 'in_progress', 'maintenance_in_progress'],
        ['Planned for tonight.', 'scheduled', null],
      ],
    );
  });

  test('maintenances from both lists', () => {
    const s = incidentioAdapter.parse(input('example', 'https://status.example.test/proxy/status.example.test', JSON.stringify(widget)));
    assert.deepEqual(
      s.maintenances!.map((m) => [m.id, m.status, m.sourceStatus, m.scheduledFor, m.scheduledUntil, m.startedAt, m.components.join()]),
      [
        [
          'example:01MNT1',
          'in_progress',
          'maintenance_in_progress',
          '2026-03-02T09:00:00.000Z',
          '2026-03-02T12:00:00.000Z',
          '2026-03-02T09:00:00.000Z',
          'Frankfurt',
        ],
        ['example:01MNT2', 'scheduled', 'maintenance_scheduled', '2026-03-09T01:00:00.000Z', '2026-03-09T03:00:00.000Z', null, 'Virginia'],
      ],
    );
  });

  test('the flat public widget shape (current_worst_impact, last_update_*) is read too', () => {
    const flat = {
      page_title: 'Example Cloud',
      page_url: 'https://status.example.test',
      ongoing_incidents: [
        {
          id: '01INC9',
          name: 'Login failures',
          status: 'monitoring',
          url: 'https://status.example.test/incidents/01INC9',
          last_update_at: '2026-03-03T08:15:00Z',
          last_update_message: 'A fix is live; watching error rates.',
          current_worst_impact: 'full_outage',
          affected_components: [{ id: 'c-auth', name: 'Login', group_name: 'Core', current_status: 'full_outage' }],
        },
      ],
      in_progress_maintenances: [],
      scheduled_maintenances: [],
    };
    const s = incidentioAdapter.parse(input('example', 'https://status.example.test/api/widget', JSON.stringify(flat)));
    assertSnapshotInvariants(s, 'example', 'incidentio');
    assert.equal(s.components, undefined, 'the flat shape lists no components');
    assert.deepEqual(s.status, { indicator: 'major_outage', description: 'Major System Outage' });
    const [i] = s.incidents!;
    assert.equal(i!.status, 'monitoring');
    assert.equal(i!.impact, 'critical');
    assert.equal(i!.startedAt, '2026-03-03T08:15:00.000Z');
    assert.deepEqual(i!.components, ['Login']);
    assert.deepEqual(i!.updates, [
      { status: 'monitoring', sourceStatus: 'monitoring', body: 'A fix is live; watching error rates.', createdAt: '2026-03-03T08:15:00.000Z' },
    ]);
  });

  test('unrecognised JSON and an incident without a date are AdapterErrors', () => {
    assert.throws(
      () => incidentioAdapter.parse(input('x', 'https://s/proxy/s', '{"hello":"world"}')),
      (e: unknown) => e instanceof AdapterError && /unrecognised payload/.test(e.message),
    );
    const broken = { summary: { ongoing_incidents: [{ id: 'a', name: 'b', status: 'investigating' }] } };
    assert.throws(
      () => incidentioAdapter.parse(input('x', 'https://s/proxy/s', JSON.stringify(broken))),
      (e: unknown) => e instanceof AdapterError && /incident a published_at/.test(e.message),
    );
    const wrong = { summary: { ongoing_incidents: [{ id: 7, name: 'b' }] } };
    assert.throws(
      () => incidentioAdapter.parse(input('x', 'https://s/proxy/s', JSON.stringify(wrong))),
      (e: unknown) => e instanceof AdapterError && /\/ongoing_incidents\/0\/id/.test(e.message),
    );
  });
});
