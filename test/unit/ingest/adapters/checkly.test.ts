import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { checklyImpact } from '../../../../src/ingest/adapters/checkly.ts';
import { parseFixture } from './helpers.ts';

describe('checkly unresolved-incidents', () => {
  test('Mistral 2026-07-27: one MEDIUM incident under investigation', (t) => {
    const s = parseFixture(t, 'checkly/mistral/2026-07-27/unresolved-incidents.json');
    if (!s) return;
    assert.equal(s.incidentsAreCompleteUnresolvedSet, true);
    assert.deepEqual(s.incidents, [
      {
        id: 'mistral:b3e1006c-c3a7-4b1b-8628-3e364b2e3c71',
        vendor: 'mistral',
        title: 'Audio API Degraded',
        status: 'investigating',
        sourceStatus: 'INVESTIGATING',
        impact: 'minor',
        startedAt: '2026-07-27T14:32:53.607Z',
        updatedAt: '2026-07-27T14:32:53.632Z',
        resolvedAt: null,
        components: ['Audio API'],
        updates: s.incidents![0]!.updates,
        url: null,
        source: 'checkly',
      },
    ]);
  });

  test('Mistral 2026-07-27: the single update', (t) => {
    const s = parseFixture(t, 'checkly/mistral/2026-07-27/unresolved-incidents.json');
    if (!s) return;
    const [u] = s.incidents![0]!.updates;
    assert.equal(s.incidents![0]!.updates.length, 1);
    assert.equal(u!.status, 'investigating');
    assert.equal(u!.createdAt, '2026-07-27T14:32:53.607Z', 'the public date, not the entry time');
    assert.ok(u!.body.startsWith('Requests to the Audio API'));
  });

  test('severity words', () => {
    assert.deepEqual(['MINOR', 'MEDIUM', 'MAJOR', 'CRITICAL'].map(checklyImpact), ['minor', 'minor', 'major', 'critical']);
  });
});
