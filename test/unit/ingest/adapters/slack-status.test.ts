// Slack status API v2.0.0, on payloads written for this test in the documented shape
// (docs/mappings.md "Slack status").
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseSource } from '../../../../src/ingest/adapters/index.ts';

const parse = (url: string, body: unknown) =>
  parseSource('slack-status', { vendor: 'slack', url, body: Buffer.from(JSON.stringify(body)), now: new Date('2026-06-01T00:00:00Z') });

const CURRENT = 'https://slack-status.com/api/v2.0.0/current';

describe('slack-status', () => {
  test('ok with no incidents is operational, and the empty list is complete', () => {
    const s = parse(CURRENT, { status: 'ok', date_created: '2026-05-24T07:12:01-07:00', date_updated: '2026-05-24T07:12:01-07:00', active_incidents: [] });
    assert.deepEqual(s.status, { indicator: 'operational', description: 'All Systems Operational' });
    assert.deepEqual(s.incidents, []);
    assert.equal(s.incidentsAreCompleteUnresolvedSet, true);
  });

  test('an active incident: numeric id, offset dates, HTML notes, services as components', () => {
    const s = parse(CURRENT, {
      status: 'active',
      date_created: '2026-05-24T07:12:01-07:00',
      date_updated: '2026-05-24T07:40:10-07:00',
      active_incidents: [
        {
          id: 1234,
          date_created: '2026-05-24T07:12:01-07:00',
          date_updated: '2026-05-24T07:40:10-07:00',
          title: 'Some users may have trouble loading files',
          type: 'incident',
          status: 'active',
          url: 'https://slack-status.com/2026-05/0a1b2c3d4e5f6a7b',
          services: ['Files', 'Messaging'],
          notes: [
            { date_created: '2026-05-24T07:12:01-07:00', body: '<p>We&#39;re investigating.</p>' },
            { date_created: '2026-05-24T07:40:10-07:00', body: 'A fix is in place.\r\nWe are monitoring.' },
          ],
        },
      ],
    });
    assert.deepEqual(s.status, { indicator: 'degraded', description: 'Minor Service Outage' });
    assert.deepEqual(s.incidents, [
      {
        id: 'slack:1234',
        vendor: 'slack',
        title: 'Some users may have trouble loading files',
        status: 'investigating',
        sourceStatus: 'active',
        impact: 'minor',
        startedAt: '2026-05-24T14:12:01.000Z',
        updatedAt: '2026-05-24T14:40:10.000Z',
        resolvedAt: null,
        components: ['Files', 'Messaging'],
        updates: [
          { status: 'investigating', sourceStatus: 'active', body: 'A fix is in place. We are monitoring.', createdAt: '2026-05-24T14:40:10.000Z' },
          { status: 'investigating', sourceStatus: 'active', body: "We're investigating.", createdAt: '2026-05-24T14:12:01.000Z' },
        ],
        url: 'https://slack-status.com/2026-05/0a1b2c3d4e5f6a7b',
        source: 'slack-status',
      },
    ]);
  });

  test('an outage is a partial outage of the page; a notice does not degrade it; string ids are kept', () => {
    const incident = (id: string | number, type: string) => ({
      id,
      title: `t${id}`,
      type,
      status: 'active',
      date_created: '2026-05-24T07:00:00-07:00',
      services: [],
    });
    const outage = parse(CURRENT, { status: 'active', active_incidents: [incident('546', 'outage'), incident(2, 'notice')] });
    assert.equal(outage.status?.indicator, 'partial_outage');
    assert.deepEqual(
      outage.incidents?.map((i) => [i.id, i.impact]),
      [
        ['slack:546', 'major'],
        ['slack:2', 'none'],
      ],
    );
    const notice = parse(CURRENT, { status: 'active', active_incidents: [incident(3, 'notice')] });
    assert.equal(notice.status?.indicator, 'operational');
    const maintenance = parse(CURRENT, { status: 'active', active_incidents: [incident(4, 'maintenance')] });
    assert.equal(maintenance.status?.indicator, 'maintenance');
    assert.deepEqual(maintenance.incidents, []);
    assert.equal(maintenance.maintenances?.[0]?.status, 'in_progress');
  });

  test('history is a top-level array of resolved incidents and says nothing about the page', () => {
    const s = parse('https://slack-status.com/api/v2.0.0/history', [
      {
        id: 99,
        title: 'Old one',
        type: 'outage',
        status: 'resolved',
        date_created: '2026-04-01T10:00:00-07:00',
        date_updated: '2026-04-01T12:00:00-07:00',
        services: ['Login/SSO'],
        notes: [],
      },
    ]);
    assert.equal(s.status, undefined);
    assert.equal(s.incidentsAreCompleteUnresolvedSet, undefined);
    assert.equal(s.incidents?.[0]?.status, 'resolved');
    assert.equal(s.incidents?.[0]?.resolvedAt, '2026-04-01T19:00:00.000Z');
  });

  test("history: each note keeps the phase it was written in, not the incident's final status", () => {
    // No Slack payload is among the recorded fixtures; this one follows the shape of a recorded
    // /history answer: a resolved incident whose three notes were posted over three hours, the
    // last one closing it, and an incident still active.
    const s = parse('https://slack-status.com/api/v2.0.0/history', [
      {
        id: 2001,
        title: 'Delays sending messages',
        type: 'incident',
        status: 'resolved',
        url: 'https://slack-status.com/2026-04/aa11bb22cc33dd44',
        date_created: '2026-04-02T09:00:00-07:00',
        date_updated: '2026-04-02T12:01:05-07:00',
        // Slack lists notes oldest first.
        notes: [
          { date_created: '2026-04-02T09:00:00-07:00', body: '<p>Some messages are slow to send. We are investigating.</p>' },
          { date_created: '2026-04-02T10:30:00-07:00', body: '<p>We found the cause and are rolling back a change.</p>' },
          { date_created: '2026-04-02T12:00:00-07:00', body: '<p>The rollback is complete and messages send normally.</p>' },
        ],
        services: ['Messaging'],
      },
      {
        id: 2002,
        title: 'Search results missing',
        type: 'incident',
        status: 'active',
        date_created: '2026-04-03T08:00:00-07:00',
        date_updated: '2026-04-03T08:45:00-07:00',
        notes: [
          { date_created: '2026-04-03T08:00:00-07:00', body: 'Looking into it.' },
          { date_created: '2026-04-03T08:45:00-07:00', body: 'Still looking.' },
        ],
        services: ['Search'],
      },
    ]);
    const [resolved, active] = s.incidents ?? [];
    // Newest first: the 12:00 note closed the incident; the 10:30 and 09:00 notes were written
    // while it was active.
    assert.deepEqual(
      resolved?.updates.map((u) => [u.createdAt, u.status, u.sourceStatus]),
      [
        ['2026-04-02T19:00:00.000Z', 'resolved', 'resolved'],
        ['2026-04-02T17:30:00.000Z', 'investigating', 'active'],
        ['2026-04-02T16:00:00.000Z', 'investigating', 'active'],
      ],
    );
    assert.equal(resolved?.status, 'resolved');
    assert.equal(resolved?.resolvedAt, '2026-04-02T19:01:05.000Z');
    // Nothing of an active incident reads as resolved.
    assert.deepEqual(
      active?.updates.map((u) => [u.createdAt, u.status, u.sourceStatus]),
      [
        ['2026-04-03T15:45:00.000Z', 'investigating', 'active'],
        ['2026-04-03T15:00:00.000Z', 'investigating', 'active'],
      ],
    );
  });

  test('a resolved maintenance: only its last note is completed', () => {
    const s = parse('https://slack-status.com/api/v2.0.0/history', [
      {
        id: 'm1',
        title: 'Planned database work',
        type: 'maintenance',
        status: 'resolved',
        date_created: '2026-04-05T01:00:00-07:00',
        date_updated: '2026-04-05T03:00:00-07:00',
        notes: [
          { date_created: '2026-04-05T01:00:00-07:00', body: 'Work has started.' },
          { date_created: '2026-04-05T03:00:00-07:00', body: 'Work is done.' },
        ],
      },
    ]);
    assert.deepEqual(
      s.maintenances?.[0]?.updates.map((u) => [u.body, u.status]),
      [
        ['Work is done.', 'completed'],
        ['Work has started.', 'in_progress'],
      ],
    );
  });

  test('broken payloads name the path', () => {
    assert.throws(() => parse(CURRENT, { active_incidents: [] }), /slack-status: invalid payload at \/status/);
    assert.throws(() => parse(CURRENT, { status: 'active', active_incidents: [{ id: true, title: 'x' }] }), /\/active_incidents\/0\/id/);
  });
});
