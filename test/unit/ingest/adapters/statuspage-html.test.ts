import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { detectPlatform } from '../../../../src/domain/platform-detect.ts';
import { AdapterError } from '../../../../src/ingest/adapters/adapter.ts';
import { MAX_PAGE_CHARS, statuspageHtmlAdapter, statuspageHtmlTime } from '../../../../src/ingest/adapters/statuspage-html.ts';
import { assertSnapshotInvariants, input, repoRoot } from './helpers.ts';

// Statuspage pages read from their HTML (docs/mappings.md "Statuspage pages in HTML"). The
// fixture was written by hand after the markup of recorded Statuspage pages and of public
// scrapers (test/fixtures/documented/README.md names them).
const PAGE = 'https://status.example.com/';
const NOW = new Date('2026-07-30T10:00:00Z');
const documented = readFileSync(path.join(repoRoot, 'test/fixtures/documented/statuspage-html/index.html'));
const parse = (body: Buffer | string, now = NOW) => statuspageHtmlAdapter.parse(input('example', PAGE, body, now));

const page = (inner: string, bodyClass = 'status index status-none') =>
  `<!DOCTYPE html><html><head><title>T</title></head><body class="${bodyClass}">${inner}</body></html>`;
const component = (id: string, name: string, status: string) =>
  `<div data-component-id="${id}" class="component-inner-container" data-component-status="${status}"><span class="name">${name}</span><span class="component-status">x</span></div>`;

function refuses(body: string, message: RegExp) {
  assert.throws(
    () => parse(body),
    (err: unknown) => err instanceof AdapterError && message.test(err.message),
  );
}

