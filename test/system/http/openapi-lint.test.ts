// @store-independent: the OpenAPI document does not depend on the store; runs in one CI leg only (docs/testing.md, "Tiers").
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import { getJson, startApp, type TestApp } from '../../helpers/app.ts';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../../..');

let t: TestApp;
before(async () => {
  t = await startApp();
});
after(async () => t.close());

test('the served OpenAPI document lints clean with the recommended ruleset', async () => {
  const doc = await getJson(`${t.url}/openapi.json`);
  assert.equal(doc.status, 200);
  // A file of this run's own (runs in parallel share no paths; docs/testing.md, "Tiers").
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vis-openapi-'));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const file = path.join(dir, 'openapi.json');
  fs.writeFileSync(file, JSON.stringify(doc.body, null, 2));
  const bin = path.join(root, 'node_modules/.bin/redocly');
  const { stdout, stderr } = await run(bin, ['lint', '--config', 'redocly.yaml', '--format', 'stylish', file], {
    cwd: root,
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
  }).catch((err: { stdout: string; stderr: string }) => {
    assert.fail(`redocly lint failed:\n${err.stdout}\n${err.stderr}`);
  });
  const out = `${stdout}\n${stderr}`;
  assert.doesNotMatch(out, /^\s*\d+:\d+\s+(warning|error)\s/m, out);
  assert.doesNotMatch(out, /You have \d+ (warning|error)/, out);
});

test('every operation has an operationId, a summary and a 4xx response', async () => {
  const doc = (await getJson(`${t.url}/openapi.json`)).body;
  for (const [p, ops] of Object.entries<any>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(ops)) {
      assert.ok(op.operationId, `${method} ${p} operationId`);
      assert.ok(op.summary, `${method} ${p} summary`);
      if (p !== '/healthz' && p !== '/readyz') {
        assert.ok(
          Object.keys(op.responses).some((c) => c.startsWith('4')),
          `${method} ${p} 4xx`,
        );
      }
    }
  }
});
