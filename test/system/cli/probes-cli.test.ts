import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { createUser, loginCookie, send } from '../../helpers/users.ts';

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

  test("--org lists that organisation's private probes with their state, the credential as name and last four only", async () => {
    const u = await createUser(t, 'pro');
    const cookie = await loginCookie(t, u);
    const s = { cookie, origin: t.url };
    const orgId = (await send(`${t.url}/api/v1/orgs`, 'POST', s, { name: 'CLI team' })).body.organisation.id;
    assert.equal((await send(`${t.url}/api/v1/orgs/${orgId}/switch`, 'POST', s)).status, 200);
    const secret = 'Bearer cli-private-probe-secret-9876';
    const made = await send(`${t.url}/api/v1/orgs/${orgId}/probes`, 'POST', s, {
      vendor: 'github',
      kind: 'http',
      target: 'https://api.github.com/user',
      credential: { name: 'Authorization', value: secret },
    });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const empty = JSON.parse((await cli(['--org', orgId, '--json'])).stdout) as any[];
    assert.deepEqual(
      empty.map((r) => [r.id, r.state, r.samples, r.p50Ms]),
      [[made.body.probe.id, 'unknown', 0, null]],
    );
    const owner = 'cli-private';
    const [claimed] = (await t.repos.probes.claim({ owner, now: new Date(), leaseMs: 60_000, limit: 500 })).filter((x) => x.id === made.body.probe.id);
    assert.ok(claimed);
    await t.app.services.earlyWarning.probes.record(claimed, owner, { at: new Date().toISOString(), ok: false, latencyMs: null, reason: 'status 401' });
    const json = (await cli(['--org', orgId, '--json'])).stdout;
    const [row] = JSON.parse(json) as any[];
    assert.deepEqual([row.state, row.reason, row.credential], ['credential_rejected', 'status 401', { name: 'authorization', lastFour: '9876' }]);
    const table = (await cli(['--org', orgId])).stdout;
    assert.match(table, /credential_rejected\s+github\s+http/);
    assert.match(table, /authorization …9876/);
    for (const out of [json, table]) assert.ok(!out.includes('cli-private-probe-secret'), 'the credential is never printed');
    // The instance-wide list is the catalog's alone.
    const all = JSON.parse((await cli(['--json'])).stdout) as any[];
    assert.ok(!all.some((r) => r.id === made.body.probe.id));
    assert.match((await cli(['--org', 'no-such-org'])).stdout, /No private probes for organisation 'no-such-org'/);
  });
});
