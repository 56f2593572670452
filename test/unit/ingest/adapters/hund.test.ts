import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { detectPlatform } from '../../../../src/domain/platform-detect.ts';
import { bodyHasEvent, parseServerSentEvents } from '../../../../src/domain/server-sent-events.ts';
import { AdapterError } from '../../../../src/ingest/adapters/adapter.ts';
import { hundAdapter } from '../../../../src/ingest/adapters/hund.ts';
import { input, repoRoot } from './helpers.ts';

// Hund's live stream (docs/mappings.md "Hund"). No recorded payload exists; the fixture was
// written by hand from the documented format (test/fixtures/documented/README.md).
const URL_ = 'https://example.hund.io/live/v2/status_page';
const documented = readFileSync(path.join(repoRoot, 'test/fixtures/documented/hund/live-v2-status_page.txt'));
const parse = (body: Buffer | string, now = new Date('2026-07-30T10:00:00Z')) => hundAdapter.parse(input('example', URL_, body, now));
const stream = (init: unknown) => `event: init_event\ndata: ${JSON.stringify(init)}\n\n`;

describe('server-sent events', () => {
  test('complete events only; CRLF, comments and multi-line data read as the format says', () => {
    const events = parseServerSentEvents(': hello\r\nevent: a\r\ndata: 1\r\ndata: 2\r\n\r\ndata: x\n\nevent: b\ndata: unfinished');
    assert.deepEqual(events, [
      { event: 'a', data: '1\n2' },
      { event: 'message', data: 'x' },
    ]);
    assert.equal(bodyHasEvent('init_event')(Buffer.from('event: init_event\ndata: {}')), false, 'not closed yet');
    assert.equal(bodyHasEvent('init_event')(Buffer.from('event: init_event\ndata: {}\n\n')), true);
  });
});

describe('hund live stream (written from the documented format)', () => {
  test('the opening event: page state, standing issues as incidents, scheduled ones as maintenance', () => {
    assert.equal(detectPlatform(documented), 'hund');
    const s = parse(documented);
    assert.equal(s.status!.indicator, 'degraded');
    assert.equal(s.incidentsAreCompleteUnresolvedSet, true);
    assert.equal(s.components, undefined, 'components outside issues are not published: none are claimed');
    const [load] = s.incidents!;
    assert.deepEqual(
      [load!.id, load!.title, load!.status, load!.sourceStatus, load!.impact, load!.startedAt, load!.updatedAt, load!.components],
      [
        'example:57630a2b8fbb654829473756',
        'Heavy Load',
        'monitoring',
        'Investigating',
        'major',
        '2026-07-30T08:00:00.000Z',
        '2026-07-30T08:30:00.000Z',
        ['Website', 'Database'],
      ],
    );
    assert.deepEqual(
      load!.updates.map((u) => [u.status, u.sourceStatus, u.body]),
      [
        ['monitoring', 'Monitoring', 'A fix is rolling out.'],
        ['investigating', 'Investigating', 'We are working on it.'],
      ],
    );
    const [upgrade] = s.maintenances!;
    assert.deepEqual(
      [upgrade!.status, upgrade!.scheduledFor, upgrade!.scheduledUntil, upgrade!.components],
      ['scheduled', '2026-07-31T08:00:00.000Z', '2026-07-31T10:00:00.000Z', ['Database']],
    );
    // A poll stops reading inside the next event, perhaps inside a character: what came before is read.
    const cut = Buffer.concat([documented, Buffer.from('é', 'utf8').subarray(0, 1)]);
    assert.deepEqual(parse(cut), s);
    const during = parse(documented, new Date('2026-07-31T09:00:00Z')).maintenances![0]!;
    assert.equal(during.status, 'in_progress');
  });

  test('version 1 names one component; Information and non-standing issues are over', () => {
    const s = parse(
      stream({
        state: 'operational',
        issues: [
          { id: 'a', title: 'Notice', label: 'Information', component: 'API', standing: true, scheduled: false, created_at: 1785398400 },
          { id: 'b', title: 'Done', label: 'Resolved', components: ['API'], standing: false, scheduled: false, created_at: '2026-07-30T08:00:00Z' },
        ],
      }),
    );
    assert.equal(s.status!.indicator, 'operational');
    assert.equal(parse(stream({ state: 'outage', issues: [] })).status!.indicator, 'partial_outage', 'the worst component is out, not the whole page');
    assert.equal(parse(stream({ state: 'pending', issues: [] })).status!.indicator, 'unknown');
    assert.deepEqual(
      s.incidents!.map((i) => [i.status, i.components]),
      [
        ['resolved', ['API']],
        ['resolved', ['API']],
      ],
    );
  });

  test('hostile input: no event, unfinished event, bad JSON, wrong shapes are AdapterErrors; huge text is no crash', () => {
    for (const body of [
      '',
      'not a stream',
      'event: init_event\ndata: {"state":"x","issues":[]}',
      stream('x').replace('"x"', '{'),
      stream({ state: 1, issues: [] }),
      stream({ state: 'ok', issues: [{ id: 'a' }] }),
      '{"state":"ok","issues":[]}',
    ]) {
      assert.throws(() => parse(body), AdapterError, body.slice(0, 40));
    }
    const huge = parse(
      stream({
        state: 'degraded',
        issues: [{ id: 'x', title: 'T\u0000', body: 'y'.repeat(300_000), created_at: 1785398400, components: Array.from({ length: 2000 }, (_, i) => `c${i}`) }],
      }),
    );
    assert.equal(huge.incidents![0]!.components.length, 2000);
    assert.equal(detectPlatform(Buffer.from('event: other\ndata: {}\n\n')), null);
  });
});
