import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { detectPlatform } from '../../../../src/domain/platform-detect.ts';
import { AdapterError } from '../../../../src/ingest/adapters/adapter.ts';
import { cstateAdapter, goTimeToIso } from '../../../../src/ingest/adapters/cstate.ts';
import { input, repoRoot } from './helpers.ts';

// cState's index.json (docs/mappings.md "cState"). No recorded payload exists; the fixture was
// written by hand from cState's own template (test/fixtures/documented/README.md).
const URL_ = 'https://status.example.test/index.json';
const documented = readFileSync(path.join(repoRoot, 'test/fixtures/documented/cstate/index.json'));
const parse = (body: Buffer | string) => cstateAdapter.parse(input('example', URL_, body));
const page = (systems: unknown[], summaryStatus = 'ok') => JSON.stringify({ is: 'index', summaryStatus, systems });

describe('cstate index.json (written from the template)', () => {
  test('systems as components by category, unresolved issues once each, Hugo dates read with their offset', () => {
    assert.equal(detectPlatform(documented), 'cstate');
    const s = parse(documented);
    assert.equal(s.status!.indicator, 'partial_outage');
    assert.equal(s.incidentsAreCompleteUnresolvedSet, true);
    assert.deepEqual(
      s.components!.map((c) => [c.name, c.status, c.group]),
      [
        ['Kubernetes LON1', 'partial_outage', 'Compute'],
        ['Kubernetes NYC1', 'operational', 'Compute'],
        ['Load balancers', 'partial_outage', 'Network'],
        ['DNS', 'operational', 'Network'],
      ],
    );
    assert.equal(s.incidents!.length, 2, 'an issue listed under two systems is one incident');
    const [slow, notice] = s.incidents!;
    assert.deepEqual(
      [slow!.id, slow!.title, slow!.status, slow!.sourceStatus, slow!.impact, slow!.startedAt, slow!.updatedAt, slow!.resolvedAt, slow!.components, slow!.url],
      [
        'example:2026-07-30-slow-clusters.md',
        'Slow cluster creation in LON1',
        'investigating',
        'disrupted',
        'minor',
        '2026-07-30T08:00:00.000Z',
        '2026-07-30T08:15:30.000Z',
        null,
        ['Kubernetes LON1', 'Load balancers'],
        'https://status.example.test/issues/2026-07-30-slow-clusters/',
      ],
    );
    assert.deepEqual([notice!.impact, notice!.sourceStatus, notice!.startedAt], ['none', 'notice', '2026-07-29T16:30:00.123Z']);
  });

  test('down is a major outage; a word cState does not use is unknown, never operational', () => {
    const s = parse(
      page(
        [
          { name: 'API', status: 'down' },
          { name: 'Web', status: 'sideways' },
        ],
        'down',
      ),
    );
    assert.equal(s.status!.indicator, 'major_outage');
    assert.deepEqual(
      s.components!.map((c) => c.status),
      ['major_outage', 'unknown'],
    );
    assert.equal(parse(page([], 'purple')).status!.indicator, 'unknown');
  });

  test('Go and ISO times; anything else is not a date', () => {
    assert.equal(goTimeToIso('2026-01-02 03:04:05 -0700 MST'), '2026-01-02T10:04:05.000Z');
    assert.equal(goTimeToIso('2026-01-02T03:04:05Z'), '2026-01-02T03:04:05.000Z');
    assert.equal(goTimeToIso('0001-01-01 00:00:00 +0000 UTC'), '0001-01-01T00:00:00.000Z');
    assert.equal(goTimeToIso(''), null);
    assert.equal(goTimeToIso('yesterday'), null);
  });

  test('hostile input: wrong types, unreadable dates, control characters, a huge page', () => {
    const issue = { title: 'x', createdAt: 'never' };
    assert.throws(
      () => parse(page([{ name: 'API', status: 'ok', unresolvedIssues: [issue] }])),
      (e: unknown) => e instanceof AdapterError && /createdAt/.test(e.message),
    );
    assert.throws(
      () => parse('{"is":"index","summaryStatus":"ok","systems":{"name":"API"}}'),
      (e: unknown) => e instanceof AdapterError && /\/systems/.test(e.message),
    );
    assert.throws(() => parse(page([{ name: 7 }])), AdapterError);
    assert.throws(
      () => parse('{"is":"index","summaryStatus":"ok","systems":[{"name":"x"'),
      (e: unknown) => e instanceof AdapterError && /invalid JSON/.test(e.message),
    );
    const hostile = parse(
      page([
        {
          name: 'A\u0000P\u0007I\n',
          status: 'disrupted',
          unresolvedIssues: [
            { title: 'Bad\u001b[31m day', createdAt: '2026-07-30 08:00:00 +0000 UTC', affected: ['A\u0000P\u0007I\n'], permalink: 'javascript:alert(1)' },
          ],
        },
      ]),
    );
    assert.equal(hostile.components![0]!.name, 'A P I');
    assert.equal(hostile.incidents![0]!.title, 'Bad [31m day');
    assert.equal(hostile.incidents![0]!.url, null, 'only http(s) links are kept');
    const many = Array.from({ length: 20_000 }, (_, i) => ({ name: `system ${i}`, status: 'ok' }));
    assert.equal(parse(page(many)).components!.length, 20_000);
  });
});
