import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { detectPlatform } from '../../../../src/domain/platform-detect.ts';
import { AdapterError } from '../../../../src/ingest/adapters/adapter.ts';
import { uptimerobotAdapter } from '../../../../src/ingest/adapters/uptimerobot.ts';
import { assertSnapshotInvariants, input, repoRoot } from './helpers.ts';

// An UptimeRobot page's monitor list (docs/mappings.md "UptimeRobot"). No recording exists in
// a public repository; the fixture follows the shape public readers of the endpoint document
// (test/fixtures/documented/README.md).
const URL_ = 'https://stats.uptimerobot.com/api/getMonitorList/Ab12Cd34Ef?page=1';
const documented = readFileSync(path.join(repoRoot, 'test/fixtures/documented/uptimerobot/getMonitorList.json'));
const parse = (body: Buffer | string) => uptimerobotAdapter.parse(input('example', URL_, body));

function refuses(body: string, message: RegExp) {
  assert.throws(
    () => parse(body),
    (err: unknown) => err instanceof AdapterError && message.test(err.message),
  );
}

describe('uptimerobot monitor list (written from the shape public readers document)', () => {
  test('monitors as components, their groups, the page indicator from the checked ones', () => {
    assert.equal(detectPlatform(documented), 'uptimerobot');
    const s = parse(documented);
    assertSnapshotInvariants(s, 'example', 'uptimerobot');
    assert.deepEqual(
      s.components!.map((c) => [c.id, c.name, c.status, c.group]),
      [
        ['778224452', 'API v2', 'operational', null],
        ['778224453', 'Website', 'major_outage', 'Public sites'],
        ['778224454', 'Mail relay', 'degraded_performance', 'Public sites'],
        // A paused monitor is not checked: its state is not known.
        ['778224455', 'Legacy FTP', 'unknown', null],
      ],
    );
    assert.equal(s.status!.indicator, 'partial_outage');
    // The list names no incidents: the source says nothing about them.
    assert.equal(s.incidents, undefined);
    assert.equal(s.incidentsAreCompleteUnresolvedSet, undefined);
  });

  test('the older `psp.monitors` shape; a page of paused monitors only is unknown, not operational', () => {
    const older = parse('{"status":"ok","psp":{"perPage":50,"monitors":[{"monitorId":1,"name":"Site","statusClass":"success"}]}}');
    assert.deepEqual(
      older.components!.map((c) => [c.name, c.status]),
      [['Site', 'operational']],
    );
    assert.equal(older.status!.indicator, 'operational');
    const paused = parse('{"status":"ok","data":[{"monitorId":1,"name":"Site","statusClass":"black"}]}');
    assert.equal(paused.status!.indicator, 'unknown');
  });

  test('hostile payloads: a parse error, never a crash', () => {
    refuses('{"status":"fail","message":"not found"}', /invalid payload at \/status/);
    refuses('{"status":"ok"}', /no monitor list/);
    refuses('{"status":"ok","data":[{"monitorId":1,"name":7,"statusClass":"success"}]}', /invalid payload at \/data\/0\/name/);
    refuses('<html><body>Status page not found</body></html>', /invalid JSON/);
    refuses(`{"status":"ok","data":[${Array(5001).fill('{"monitorId":1,"name":"a","statusClass":"success"}').join(',')}]}`, /more than 5000 monitors/);
    const odd = parse(
      '{"status":"ok","data":[{"monitorId":"7","name":"  Edge\\u0000 <b>x</b> ","statusClass":"success"},{"monitorId":7,"name":"Dup","statusClass":"danger"}]}',
    );
    // Duplicate ids are kept once; names are text as given (cleaned for control characters at ingestion).
    assert.deepEqual(
      odd.components!.map((c) => [c.id, c.name]),
      [['7', 'Edge\u0000 <b>x</b>']],
    );
  });
});
