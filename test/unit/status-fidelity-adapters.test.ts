import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { escapeText } from '../../src/domain/html-escape.ts';
import { gcpAdapter } from '../../src/ingest/adapters/gcp.ts';
import { statuspageAtomAdapter, statuspageRssAdapter } from '../../src/ingest/adapters/statuspage-feed.ts';
import { statuspageV2Adapter } from '../../src/ingest/adapters/statuspage-v2.ts';

// Status and time logic of the adapters on payloads written in the documented
// upstream formats (docs/mappings.md).

const at = (body: string, url: string, vendor = 'example') => ({ vendor, url, body: Buffer.from(body, 'utf8'), now: new Date('2026-03-10T12:00:00Z') });

describe('Google Cloud incidents.json', () => {
  test('an incident with `end` is over even when its last update is not AVAILABLE', () => {
    // Shape of status.cloud.google.com/incidents.json: one object per incident, updates newest first.
    const update = (when: string, status: string, text: string) => ({ created: when, modified: when, when, text, status, affected_locations: [] });
    const payload = [
      {
        id: 'zall8Pd9gLRbE7K3jH2a',
        number: '1234567890123456789',
        begin: '2021-03-04T17:40:00+00:00',
        created: '2021-03-04T18:02:11+00:00',
        end: '2021-03-05T01:15:00+00:00',
        modified: '2021-03-05T01:16:40+00:00',
        external_desc: 'Cloud Networking packet loss in us-east1',
        updates: [
          update('2021-03-04T21:30:00+00:00', 'SERVICE_DISRUPTION', 'Mitigation is in progress.'),
          update('2021-03-04T18:02:11+00:00', 'SERVICE_DISRUPTION', 'We are investigating packet loss.'),
        ],
        most_recent_update: update('2021-03-04T21:30:00+00:00', 'SERVICE_DISRUPTION', 'Mitigation is in progress.'),
        status_impact: 'SERVICE_DISRUPTION',
        severity: 'medium',
        service_key: 'VNJxzcH58QmTt5H6pnT6',
        service_name: 'Cloud Networking',
        affected_products: [{ title: 'Cloud Networking', id: 'VNJxzcH58QmTt5H6pnT6' }],
        uri: 'incidents/zall8Pd9gLRbE7K3jH2a',
        currently_affected_locations: [],
        previously_affected_locations: [{ title: 'South Carolina (us-east1)', id: 'us-east1' }],
      },
    ];
    const [i] = gcpAdapter.parse(at(JSON.stringify(payload), 'https://status.cloud.google.com/incidents.json', 'google-cloud')).incidents!;
    assert.equal(i!.status, 'resolved');
    assert.equal(i!.resolvedAt, '2021-03-05T01:15:00.000Z');
    assert.equal(i!.impact, 'major');
  });
});

describe('Statuspage history feeds: maintenance windows over two days', () => {
  // Statuspage writes the window of a maintenance entry as its first line; across two
  // days both ends carry a date (and the zone may follow each time).
  const html = (line: string) =>
    `<p><strong>THIS IS A SCHEDULED EVENT ${line}</strong></p>` +
    "<p><small>Jan <var data-var='date'>5</var>, <var data-var='time'>10:12</var> UTC</small><br><strong>Scheduled</strong> - We will be undergoing scheduled maintenance during this time.</p>";
  const twoDays =
    "Jan <var data-var='date'>8</var>, <var data-var='time'>21:00</var> UTC - Jan <var data-var='date'>9</var>, <var data-var='time'>01:00</var> UTC";

  test('RSS: "Jan 8, 21:00 UTC - Jan 9, 01:00 UTC"', () => {
    const rss = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0"><channel><title>Example Status - Incident History</title><link>https://status.example.test</link><description>Statuspage</description>
<pubDate>Mon, 05 Jan 2026 10:12:40 +0000</pubDate>
<item><title>Storage cluster upgrade</title><description>${escapeText(html(twoDays))}</description>
<pubDate>Mon, 05 Jan 2026 10:12:40 +0000</pubDate><link>https://status.example.test/incidents/m9n8b7v6c5x4</link><guid>https://status.example.test/incidents/m9n8b7v6c5x4</guid></item>
</channel></rss>`;
    const [m] = statuspageRssAdapter.parse(at(rss, 'https://status.example.test/history.rss')).maintenances!;
    assert.equal(m!.status, 'scheduled');
    assert.equal(m!.scheduledFor, '2026-01-08T21:00:00.000Z');
    assert.equal(m!.scheduledUntil, '2026-01-09T01:00:00.000Z');
  });

  test('Atom: the same window across a year end', () => {
    const line =
      "Dec <var data-var='date'>31</var>, <var data-var='time'>22:00</var> UTC - Jan <var data-var='date'>1</var>, <var data-var='time'>02:00</var> UTC";
    const atom = `<?xml version="1.0" encoding="UTF-8"?>
<feed xml:lang="en-US" xmlns="http://www.w3.org/2005/Atom"><id>tag:status.example.test,2005:/history</id><link rel="alternate" type="text/html" href="https://status.example.test"/><title>Example Status - Incident History</title><updated>2025-12-20T09:00:00Z</updated>
<entry><id>tag:status.example.test,2005:Incident/29341234</id><published>2025-12-20T09:00:00Z</published><updated>2025-12-20T09:00:00Z</updated>
<link rel="alternate" type="text/html" href="https://status.example.test/incidents/p0o9i8u7y6t5"/><title>Year-end database upgrade</title>
<content type="html">${escapeText(html(line))}</content></entry></feed>`;
    const [m] = statuspageAtomAdapter.parse(at(atom, 'https://status.example.test/history.atom')).maintenances!;
    assert.equal(m!.scheduledFor, '2025-12-31T22:00:00.000Z');
    assert.equal(m!.scheduledUntil, '2026-01-01T02:00:00.000Z');
  });
});

describe('Statuspage v2: which lists hold every open maintenance', () => {
  const page = { id: 'y2j98763l56x', name: 'Example', url: 'https://status.example.test', time_zone: 'Etc/UTC', updated_at: '2026-03-10T11:59:00.000Z' };
  const window = {
    id: 'cr9vbq8h5x1s',
    name: 'Network maintenance',
    status: 'scheduled',
    impact: 'maintenance',
    created_at: '2026-03-01T10:00:00.000Z',
    updated_at: '2026-03-01T10:00:00.000Z',
    started_at: '2026-03-01T10:00:00.000Z',
    resolved_at: null,
    shortlink: 'https://stspg.io/cr9vbq8h5x1s',
    scheduled_for: '2026-03-12T02:00:00.000Z',
    scheduled_until: '2026-03-12T04:00:00.000Z',
    incident_updates: [],
    components: [],
  };

  test('summary.json is complete; scheduled-maintenances.json (the 50 most recent) is not', () => {
    const summary = {
      page,
      components: [],
      incidents: [],
      scheduled_maintenances: [window],
      status: { indicator: 'none', description: 'All Systems Operational' },
    };
    const s = statuspageV2Adapter.parse(at(JSON.stringify(summary), 'https://status.example.test/api/v2/summary.json'));
    assert.equal(s.maintenancesAreCompleteOpenSet, true);
    const list = statuspageV2Adapter.parse(
      at(JSON.stringify({ page, scheduled_maintenances: [window] }), 'https://status.example.test/api/v2/scheduled-maintenances.json'),
    );
    assert.equal(list.maintenancesAreCompleteOpenSet, undefined);
  });
});
