import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { instatusAdapter, instatusImpact, instatusIndicator } from '../../../../src/ingest/adapters/instatus.ts';
import { input, parseFixture } from './helpers.ts';

describe('instatus summary.json', () => {
  test('Perplexity 2026-07-23: one major, monitoring incident; no maintenances key', (t) => {
    const s = parseFixture(t, 'instatus/perplexity/2026-07-23/summary.json');
    if (!s) return;
    // ONEMAJOROUTAGE: a single component is down, which is a partial outage of the page.
    assert.deepEqual(s.status, { indicator: 'partial_outage', description: 'Partial System Outage' });
    assert.deepEqual(s.incidents, [
      {
        id: 'perplexity:cmrxt1rlu000f0zlcv4dzmdlr',
        vendor: 'perplexity',
        title: 'Computer sandbox issues',
        status: 'monitoring',
        sourceStatus: 'MONITORING',
        impact: 'major',
        startedAt: '2026-07-23T17:48:28.028Z',
        updatedAt: '2026-07-23T17:50:11.838Z',
        resolvedAt: null,
        components: [],
        updates: [],
        url: 'https://status.perplexity.com/cmrxt1rlu000f0zlcv4dzmdlr',
        source: 'instatus',
      },
    ]);
    assert.deepEqual(s.maintenances, []);
    assert.equal(s.incidentsAreCompleteUnresolvedSet, true);
    assert.equal(s.components, undefined);
  });

  test('page status and impact words', () => {
    assert.equal(instatusIndicator('UP'), 'operational');
    assert.equal(instatusIndicator('HASISSUES'), 'degraded');
    assert.equal(instatusIndicator('UNDERMAINTENANCE'), 'maintenance');
    assert.equal(instatusIndicator('MAJOROUTAGE'), 'major_outage');
    assert.equal(instatusIndicator('ONEMAJOROUTAGE'), 'partial_outage');
    assert.equal(instatusIndicator('PARTIALOUTAGE'), 'partial_outage');
    assert.equal(instatusIndicator('MINOROUTAGE'), 'degraded');
    assert.equal(instatusIndicator('DEGRADEDPERFORMANCE'), 'degraded');
    assert.equal(instatusIndicator('SOMETHINGNEW'), 'unknown');
    assert.equal(instatusImpact('MINOROUTAGE'), 'minor');
    assert.equal(instatusImpact('DEGRADEDPERFORMANCE'), 'minor');
    assert.equal(instatusImpact('PARTIALOUTAGE'), 'major');
    assert.equal(instatusImpact('MAJOROUTAGE'), 'major');
    assert.equal(instatusImpact('OPERATIONAL'), 'none');
  });

  test('maintenances: duration in minutes gives the end; id falls back to the url', () => {
    const body = {
      page: { name: 'Example', url: 'https://status.example.test', status: 'UNDERMAINTENANCE' },
      activeIncidents: [],
      activeMaintenances: [
        { name: 'Database upgrade', start: '2026-05-01T22:00:00.000Z', status: 'INPROGRESS', duration: '90', url: 'https://status.example.test/m1abc' },
        { id: 'm2', name: 'Edge refresh', start: '2026-05-08T22:00:00.000Z', status: 'NOTSTARTEDYET', duration: null, url: null },
      ],
    };
    const s = instatusAdapter.parse(input('example', 'https://status.example.test/summary.json', JSON.stringify(body)));
    assert.equal(s.status!.indicator, 'maintenance');
    assert.deepEqual(
      s.maintenances!.map((m) => [m.id, m.status, m.scheduledFor, m.scheduledUntil, m.startedAt]),
      [
        ['example:m1abc', 'in_progress', '2026-05-01T22:00:00.000Z', '2026-05-01T23:30:00.000Z', '2026-05-01T22:00:00.000Z'],
        ['example:m2', 'scheduled', '2026-05-08T22:00:00.000Z', null, null],
      ],
    );
  });
});
