import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { detectPlatform } from '../../../../src/domain/platform-detect.ts';
import { AdapterError } from '../../../../src/ingest/adapters/adapter.ts';
import { statuspalAdapter } from '../../../../src/ingest/adapters/statuspal.ts';
import { input, repoRoot } from './helpers.ts';

// Statuspal's public summary (docs/mappings.md "Statuspal"). No recorded payload exists; the
// fixture was written by hand from the documented format (test/fixtures/documented/README.md).
const URL_ = 'https://statuspal.io/api/v2/status_pages/example-cloud/summary';
const documented = readFileSync(path.join(repoRoot, 'test/fixtures/documented/statuspal/summary.json'));
const parse = (body: Buffer | string) => statuspalAdapter.parse(input('example', URL_, body, new Date('2026-07-30T10:00:00Z')));

describe('statuspal summary (written from the documented format)', () => {
  test('page status, services with their children, open incidents, maintenances under way and upcoming', () => {
    assert.equal(detectPlatform(documented), 'statuspal');
    const s = parse(documented);
    assert.deepEqual(s.status, { indicator: 'major_outage', description: s.status!.description });
    assert.deepEqual(
      s.components!.map((c) => [c.id, c.name, c.status, c.group, c.position]),
      [
        ['101', 'API', 'major_outage', null, 0],
        ['102', 'REST API', 'major_outage', 'API', 1],
        ['103', 'Webhooks', 'operational', 'API', 2],
        ['104', 'Dashboard', 'degraded_performance', null, 3],
        ['105', 'Database', 'under_maintenance', null, 4],
      ],
    );
    assert.equal(s.incidentsAreCompleteUnresolvedSet, true);
    assert.equal(s.maintenancesAreCompleteOpenSet, true);
    const [api, dash] = s.incidents!;
    assert.equal(api!.id, 'example:9001');
    assert.deepEqual(
      [api!.status, api!.impact, api!.startedAt, api!.updatedAt, api!.resolvedAt],
      ['investigating', 'major', '2026-07-30T09:12:00.000Z', '2026-07-30T09:40:00.000Z', null],
    );
    assert.deepEqual(api!.components, ['REST API']);
    // Newest first, HTML made text, Statuspal's own word kept beside the phase.
    assert.deepEqual(api!.updates, [
      { status: 'investigating', sourceStatus: 'update', body: 'A fix is being deployed.', createdAt: '2026-07-30T09:40:00.000Z' },
      { status: 'investigating', sourceStatus: 'issue', body: 'We are investigating elevated error rates.', createdAt: '2026-07-30T09:14:00.000Z' },
    ]);
    assert.deepEqual([dash!.impact, dash!.components, dash!.updates.length], ['minor', ['Dashboard'], 0]);
    const [db, net] = s.maintenances!;
    assert.deepEqual(
      [db!.status, db!.scheduledFor, db!.scheduledUntil, db!.startedAt, db!.components],
      ['in_progress', '2026-07-30T06:00:00.000Z', '2026-07-30T12:00:00.000Z', '2026-07-30T06:00:00.000Z', ['Database']],
    );
    // An id the services list does not know names nothing.
    assert.deepEqual([net!.status, net!.startedAt, net!.components], ['scheduled', null, ['API']]);
  });

  test('an update of type resolved or an end time resolves the incident', () => {
    const body = {
      status_page: { name: 'x', current_incident_type: null },
      services: [],
      incidents: [
        {
          id: 1,
          title: 'a',
          type: 'minor',
          starts_at: '2026-07-30T09:00:00',
          updates: [{ type: 'resolved', description: 'Fixed.', inserted_at: '2026-07-30T09:30:00' }],
        },
        { id: 2, title: 'b', type: 'major', starts_at: '2026-07-30T09:00:00Z', ends_at: '2026-07-30T09:45:00Z' },
      ],
    };
    const s = parse(JSON.stringify(body));
    assert.deepEqual(s.status!.indicator, 'operational');
    assert.deepEqual(
      s.incidents!.map((i) => [i.status, i.resolvedAt]),
      [
        ['resolved', '2026-07-30T09:30:00.000Z'],
        ['resolved', '2026-07-30T09:45:00.000Z'],
      ],
    );
  });

  test('hostile input: malformed, wrong shapes, missing fields, huge and control characters never crash', () => {
    for (const body of [
      '',
      'not json',
      '[]',
      '{"status_page": 1}',
      '{"status_page": {}, "incidents": [{"id": 1}]}',
      '{"status_page": {}, "incidents": [{"id": 1, "title": "x"}]}',
      '{"status_page": {}, "services": [{"name": "no id"}]}',
    ]) {
      assert.throws(() => parse(body), AdapterError, body);
    }
    // Deeply nested children stop at a bounded depth; a service listed twice appears once.
    let nested: Record<string, unknown> = { id: 'leaf', name: 'Leaf' };
    for (let i = 0; i < 50; i++) nested = { id: `n${i}`, name: `N${i}`, children: [nested] };
    const deep = parse(JSON.stringify({ status_page: {}, services: [nested, { id: 'n49', name: 'again' }] }));
    assert.ok(deep.components!.length <= 10);
    assert.equal(deep.components!.filter((c) => c.id === 'n49').length, 1);
    const ctrl = parse(
      JSON.stringify({
        status_page: {},
        services: [{ id: 1, name: 'A\u0000\u0007PI' }],
        incidents: [{ id: 7, title: 'x\u0000', starts_at: '2026-07-30T09:00:00', updates: [{ type: 'issue', description: 'y'.repeat(500_000) }] }],
      }),
    );
    assert.equal(ctrl.incidents!.length, 1);
    assert.equal(ctrl.incidents![0]!.updates[0]!.createdAt, '2026-07-30T09:00:00.000Z', 'an update without a time takes the start');
  });
});