describe('statuspage-html (written after recorded Statuspage markup)', () => {
  test('components in page order with their groups, the page status, unresolved incidents and maintenance under way', () => {
    assert.equal(detectPlatform(documented, 'text/html'), 'statuspage-html');
    const s = parse(documented);
    assertSnapshotInvariants(s, 'example', 'statuspage-html');
    // No `.page-status` block while incidents are shown: the body's `status-major` says it.
    assert.deepEqual(s.status, { indicator: 'partial_outage', description: 'Partial System Outage' });
    assert.deepEqual(
      s.components!.map((c) => [c.id, c.name, c.status, c.group]),
      [
        ['c1rest000001', 'REST API', 'partial_outage', 'API'],
        ['c1hook000002', 'Webhooks', 'degraded_performance', 'API'],
        ['c2dash000003', 'Dashboard', 'operational', null],
        ['c3db00000004', 'Database', 'under_maintenance', null],
      ],
    );
    assert.equal(s.incidentsAreCompleteUnresolvedSet, true);
    const [api, hooks] = s.incidents!;
    assert.equal(s.incidents!.length, 2);
    assert.equal(api!.id, 'example:k7x2m9p4q1zd');
    assert.equal(api!.title, 'Elevated API error rates & slow dashboards');
    assert.equal(api!.url, 'https://status.example.com/incidents/k7x2m9p4q1zd');
    // The newest phase word decides ("Update" keeps it); the page's own words stay beside it.
    assert.deepEqual([api!.status, api!.sourceStatus, api!.impact], ['investigating', 'identified', 'major']);
    // Times from the page's own epoch milliseconds (10:30 CEST is 08:30 UTC).
    assert.deepEqual([api!.startedAt, api!.updatedAt, api!.resolvedAt], ['2026-07-30T07:30:00.000Z', '2026-07-30T08:30:00.000Z', null]);
    assert.deepEqual(
      api!.updates.map((u) => [u.sourceStatus, u.body]),
      [
        ['Update', 'We are continuing to work on a fix for this issue.'],
        ['Identified', 'The issue has been identified and a fix is being implemented.'],
        ['Investigating', 'We are investigating elevated error rates on the REST API.'],
      ],
    );
    // Older markup prints the time without a year: read in its zone, in the poll's year.
    assert.deepEqual([hooks!.status, hooks!.sourceStatus, hooks!.impact], ['monitoring', 'monitoring', 'minor']);
    assert.deepEqual([hooks!.startedAt, hooks!.updatedAt], ['2026-07-30T07:50:00.000Z', '2026-07-30T08:45:00.000Z']);
    assert.deepEqual(
      hooks!.updates.map((u) => u.status),
      ['monitoring', 'investigating'],
    );
    // `impact-maintenance` is a maintenance under way, not an incident.
    assert.equal(s.maintenances!.length, 1);
    const m = s.maintenances![0]!;
    assert.deepEqual(
      [m.id, m.status, m.sourceStatus, m.scheduledFor, m.startedAt, m.scheduledUntil, m.completedAt],
      ['example:m1d4t7e2n9ce', 'in_progress', 'in progress', '2026-07-30T06:00:00.000Z', '2026-07-30T06:00:00.000Z', null, null],
    );
    assert.deepEqual(
      m.updates.map((u) => [u.status, u.sourceStatus]),
      [
        ['in_progress', 'In progress'],
        ['scheduled', 'Scheduled'],
      ],
    );
    assert.equal(s.maintenancesAreCompleteOpenSet, undefined, 'upcoming maintenance is not on the page: nothing is concluded from its absence');
  });

  test('an all-clear page: the page status block gives the indicator and its own words', () => {
    const s = parse(
      page(
        `<div class="page-status status-none"><span class="status font-large">All Systems Operational</span></div>${component('a1', 'API', 'operational')}${component('a2', 'Edge', 'major_outage')}`,
        'status index status-minor',
      ),
    );
    assert.deepEqual(s.status, { indicator: 'operational', description: 'All Systems Operational' });
    assert.deepEqual(
      s.components!.map((c) => [c.name, c.status]),
      [
        ['API', 'operational'],
        ['Edge', 'major_outage'],
      ],
    );
    assert.deepEqual(s.incidents, []);
  });

  test('wall-clock times: with a year, 12-hour clocks, a date of last year, an unknown zone', () => {
    const jan = new Date('2026-01-12T20:00:00Z');
    assert.equal(statuspageHtmlTime({ time: 'Sep 13, 2022 - 23:01 CEST', unixMs: null }, jan), '2022-09-13T21:01:00.000Z');
    assert.equal(statuspageHtmlTime({ time: 'Jan 12, 04:04 PM UTC', unixMs: null }, jan), '2026-01-12T16:04:00.000Z');
    assert.equal(statuspageHtmlTime({ time: 'Dec 14, 09:41 UTC', unixMs: null }, jan), '2025-12-14T09:41:00.000Z');
    assert.equal(statuspageHtmlTime({ time: 'Jun  8, 15:16 PDT', unixMs: null }, jan), '2026-06-08T22:16:00.000Z');
    assert.equal(statuspageHtmlTime({ time: 'Jan 12, 16:04 XYZT', unixMs: null }, jan), null);
    assert.equal(statuspageHtmlTime({ time: 'Feb 31, 25:04 UTC', unixMs: null }, jan), null);
    assert.equal(statuspageHtmlTime({ time: 'whenever', unixMs: '1663102886000' }, jan), '2022-09-13T21:01:26.000Z');
  });

  test('an update without a readable time is left out; an incident without any is refused', () => {
    const incident = (times: string[]) =>
      page(
        `<div class="unresolved-incidents"><div class="unresolved-incident impact-critical"><a class="actual-title" href="/incidents/abc123">Down</a>${times
          .map((t) => `<div class="update"><strong>Investigating</strong> - x<small>${t}</small></div>`)
          .join('')}</div></div>`,
      );
    const s = parse(incident(['Jul 30, 09:00 UTC', 'sometime']));
    // Only the first <strong> is the phase word; later ones are emphasis in the text.
    const emphasis = parse(
      page(
        `<div class="unresolved-incidents"><div class="unresolved-incident impact-minor"><a class="actual-title" href="/incidents/e1">E</a><div class="update"><strong>Monitoring</strong> - Fixed <strong>most</strong> errors.<small>Jul 30, 09:00 UTC</small></div></div></div>`,
      ),
    );
    assert.deepEqual(
      emphasis.incidents![0]!.updates.map((u) => [u.sourceStatus, u.body, u.status]),
      [['Monitoring', 'Fixed most errors.', 'monitoring']],
    );
    assert.equal(s.incidents![0]!.updates.length, 1);
    assert.equal(s.incidents![0]!.impact, 'critical');
    refuses(incident(['sometime']), /incident abc123 has no update with a readable time/);
  });

  test('hostile pages: a parse error, never a crash, a hang or markup in the text', () => {
    refuses('<html><body><h1>502 Bad Gateway</h1></body></html>', /no Statuspage components, page status or incidents/);
    refuses('{"page":{"id":"x"},"status":{"indicator":"none"}}', /got JSON/);
    refuses(`<html>${'x'.repeat(MAX_PAGE_CHARS)}</html>`, /page larger than/);
    refuses(`<html><body>${'<div>'.repeat(5000)}</body></html>`, /nested deeper than 256/);
    refuses(page(component('a', 'A', 'operational').repeat(2001)), /more than 2000 components/);
    // Empty groups count as rows too.
    refuses(page(`<div class="component-container is-group">${component('g', 'G', 'operational')}</div>`.repeat(2001)), /more than 2000 components/);
    const scripted = parse(
      page(
        `<div class="page-status status-minor"><span class="status">Minor<script>alert("x")</script> trouble\u0007</span></div>` +
          `<div data-component-id="c" data-component-status="operational"><span class="name">&lt;script&gt;Edge<style>p{}</style></span></div>` +
          `<div data-component-id="d" data-component-status="on_fire"><span class="name">Odd</span></div>`,
      ),
    );
    assert.deepEqual(scripted.status, { indicator: 'degraded', description: 'Minor trouble\u0007' });
    // Escaped markup stays text; the component's word is read, and an unknown one is unknown.
    assert.deepEqual(
      scripted.components!.map((c) => [c.name, c.status]),
      [
        ['<script>Edge', 'operational'],
        ['Odd', 'unknown'],
      ],
    );
    // Unclosed tags, stray closing tags and an unterminated comment end the page, they do not break it.
    const cut = parse(
      page(
        `${component('a', 'A', 'degraded_performance')}</span></div></table><div data-component-id="b" data-component-status="operational"><span class="name">B`,
      ),
    );
    assert.deepEqual(
      cut.components!.map((c) => [c.name, c.status]),
      [
        ['A', 'degraded_performance'],
        ['B', 'operational'],
      ],
    );
    const commented = parse(page(`${component('a', 'A', 'operational')}<!-- ${component('b', 'B', 'operational')}`));
    assert.equal(commented.components!.length, 1);
    // A group without its own row keeps its children, ungrouped; a component without an id is known by its name.
    const headless = parse(
      page(
        `<div class="component-container is-group"><div class="child-components-container">${component('c1', 'Child', 'partial_outage')}</div></div><div data-component-status="operational"><span class="name">No id</span></div>`,
      ),
    );
    assert.deepEqual(
      headless.components!.map((c) => [c.id, c.name, c.status, c.group]),
      [
        ['c1', 'Child', 'partial_outage', null],
        ['No id', 'No id', 'operational', null],
      ],
    );
  });
});
