import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { gcpAdapter, gcpImpact } from '../../../../src/ingest/adapters/gcp.ts';
import { countBy, input, parseFixture } from './helpers.ts';

describe('gcp incidents.json', () => {
  test('21 closed incidents (trimmed history), impacts from status_impact', (t) => {
    const s = parseFixture(t, 'gcp/incidents-2022-07-03.json');
    if (!s) return;
    const incidents = s.incidents!;
    assert.equal(incidents.length, 21);
    assert.deepEqual(
      countBy(incidents, (i) => i.status),
      { resolved: 21 },
    );
    assert.deepEqual(
      countBy(incidents, (i) => i.impact),
      { minor: 12, major: 7, critical: 2 },
    );
    assert.equal(
      incidents.reduce((n, i) => n + i.updates.length, 0),
      114,
    );
    assert.equal(s.incidentsAreCompleteUnresolvedSet, undefined, 'incidents.json is a history');

    const first = incidents[0]!;
    assert.equal(first.id, 'gcp:TaA75H7XA1DQyM2ReK2f');
    assert.equal(first.title, '[Google BigQuery] Lower throughput from the Read API');
    assert.equal(first.sourceStatus, 'AVAILABLE');
    assert.equal(first.startedAt, '2022-07-01T13:37:44.000Z');
    assert.equal(first.updatedAt, '2022-07-01T19:25:45.000Z');
    assert.equal(first.resolvedAt, '2022-07-01T19:25:45.000Z');
    // One component per product and location: the incident lists 29 locations of BigQuery.
    assert.equal(first.components.length, 29);
    assert.equal(first.components[0], 'Google BigQuery (asia-east1)');
    assert.ok(first.components.includes('Google BigQuery (us-central1)'));
    assert.equal(first.url, 'https://status.cloud.google.com/incidents/TaA75H7XA1DQyM2ReK2f');
    assert.equal(first.updates.length, 5);
    assert.equal(first.updates[0]!.status, 'resolved');
    assert.equal(first.updates[0]!.createdAt, '2022-07-01T19:25:45.000Z');
    assert.match(first.updates[0]!.body, /^The issue with Google BigQuery has been resolved .+\. We thank you/, 'newline collapsed');

    const outage = incidents.find((i) => i.id === 'gcp:iAgVMxJUfE1J9et7j9KB')!;
    assert.equal(outage.impact, 'critical');
    assert.equal(outage.title, 'Google Cloud Networking packet loss issue');
    assert.equal(outage.components.length, 24, '4 products in 6 locations');
    assert.ok(outage.components.includes('Cloud NAT (europe-north1)'));
    assert.equal(outage.resolvedAt, '2022-06-16T09:44:00.000Z');
  });

  test('an incident without end is open; one with end is over whatever its last update says', () => {
    const open = [
      {
        id: 'a1',
        begin: '2026-01-05T10:00:00+00:00',
        external_desc: 'Elevated latency',
        status_impact: 'SERVICE_DISRUPTION',
        severity: 'medium',
        updates: [{ when: '2026-01-05T10:05:00+00:00', text: 'Looking into it.', status: 'SERVICE_DISRUPTION' }],
        most_recent_update: { status: 'SERVICE_DISRUPTION' },
      },
      {
        id: 'a2',
        begin: '2026-01-04T10:00:00+00:00',
        end: '2026-01-04T12:00:00+00:00',
        external_desc: 'Closed, last update not AVAILABLE',
        severity: 'high',
        most_recent_update: { status: 'SERVICE_OUTAGE' },
      },
    ];
    const s = gcpAdapter.parse(input('gcp', 'https://status.cloud.google.com/incidents.json', JSON.stringify(open)));
    assert.deepEqual(
      s.incidents!.map((i) => [i.status, i.impact, i.resolvedAt]),
      [
        ['investigating', 'major', null],
        ['resolved', 'critical', '2026-01-04T12:00:00.000Z'],
      ],
    );
  });

  test('impact falls back to severity when status_impact is absent', () => {
    assert.equal(gcpImpact(undefined, 'low'), 'minor');
    assert.equal(gcpImpact(null, 'medium'), 'major');
    assert.equal(gcpImpact(null, 'high'), 'critical');
    assert.equal(gcpImpact('SERVICE_OUTAGE', 'low'), 'critical');
  });
});
