import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { statuspageRssAdapter } from '../../../../src/ingest/adapters/statuspage-feed.ts';
import { countBy, input, parseFixture } from './helpers.ts';

describe('statuspage history.atom', () => {
  test('GitHub 2022-06-11: 20 incidents and 5 maintenances from 25 entries', (t) => {
    const s = parseFixture(t, 'rss-atom/github/history-2022-06-11.atom');
    if (!s) return;
    const incidents = s.incidents!;
    const maintenances = s.maintenances!;
    assert.equal(incidents.length, 20);
    assert.equal(maintenances.length, 5);
    assert.deepEqual(
      countBy(incidents, (i) => i.status),
      { resolved: 20 },
    );
    assert.deepEqual(
      countBy(maintenances, (m) => m.status),
      { completed: 5 },
    );
    // Labels: Update×38 + Investigating×20 + Resolved×20 on incidents, Scheduled/In progress/Completed×5 each on maintenances.
    assert.equal(
      incidents.reduce((n, i) => n + i.updates.length, 0),
      78,
    );
    assert.equal(
      maintenances.reduce((n, m) => n + m.updates.length, 0),
      15,
    );

    const codespaces = incidents[0]!;
    assert.equal(codespaces.id, 'github:fbx6ysfb4mff', 'the incident code from the link, as in /api/v2');
    assert.equal(codespaces.title, 'Incident with Codespaces');
    assert.equal(codespaces.startedAt, '2022-06-08T18:48:00.000Z');
    assert.equal(codespaces.updatedAt, '2022-06-08T19:13:39.000Z');
    assert.equal(codespaces.resolvedAt, '2022-06-08T19:13:00.000Z');
    assert.equal(codespaces.impact, 'minor');
    assert.equal(codespaces.url, 'https://www.githubstatus.com/incidents/fbx6ysfb4mff');
    assert.deepEqual(
      codespaces.updates.map((u) => [u.status, u.createdAt]),
      [
        ['resolved', '2022-06-08T19:13:00.000Z'],
        ['investigating', '2022-06-08T18:48:00.000Z'],
      ],
    );
    assert.ok(codespaces.updates[1]!.body.startsWith('We are investigating reports'), 'label and stamp stripped from the body');

    const insights = maintenances.find((m) => m.id === 'github:rw3k5dz04rqj')!;
    assert.equal(insights.title, 'Insights charts maintenance');
    assert.equal(insights.scheduledFor, '2022-05-12T21:12:00.000Z');
    assert.equal(insights.startedAt, '2022-05-12T21:12:00.000Z');
    assert.equal(insights.completedAt, '2022-05-16T21:00:00.000Z');
    assert.deepEqual(
      insights.updates.map((u) => u.status),
      ['completed', 'in_progress', 'scheduled'],
    );
  });

  test('GitHub 2026-08-22: 25 incidents, "Update" blocks carry the previous state', (t) => {
    const s = parseFixture(t, 'rss-atom/github/history-2026-08-22.atom');
    if (!s) return;
    assert.equal(s.incidents!.length, 25);
    assert.deepEqual(s.maintenances, []);
    assert.deepEqual(
      countBy(s.incidents!, (i) => i.status),
      { resolved: 25 },
    );
    assert.equal(
      s.incidents!.reduce((n, i) => n + i.updates.length, 0),
      178,
    );
    const runners = s.incidents!.find((i) => i.id === 'github:bmpybhnrky3x')!;
    assert.deepEqual(
      runners.updates.map((u) => u.status),
      ['resolved', 'monitoring', 'monitoring', 'monitoring', 'investigating'],
    );
    assert.equal(runners.startedAt, '2026-08-18T07:40:00.000Z');
    assert.equal(runners.updatedAt, '2026-08-21T22:46:07.000Z');
    assert.equal(runners.resolvedAt, '2026-08-18T11:42:00.000Z');
  });
});

describe('statuspage history.rss', () => {
  test('Parse 2014-01-09: 17 incidents; times use the item offset, years follow the item date', (t) => {
    const s = parseFixture(t, 'rss-atom/parse/history-2014-01-09.rss');
    if (!s) return;
    const incidents = s.incidents!;
    assert.equal(incidents.length, 17);
    assert.deepEqual(
      countBy(incidents, (i) => i.status),
      { resolved: 17 },
    );
    assert.deepEqual(
      countBy(incidents, (i) => i.sourceStatus),
      { resolved: 16, postmortem: 1 },
    );
    assert.equal(
      incidents.reduce((n, i) => n + i.updates.length, 0),
      38,
    );

    const [first] = incidents;
    assert.equal(first!.id, 'parse:lzf7mjchpy20');
    assert.equal(first!.startedAt, '2014-01-01T16:17:00.000Z');
    assert.equal(first!.resolvedAt, '2014-01-01T17:09:00.000Z');
    assert.deepEqual(
      first!.updates.map((u) => u.status),
      ['resolved', 'investigating', 'investigating'],
    );

    // The postmortem comes two days after the resolution; resolvedAt stays at Resolved.
    const disruption = incidents.find((i) => i.id === 'parse:p9hy357zjvb3')!;
    assert.equal(disruption.status, 'resolved');
    assert.equal(disruption.sourceStatus, 'postmortem');
    assert.equal(disruption.resolvedAt, '2013-12-24T19:21:00.000Z');
    assert.equal(disruption.updates[0]!.createdAt, '2013-12-26T18:22:00.000Z');

    // "Oct 28, 14:48 PST" on an item dated -0700: the page's label ignores DST, the offset does not.
    const october = incidents.find((i) => i.id === 'parse:gtdv7rgyn76g')!;
    assert.equal(october.resolvedAt, '2013-10-28T21:48:00.000Z');
  });

  test('a maintenance entry with a SCHEDULED EVENT line gets its window from it', () => {
    const html =
      "<p><strong>THIS IS A SCHEDULED EVENT Mar <var data-var='date'>3</var>, <var data-var='time'>22:00</var> - <var data-var='time'>23:30</var> UTC</strong></p>" +
      "<p><small>Mar <var data-var='date'>1</var>, <var data-var='time'>09:15</var> UTC</small><br><strong>Scheduled</strong> - We will move the queue cluster to new hardware.</p>";
    const feed = `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>Example Status - Incident History</title><link>https://status.example.test</link>
      <item><title>Queue cluster move</title><description>${html.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')}</description>
      <pubDate>Sun, 01 Mar 2026 09:15:00 +0000</pubDate><link>https://status.example.test/incidents/q1w2e3r4t5y6</link><guid>https://status.example.test/incidents/q1w2e3r4t5y6</guid></item>
    </channel></rss>`;
    const s = statuspageRssAdapter.parse(input('example', 'https://status.example.test/history.rss', feed));
    assert.deepEqual(s.incidents, []);
    const [m] = s.maintenances!;
    assert.equal(m!.id, 'example:q1w2e3r4t5y6');
    assert.equal(m!.status, 'scheduled');
    assert.equal(m!.scheduledFor, '2026-03-03T22:00:00.000Z');
    assert.equal(m!.scheduledUntil, '2026-03-03T23:30:00.000Z');
    assert.equal(m!.startedAt, null);
    assert.deepEqual(m!.updates, [
      { status: 'scheduled', sourceStatus: 'scheduled', body: 'We will move the queue cluster to new hardware.', createdAt: '2026-03-01T09:15:00.000Z' },
    ]);
  });
});
