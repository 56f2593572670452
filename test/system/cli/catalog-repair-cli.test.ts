import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startApp, type TestApp } from '../../helpers/app.ts';

const exec = promisify(execFile);

// `npm run cli -- catalog repair` (docs/catalog.md "Self-healing") run as an operator runs it,
// against the store of a running app: a scan probes the page of a vendor whose sources keep
// failing (served on loopback with a recorded Better Stack payload naming another company),
// lists the proposal, and the operator accepts it; unknown vendors are an error, exit 1.

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../shared/fixtures/upstream');
const BETTERSTACK = fs.readFileSync(path.join(FIXTURES, 'betterstack/huggingface/2026-07-19/index.json'));

describe('operator CLI: catalog repair', () => {
  let t: TestApp;
  let server: http.Server;
  let dir: string;
  before(async () => {
    server = http.createServer((req, res) => {
      if (req.url === '/globex/index.json') {
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(BETTERSTACK);
      }
      res.writeHead(404).end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const page = `http://127.0.0.1:${(server.address() as AddressInfo).port}/globex`;
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vis-repair-cli-'));
    const catalogFile = path.join(dir, 'vendors.json');
    fs.writeFileSync(
      catalogFile,
      JSON.stringify([
        {
          slug: 'globex',
          name: 'Globex',
          website: 'https://example.com',
          category: 'cloud',
          description: 'A vendor of the repair CLI test.',
          statusPageUrl: page,
          availableDataTypes: ['incidents', 'maintenance'],
          sources: [{ type: 'statuspage-v2', url: `${page}/api/v2/summary.json` }],
          compliance: { sourceUrl: 'https://example.com', items: [] },
        },
      ]),
    );
    t = await startApp({ catalogFile });
    const since = new Date(Date.now() - 8 * 3_600_000).toISOString();
    await t.store.db.updateTable('sources').set({ consecutive_failures: 30, failing_since: since }).where('vendor', '=', 'globex').execute();
  });
  after(async () => {
    await t?.close();
    await new Promise((r) => server?.close(r));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const env = () => ({
    ...process.env,
    LOG_LEVEL: 'silent',
    OUTBOUND_ALLOW_PRIVATE: '127.0.0.1',
    DATA_DIR: t.config.dataDir,
    ...(t.config.databaseUrl ? { DATABASE_URL: t.config.databaseUrl, DATABASE_SCHEMA: t.config.databaseSchema! } : {}),
  });
  const cli = (args: string[]) => exec('npm', ['run', '-s', 'cli', '--', 'catalog', 'repair', ...args], { env: env() });

  test('nothing before a scan; a scan proposes; the operator accepts and the sources change', async () => {
    assert.match((await cli([])).stdout, /No repairs/);
    const scanned = await cli(['--scan']);
    assert.match(scanned.stderr, /1 vendors probed, 0 repaired, 1 proposed/);
    assert.match(scanned.stdout, /OUTCOME\s+VENDOR\s+CHECKED\s+PAGE NAME/);
    assert.match(scanned.stdout, /proposed\s+globex\s+\S+\s+Hugging Face/);
    assert.match(scanned.stdout, /1 proposed: accept with --accept SLUG/);
    const json = JSON.parse((await cli(['--json'])).stdout) as any[];
    assert.deepEqual([json[0].vendor, json[0].outcome, json[0].platform], ['globex', 'proposed', 'betterstack']);

    assert.match((await cli(['--accept', 'globex'])).stdout, /globex: accepted\. Now polling betterstack http:\/\/127\.0\.0\.1:\d+\/globex\/index\.json/);
    const sources = await t.store.db.selectFrom('sources').select(['type', 'guarded']).where('vendor', '=', 'globex').execute();
    assert.deepEqual(
      sources.map((s) => [s.type, Number(s.guarded)]),
      [['betterstack', 1]],
    );

    const unknown = await cli(['--accept', 'no-such-vendor']).catch((err) => err);
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /No repair was found for 'no-such-vendor'/);
  });
});
