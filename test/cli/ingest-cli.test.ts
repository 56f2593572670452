import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { uniqueName } from '../helpers/app.ts';
import { cli } from '../helpers/cli.ts';
import { startFleet, type TestFleet } from '../helpers/fleet.ts';

// The operator CLI as an operator runs it (a child process), against the simulated
// fleet via CATALOG_FILE and its own store.

describe('operator CLI: migrate, ingest --once, sources', () => {
  let fleet: TestFleet;
  let env: Record<string, string>;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vis-cli-'));
  const schema = process.env.DATABASE_URL ? uniqueName('cli') : null;

  before(async () => {
    fleet = await startFleet(['github', 'perplexity'], { clock: { now: () => new Date() }, history: true });
    fleet.sim.fleet.openIncident('github');
    env = {
      LOG_LEVEL: 'silent',
      DATA_DIR: dataDir,
      CATALOG_FILE: fleet.catalogFile,
      ...(schema ? { DATABASE_URL: process.env.DATABASE_URL!, DATABASE_SCHEMA: schema } : {}),
    };
  });
  after(async () => {
    await fleet.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (schema) {
      const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await client.connect();
      await client.query(`drop schema if exists "${schema}" cascade`);
      await client.end();
    }
  });

  test('migrate applies the migrations', async () => {
    const r = await cli(['migrate'], env);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /Migrations applied/);
  });

  test('ingest --once --vendor polls that vendor and reports each source on a plain line', async () => {
    const r = await cli(['ingest', '--once', '--vendor', 'github'], env);
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stdout.trim().split('\n');
    const perSource = lines.filter((l) => /^(updated|unchanged|not-modified|FAILED|skipped)\s/.test(l));
    assert.equal(perSource.length, fleet.catalog.find((v) => v.slug === 'github')!.sources.length);
    assert.ok(perSource.every((l) => /\sgithub\s/.test(l)));
    assert.match(lines.at(-1)!, /^Round finished in \d+ ms: 4 sources, \d+ updated, \d+ unchanged, 0 failed, 0 skipped; 1 events written\.$/);
    assert.ok(!r.stdout.includes('\r'), 'no progress bar when the output is not a terminal');
  });

  test('sources lists health, and shows a failing source as failing', async () => {
    fleet.sim.setFault(fleet.catalog.find((v) => v.slug === 'perplexity')!.sources[0]!.url, { kind: 'status', status: 500 });
    const round = await cli(['ingest', '--once'], env);
    assert.equal(round.code, 0, round.stderr);
    assert.match(round.stdout, /^FAILED\s+perplexity\s+instatus\s+500 .* HTTP 500$/m);
    const r = await cli(['sources'], env);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^STATE\s+VENDOR\s+TYPE\s+LAST SUCCESS/m);
    assert.match(r.stdout, /^failing\s+perplexity\s+instatus\s+-\s+1\s/m);
    assert.match(r.stdout, /^ok\s+github\s+statuspage-v2\s+\d{4}-/m);
    assert.match(r.stdout, /5 sources, 1 failing\.$/m);
  });

  test('mistakes are usage errors (exit 2)', async () => {
    const noOnce = await cli(['ingest'], env);
    assert.equal(noOnce.code, 2);
    assert.match(noOnce.stderr, /--once/);
  });
});
