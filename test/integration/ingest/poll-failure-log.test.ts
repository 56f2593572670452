import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { FetchError } from '../../../src/infra/fetch.ts';
import { parseSource } from '../../../src/ingest/adapters/index.ts';
import { createScheduler, type Logger } from '../../../src/ingest/scheduler.ts';
import { startApp, TestClock, type TestApp } from '../../helpers/app.ts';
import { waitFor } from '../../helpers/wait.ts';

// An offline start: every poll of the running loop fails. The log gets one line per failure
// at debug and one summary at info per minute, not a line per source per round
// (docs/operations.md, "Logs").

describe('the log of failed polls', () => {
  const clock = new TestClock(new Date('2026-03-02T10:00:00.000Z'));
  let t: TestApp;
  before(async () => {
    t = await startApp({ clock });
  });
  after(async () => t.close());

  test('failures are counted at debug and summed up once a minute at info', async () => {
    const lines: { level: string; obj: Record<string, unknown>; msg?: string }[] = [];
    const log: Logger = {
      debug: (obj, msg) => lines.push({ level: 'debug', obj: obj as Record<string, unknown>, msg }),
      info: (obj, msg) => lines.push({ level: 'info', obj: obj as Record<string, unknown>, msg }),
      warn: (obj, msg) => lines.push({ level: 'warn', obj: obj as Record<string, unknown>, msg }),
      error: (obj, msg) => lines.push({ level: 'error', obj: obj as Record<string, unknown>, msg }),
    };
    let calls = 0;
    const scheduler = createScheduler({
      sources: t.repos.sources,
      ingest: t.app.services.ingest,
      // No network: half the hosts refuse, the other half time out.
      fetcher: async (url) => {
        calls++;
        if (calls % 2) throw new FetchError('network', 'connect ECONNREFUSED');
        throw new FetchError('timeout', `timed out after 10000 ms (${new URL(url).host})`);
      },
      parse: parseSource,
      clock,
      owner: 'offline-test',
      log,
      settings: { concurrency: 16, perHost: 16, timeoutMs: 10_000, maxBytes: 1 << 20, defaultIntervalSeconds: 60, tickMs: 5 },
    });
    const all = (await t.repos.sources.list()).length;
    assert.ok(all >= 20, `the test catalog has sources (${all})`);
    try {
      scheduler.start();
      await waitFor(() => lines.filter((l) => l.msg === 'source poll failed').length >= all, { message: 'every source failed once', timeoutMs: 20_000 });
      const failedAtDebug = lines.filter((l) => l.msg === 'source poll failed');
      assert.ok(
        failedAtDebug.every((l) => l.level === 'debug'),
        'each failure at debug',
      );
      assert.deepEqual(
        lines.filter((l) => l.level === 'info' && l.msg !== 'ingestion scheduler started'),
        [],
        'no info line before the minute is over',
      );

      clock.advance(60_000);
      await waitFor(() => lines.some((l) => l.level === 'info' && 'pollFailures' in l.obj), { message: 'the summary', timeoutMs: 5_000 });
    } finally {
      await scheduler.stop();
    }
    const summaries = lines.filter((l) => l.level === 'info' && 'pollFailures' in l.obj);
    const failed = lines.filter((l) => l.msg === 'source poll failed').length;
    const total = summaries.reduce((n, l) => n + (l.obj.pollFailures as { failed: number }).failed, 0);
    assert.equal(total, failed, 'the summaries count every failure once');
    const first = summaries[0]!.obj.pollFailures as {
      failed: number;
      sources: number;
      byError: Record<string, number>;
      vendors: string[];
      moreVendors: number;
    };
    assert.ok(first.failed >= all);
    assert.ok(first.byError['connect ECONNREFUSED']! > 0);
    assert.equal(first.vendors.length, 5);
    assert.ok(first.moreVendors > 0);
    assert.match(summaries[0]!.msg!, /^\d+ source polls failed in \d+ s \(.*\); vendors: .* and \d+ more vendors$/);
    // Far fewer info lines than failures: one a minute (and one at stop).
    assert.ok(summaries.length <= 2, `${summaries.length} summaries`);
  });
});
