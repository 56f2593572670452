import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { startApp, type TestApp } from '../../helpers/app.ts';

const exec = promisify(execFile);

// `npm run cli -- probes` (docs/early-warning.md "Probes") run as an operator runs it, against
// the store of a running app: the catalog's probes, `unknown` with no figures before any
// sample, then a probe's measured state, latency and error rate.

describe('operator CLI: probes', () => {
  let t: TestApp;
  before(async () => {
    t = await startApp();
  });
  after(async () => t?.close());

  const env = () => ({
    ...process.env,
    LOG_LEVEL: 'silent',
    DATA_DIR: t.config.dataDir,
    ...(t.config.databaseUrl ? { DATABASE_URL: t.config.databaseUrl, DATABASE_SCHEMA: t.config.databaseSchema! } : {}),
  });
  const cli = (args: string[]) => exec('npm', ['run', '-s', 'cli', '--', 'probes', ...args], { env: env() });

  test('lists the probes; unknown before a sample, then state, p50/p99 and error rate as measured', async () => {
    const before = JSON.parse((await cli(['--vendor', 'stripe', '--json'])).stdout) as any[];
    assert.ok(before.length >= 1);
    assert.ok(before.every((r) => r.state === 'unknown' && r.p50Ms === null && r.errorRate === null));
    const [p] = await t.repos.probes.list('stripe');
    const owner = 'cli-test';
    const [claimed] = (await t.repos.probes.claim({ owner, now: new Date(), leaseMs: 60_000, limit: 100 })).filter((x) => x.id === p!.id);
    assert.ok(claimed);
    const at = new Date().toISOString();
    await t.app.services.earlyWarning.probes.record(claimed, owner, { at, ok: true, latencyMs: 120, reason: null });
    const after = JSON.parse((await cli(['--vendor', 'stripe', '--json'])).stdout) as any[];
    const row = after.find((r) => r.id === p!.id);
    assert.deepEqual([row.state, row.p50Ms, row.p99Ms, row.errorRate, row.samples], ['ok', 120, 120, 0, 1]);
    const table = (await cli(['--vendor', 'stripe'])).stdout;
    assert.match(table, /STATE\s+VENDOR\s+KIND\s+P50\s+P99\s+ERRORS/);
    assert.match(table, /ok\s+stripe\s+\w+\s+120 ms\s+120 ms\s+0\.0 %/);
    assert.match((await cli(['--vendor', 'no-such-vendor'])).stdout, /No probes for 'no-such-vendor'/);
  });
});
