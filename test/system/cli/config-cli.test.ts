import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { createUser, loginCookie, send } from '../../helpers/users.ts';

const exec = promisify(execFile);

// `apply` and `export` of docs/services.md "Config as code", run as processes against the storage of a running app.

describe('operator CLI: config as code', () => {
  let t: TestApp;
  let orgId: string;
  let dir: string;
  before(async () => {
    t = await startApp({ env: { DELIVER: 'off' } });
    const owner = await createUser(t, 'pro');
    const cookie = await loginCookie(t, owner);
    orgId = (await send(`${t.url}/api/v1/orgs`, 'POST', { cookie, origin: t.url }, { name: 'CLI team' })).body.organisation.id;
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'config-cli-'));
  });
  after(async () => {
    await t.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const env = () => ({
    ...process.env,
    LOG_LEVEL: 'silent',
    DATA_DIR: t.config.dataDir,
    ...(t.config.databaseUrl ? { DATABASE_URL: t.config.databaseUrl, DATABASE_SCHEMA: t.config.databaseSchema! } : {}),
  });
  const cli = (args: string[]) => exec(process.execPath, ['src/cli/index.ts', ...args], { env: env() });
  const file = (name: string, text: string) => {
    const p = path.join(dir, name);
    fs.writeFileSync(p, text);
    return p;
  };

  test('dry run, apply, apply again, export then apply: the plan each time', async () => {
    const f = file(
      'ok.yaml',
      'version: 1\nwatchlists:\n  - name: infra\n    vendors: [github]\nservices:\n  - name: api\n    criticality: high\n    dependencies: [{ vendor: github }]\n',
    );
    const dry = await cli(['apply', '-f', f, '--org', orgId, '--dry-run']);
    assert.match(dry.stdout, /create\s+watchlist infra/);
    assert.match(dry.stdout, /create\s+service\s+api/);
    assert.match(dry.stdout, /dry run: nothing written/);
    assert.equal((await t.repos.services.list(orgId)).length, 0);
    const done = await cli(['apply', '-f', f, '--org', orgId]);
    assert.match(done.stdout, /2 to create.*: applied/);
    assert.equal((await t.repos.services.list(orgId))[0]?.name, 'api');
    const again = await cli(['apply', '-f', f, '--org', orgId]);
    assert.match(again.stdout, /0 to create, 0 to update, 0 to delete, 2 unchanged: nothing to change/);
    const exported = (await cli(['export', '--org', orgId])).stdout;
    assert.match(exported, /name: api/);
    const round = await cli(['apply', '-f', file('exported.yaml', exported), '--org', orgId, '--prune']);
    assert.match(round.stdout, /0 to create, 0 to update, 0 to delete, 2 unchanged/);
  });

  test('a file with problems: each with its line, exit 1, nothing applied', async () => {
    const f = file('bad.yaml', 'version: 1\nservices:\n  - name: web\n    dependencies:\n      - vendor: no-such-vendor\n');
    await assert.rejects(cli(['apply', '-f', f, '--org', orgId]), (err: { code: number; stderr: string }) => {
      assert.equal(err.code, 1);
      assert.match(err.stderr, /bad\.yaml:5: services\[0\]\.dependencies\[0\]\.vendor: unknown vendor 'no-such-vendor'/);
      return true;
    });
    assert.deepEqual(
      (await t.repos.services.list(orgId)).map((s) => s.name),
      ['api'],
    );
  });

  test('a Backstage catalog file: its annotated entities become services; prune reaches services only', async () => {
    const f = file(
      'catalog-info.yaml',
      [
        'apiVersion: backstage.io/v1alpha1\nkind: Component\nmetadata:\n  name: checkout\n  annotations:\n    vendor-status/dependencies: "stripe,github"\n    vendor-status/criticality: critical\nspec:\n  type: service',
        'kind: Group\nmetadata:\n  name: payments-team',
      ].join('\n---\n'),
    );
    const r = await cli(['apply', '-f', f, '--backstage', '--org', orgId, '--prune']);
    assert.match(r.stdout, /create\s+service\s+checkout/);
    assert.match(r.stdout, /delete\s+service\s+api/);
    assert.ok(!/watchlist/.test(r.stdout), "watchlists are not the file's business");
    const services = await t.repos.services.list(orgId);
    assert.deepEqual(
      services.map((s) => [s.name, s.criticality, s.dependencies.map((d) => d.vendor)]),
      [['checkout', 'critical', ['stripe', 'github']]],
    );
    assert.equal((await t.repos.namedWatchlists.list(orgId)).length, 1, 'the watchlist stays');
    const bad = file('bad-catalog.yaml', 'kind: Component\nmetadata:\n  name: web\n  annotations:\n    vendor-status/dependencies: "nope-vendor"\n');
    await assert.rejects(cli(['apply', '-f', bad, '--backstage', '--org', orgId]), (err: { code: number; stderr: string }) => {
      assert.equal(err.code, 1);
      assert.match(err.stderr, /component:web\.dependencies\[0\]\.vendor: unknown vendor 'nope-vendor'/);
      return true;
    });
  });
});
