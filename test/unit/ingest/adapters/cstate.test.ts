import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { detectPlatform } from '../../../../src/domain/platform-detect.ts';
import { AdapterError } from '../../../../src/ingest/adapters/adapter.ts';
import { cstateAdapter, cstateTime } from '../../../../src/ingest/adapters/cstate.ts';
import { assertSnapshotInvariants, input, repoRoot } from './helpers.ts';

// A cState site's index.json (docs/mappings.md "cState"), written by hand as the theme's own
// template renders it (test/fixtures/documented/README.md).
const URL_ = 'https://status.example-hosting.org/index.json';
const NOW = new Date('2026-07-30T10:00:00Z');
const documented = readFileSync(path.join(repoRoot, 'test/fixtures/documented/cstate/index.json'));
const parse = (body: Buffer | string, now = NOW) => cstateAdapter.parse(input('example', URL_, body, now));

function refuses(body: string, message: RegExp) {
  assert.throws(
    () => parse(body),
    (err: unknown) => err instanceof AdapterError && message.test(err.message),
  );
}

describe('cstate index.json (written from the theme template)', () => {
  test('systems, the summary status, unresolved issues once each, notices as maintenance', () => {
    assert.equal(detectPlatform(documented), 'cstate');
    const s = parse(documented);
    assertSnapshotInvariants(s, 'example', 'cstate');
    assert.deepEqual(s.status, { indicator: 'partial_outage', description: 'Partial System Outage' });
    assert.deepEqual(
      s.components!.map((c) => [c.name, c.status, c.group]),
      [
        ['Gateway', 'partial_outage', 'Web'],
        ['Control panel', 'partial_outage', 'Web'],
        ['Nightly backups', 'under_maintenance', 'Backups'],
        ['DNS', 'operational', 'Web'],
      ],
    );
    // The issue is listed under both systems it affects: one record.
    assert.equal(s.incidents!.length, 1);
    const i = s.incidents![0]!;
    assert.deepEqual(
      [i.id, i.status, i.sourceStatus, i.impact, i.startedAt, i.updatedAt, i.resolvedAt],
      ['example:2026-07-30-slow-gateway', 'investigating', 'disrupted', 'major', '2026-07-30T07:15:00.000Z', '2026-07-30T08:02:41.500Z', null],
    );
    assert.deepEqual(i.components, ['Gateway', 'Control panel']);
    assert.equal(i.url, 'https://status.example-hosting.org/issues/2026-07-30-slow-gateway/');
    assert.equal(s.incidentsAreCompleteUnresolvedSet, true);
    const m = s.maintenances![0]!;
    // Hugo's "+0200 CEST" is read with its offset; the zero lastMod is no date.
    assert.deepEqual([m.status, m.scheduledFor, m.startedAt, m.scheduledUntil], ['in_progress', '2026-07-29T23:00:00.000Z', '2026-07-29T23:00:00.000Z', null]);
    assert.equal(parse(documented, new Date('2026-07-29T12:00:00Z')).maintenances![0]!.status, 'scheduled');
  });

  test('Hugo and front-matter times', () => {
    assert.equal(cstateTime('2022-11-02 21:57:21.175123 +0000 UTC'), '2022-11-02T21:57:21.175Z');
    assert.equal(cstateTime('2022-11-02T21:57:21.175Z'), '2022-11-02T21:57:21.175Z');
    assert.equal(cstateTime('2018-05-15 14:30:00'), '2018-05-15T14:30:00.000Z');
    assert.equal(cstateTime('2018-05-15 14:30:00 -0500 EST'), '2018-05-15T19:30:00.000Z');
    assert.equal(cstateTime('0001-01-01 00:00:00 +0000 UTC'), null);
    assert.equal(cstateTime(''), null);
  });

  test('hostile payloads: a parse error, never a crash', () => {
    refuses('{"is":"issue","summaryStatus":"ok","systems":[]}', /invalid payload at \/is/);
    refuses('{"is":"index","summaryStatus":"ok","systems":{}}', /invalid payload at \/systems/);
    refuses(
      '{"is":"index","summaryStatus":"down","systems":[{"name":"A","status":"down","unresolvedIssues":[{"title":"t","createdAt":"soon"}]}]}',
      /missing or unparseable date/,
    );
    refuses('<!doctype html><html><body>cState</body></html>', /invalid JSON/);
    const odd = parse('{"is":"index","summaryStatus":"exploding","systems":[{"name":"A","status":"weird"},{"name":"A","status":"ok"}]}');
    assert.equal(odd.status!.indicator, 'unknown');
    assert.deepEqual(
      odd.components!.map((c) => [c.name, c.status]),
      [['A', 'unknown']],
    );
  });
});
