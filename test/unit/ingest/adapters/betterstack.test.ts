import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { betterstackAdapter } from '../../../../src/ingest/adapters/betterstack.ts';
import { fixture, input, parseFixture } from './helpers.ts';

const FILE = 'betterstack/huggingface/2026-07-19/index.json';

describe('betterstack index.json', () => {
  test('Hugging Face 2026-07-19: sections become groups, one resource down', (t) => {
    const s = parseFixture(t, FILE, new Date('2026-07-19T13:15:53Z'));
    if (!s) return;
    // aggregate_state "downtime" with 7 of 8 resources up is a partial outage.
    assert.deepEqual(s.status, { indicator: 'partial_outage', description: 'Partial System Outage' });
    assert.deepEqual(
      s.components!.map((c) => [c.name, c.status, c.group]),
      [
        ['Huggingface Hub', 'operational', 'Current status by service'],
        ['Git Hosting and Serving', 'operational', 'Current status by service'],
        ['Inference Endpoints UI', 'operational', 'Inference Endpoints'],
        ['Inference Endpoints API', 'operational', 'Inference Endpoints'],
        ['Spaces Proxy', 'major_outage', 'Spaces'],
        ['AWS CDN', 'operational', 'CDN'],
        ['Google cloud CDN', 'operational', 'CDN'],
        ['Jobs', 'operational', 'Jobs'],
      ],
    );
    assert.equal(s.components![4]!.id, '306621');
  });

  test('status reports: 3 manual reports are incidents, 2 maintenance reports are maintenances', (t) => {
    const s = parseFixture(t, FILE, new Date('2026-07-19T13:15:53Z'));
    if (!s) return;
    assert.deepEqual(
      s.incidents!.map((i) => [i.id, i.status, i.impact, i.startedAt, i.resolvedAt, i.updates.length]),
      [
        ['huggingface:919822', 'resolved', 'minor', '2026-06-10T07:00:00.000Z', '2026-06-10T10:50:00.000Z', 2],
        ['huggingface:939240', 'resolved', 'minor', '2026-06-30T07:58:00.000Z', '2026-06-30T08:05:00.000Z', 2],
        ['huggingface:965809', 'resolved', 'major', '2026-07-16T08:30:00.000Z', '2026-07-16T10:07:00.000Z', 3],
      ],
    );
    const hub = s.incidents![2]!;
    assert.equal(hub.title, 'Hub unavailable');
    assert.deepEqual(hub.components, ['Huggingface Hub', 'Git Hosting and Serving', 'Inference Endpoints UI']);
    assert.deepEqual(
      hub.updates.map((u) => [u.status, u.createdAt]),
      [
        ['resolved', '2026-07-16T10:07:00.000Z'],
        ['investigating', '2026-07-16T08:43:00.000Z'],
        ['investigating', '2026-07-16T08:30:00.000Z'],
      ],
    );
    // Two paragraphs upstream, one line of plain text here.
    assert.match(hub.updates[0]!.body, /^Services are back to nominal operations\. Root cause/);

    assert.deepEqual(
      s.maintenances!.map((m) => [m.id, m.status, m.sourceStatus, m.scheduledFor, m.scheduledUntil, m.completedAt, m.components.join('|')]),
      [
        ['huggingface:946090', 'completed', 'resolved', '2026-07-08T07:00:36.000Z', '2026-07-08T08:00:36.000Z', '2026-07-08T08:00:36.000Z', 'Jobs'],
        [
          'huggingface:961899',
          'scheduled',
          'maintenance',
          '2026-07-22T07:00:00.000Z',
          '2026-07-22T08:00:00.000Z',
          null,
          'Inference Endpoints UI|Inference Endpoints API',
        ],
      ],
    );
  });

  test('a maintenance report reads as in progress once its window has started', (t) => {
    const body = fixture(t, FILE);
    if (!body) return;
    const s = betterstackAdapter.parse(input('huggingface', 'https://status.huggingface.co/index.json', body, new Date('2026-07-22T07:30:00Z')));
    const m = s.maintenances!.find((x) => x.id === 'huggingface:961899')!;
    assert.equal(m.status, 'in_progress');
    assert.equal(m.startedAt, '2026-07-22T07:00:00.000Z');
  });
});
