// `cli catalog verify` as an operator runs it (a child process) against the simulated
// fleet on loopback: one entry that holds, one whose page redirects to another host, one
// whose URL serves another platform, one that is gone. The store is never touched.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { CatalogVendor } from '../../src/domain/records.ts';
import { createSimulator, type Simulator } from '../../src/ingest/simulator/index.ts';
import { readCatalog } from '../../src/services/vendors/catalog-loader.ts';
import { QUIET } from '../helpers/fleet.ts';
import { cli } from '../helpers/cli.ts';

const entry = (slug: string, type: CatalogVendor['sources'][number]['type'], url: string): CatalogVendor => ({
  slug,
  name: slug,
  website: 'https://example.test',
  category: 'devtools',
  description: 'Test vendor.',
  statusPageUrl: 'https://example.test',
  availableDataTypes: ['incidents'],
  sources: [{ type, url }],
  compliance: { sourceUrl: null, items: [] },
});

describe('cli catalog verify', () => {
  let home: Simulator;
  let elsewhere: Simulator;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vis-verify-'));
  const dataDir = path.join(dir, 'data');
  const catalogFile = path.join(dir, 'vendors.json');
  const reportFile = path.join(dir, 'report.json');
  let env: Record<string, string>;

  before(async () => {
    fs.mkdirSync(dataDir);
    const real = readCatalog();
    const pick = (slugs: string[]) => real.filter((v) => slugs.includes(v.slug));
    const clock = { now: () => new Date() };
    home = createSimulator({ catalog: pick(['github', 'neon', 'datadog']), clock, seed: 3, rates: QUIET, tag: 'v' });
    await home.listen(0, '127.0.0.1');
    // The same fleet on another loopback address: another host for the redirect.
    elsewhere = createSimulator({ catalog: pick(['datadog']), clock, seed: 3, rates: QUIET, tag: 'v' });
    await elsewhere.listen(0, '127.0.0.2');
    const movedPath = '/statuspage-v2/datadog/api/v2/summary.json';
    home.setFault(movedPath, { kind: 'redirect', location: `${elsewhere.url}${movedPath}`, status: 301 });
    const catalog = [
      entry('okvendor', 'statuspage-v2', `${home.url}/statuspage-v2/github/api/v2/summary.json`),
      entry('movedvendor', 'statuspage-v2', `${home.url}${movedPath}`),
      // Declared Statuspage, but the URL answers in status.io's format.
      entry('switchedvendor', 'statuspage-v2', `${home.url}/statusio/neon/1.0/status/6878fc85709daa75be6c7e3c`),
      entry('deadvendor', 'statuspage-v2', `${home.url}/statuspage-v2/nobody/api/v2/summary.json`),
    ];
    fs.writeFileSync(catalogFile, JSON.stringify(catalog));
    // The moved entry redirects to another host, which the redirect guard checks like any outbound URL (docs/security.md).
    env = { LOG_LEVEL: 'silent', DATA_DIR: dataDir, CATALOG_FILE: catalogFile, INGEST_TIMEOUT_MS: '8000', OUTBOUND_ALLOW_PRIVATE: '127.0.0.2' };
  });

  after(async () => {
    await home.close();
    await elsewhere.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('classifies ok, moved, wrong platform and dead; prints a table and writes the JSON report', async () => {
    const r = await cli(['catalog', 'verify', '--json', reportFile, '--all'], env);
    assert.equal(r.code, 1, `exit 1 when an entry is broken\n${r.stdout}\n${r.stderr}`);
    const report = JSON.parse(fs.readFileSync(reportFile, 'utf8')) as {
      totals: Record<string, number>;
      results: { vendor: string; verdict: string; detected: string | null; finalUrl: string | null; httpStatus: number | null }[];
    };
    assert.deepEqual(report.totals, { ok: 1, moved: 1, 'wrong-platform': 1, dead: 1 });
    const by = new Map(report.results.map((x) => [x.vendor, x]));
    assert.equal(by.get('okvendor')?.verdict, 'ok');
    assert.equal(by.get('okvendor')?.detected, 'statuspage-v2');
    assert.equal(by.get('movedvendor')?.verdict, 'moved');
    assert.match(by.get('movedvendor')?.finalUrl ?? '', /^http:\/\/127\.0\.0\.2:\d+\//);
    assert.equal(by.get('switchedvendor')?.verdict, 'wrong-platform');
    assert.equal(by.get('switchedvendor')?.detected, 'statusio');
    assert.equal(by.get('deadvendor')?.verdict, 'dead');
    assert.equal(by.get('deadvendor')?.httpStatus, 404);
    for (const word of ['ok', 'moved', 'wrong-platform', 'dead']) assert.match(r.stdout, new RegExp(`^${word}\\s`, 'm'));
    assert.match(r.stdout, /4 sources of 4 vendors: 1 ok, 1 moved, 1 wrong-platform, 1 dead\. 3 vendors need attention/);
    // Verifying never opens the store: nothing was written to the data directory.
    assert.deepEqual(fs.readdirSync(dataDir), []);
  });

  test('a catalog that holds exits 0 and, without --all, lists no rows', async () => {
    const r = await cli(['catalog', 'verify', '--vendor', 'okvendor'], env);
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(r.stdout, /VERDICT/);
    assert.match(r.stdout, /1 sources of 1 vendors: 1 ok, 0 moved, 0 wrong-platform, 0 dead/);
  });

  test('the demo fleet serves every new source type in a format its adapter reads: all ok', async () => {
    const slugs = ['slack', 'heroku', 'gitlab', 'salesforce', 'postmark', 'neon', 'notion'];
    const picked = readCatalog().filter((v) => slugs.includes(v.slug));
    const demo = createSimulator({ catalog: picked, clock: { now: () => new Date() }, seed: 5, rates: QUIET, tag: 'd' });
    await demo.listen(0, '127.0.0.1');
    try {
      for (const slug of slugs) demo.fleet.openIncident(slug);
      const file = path.join(dir, 'demo.json');
      fs.writeFileSync(file, JSON.stringify(demo.rewriteCatalog(picked)));
      const out = path.join(dir, 'demo-report.json');
      const r = await cli(['catalog', 'verify', '--json', out], { ...env, CATALOG_FILE: file });
      assert.equal(r.code, 0, `${r.stdout}\n${r.stderr}`);
      const report = JSON.parse(fs.readFileSync(out, 'utf8')) as { results: { type: string; verdict: string; detected: string | null }[] };
      const types = new Set(report.results.map((x) => x.type));
      for (const t of ['slack-status', 'heroku-status', 'statusio', 'salesforce-trust', 'sorry', 'incidentio']) assert.ok(types.has(t), `${t} polled`);
      for (const x of report.results.filter((x) => x.type !== 'advisory-feed')) assert.equal(x.detected, x.type, `${x.type} detected as itself`);
    } finally {
      await demo.close();
    }
  });

  test('usage errors exit 2', async () => {
    assert.equal((await cli(['catalog', 'check'], env)).code, 2);
    assert.equal((await cli(['catalog', 'verify', '--concurrency', '0'], env)).code, 2);
    assert.equal((await cli(['catalog', 'verify', '--vendor', 'nobody'], env)).code, 2);
  });
});
