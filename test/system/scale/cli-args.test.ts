// @store-independent: argument and configuration parsing, no store; runs in one CI leg only (docs/testing.md, "Tiers").
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { describe, test } from 'node:test';
import { parseServerArgs } from '../../../src/cli-args.ts';
import { ConfigError, loadConfig } from '../../../src/infra/config.ts';
import { ROOT } from './instances.ts';
import { runtimeEnv } from '../../helpers/child-env.ts';

// The server's flags and the scale-out settings: parsed and validated like the
// environment (a mistake stops start-up with exit 1 and a message naming the setting).

describe('server flags and scale-out settings', () => {
  test('--role in its spellings; it overrides ROLES', () => {
    assert.deepEqual(parseServerArgs([]), { roles: null });
    assert.deepEqual(parseServerArgs(['--role', 'api']), { roles: ['api'] });
    assert.deepEqual(parseServerArgs(['--role', 'ingest,deliver']), { roles: ['ingest', 'deliver'] });
    assert.deepEqual(parseServerArgs(['--role=deliver, ingest']), { roles: ['deliver', 'ingest'] });
    assert.deepEqual(parseServerArgs(['--roles', 'api,api']), { roles: ['api'] });
    const bad: [string[], RegExp][] = [
      [['--role', 'worker'], /^--role: unknown role 'worker' \(roles: api, ingest, deliver\)$/],
      [['--role'], /^--role: expects a comma-separated list/],
      [['--role', '--verbose'], /^--role: expects/],
      [['--role='], /^--role: needs at least one role/],
      [['--role', 'api', '--role', 'ingest'], /^--role: given twice/],
      [['--port', '1'], /^--port: unknown argument \(usage: npm start -- \[--role api,ingest,deliver\]\)$/],
    ];
    for (const [argv, message] of bad) {
      assert.throws(
        () => parseServerArgs(argv),
        (err: unknown) => err instanceof ConfigError && message.test(err.message),
        argv.join(' '),
      );
    }
  });

  test('INGEST_LEASE_SECONDS defaults to three poll deadlines plus 30 s and must outlast one; SHUTDOWN_TIMEOUT_SECONDS defaults to 10', () => {
    assert.equal(loadConfig({}).ingestLeaseSeconds, 60);
    assert.equal(loadConfig({ INGEST_TIMEOUT_MS: '4500' }).ingestLeaseSeconds, 44);
    assert.equal(loadConfig({ INGEST_LEASE_SECONDS: '5', INGEST_TIMEOUT_MS: '4000' }).ingestLeaseSeconds, 5);
    assert.throws(
      () => loadConfig({ INGEST_LEASE_SECONDS: '5', INGEST_TIMEOUT_MS: '5000' }),
      /^ConfigError: INGEST_LEASE_SECONDS: must be longer than a poll's deadline/,
    );
    assert.throws(() => loadConfig({ INGEST_LEASE_SECONDS: '0' }), /INGEST_LEASE_SECONDS: must be between 1 and 86400/);
    assert.equal(loadConfig({}).shutdownTimeoutSeconds, 10);
    assert.equal(loadConfig({ SHUTDOWN_TIMEOUT_SECONDS: '30' }).shutdownTimeoutSeconds, 30);
    assert.throws(() => loadConfig({ SHUTDOWN_TIMEOUT_SECONDS: 'soon' }), /SHUTDOWN_TIMEOUT_SECONDS: expected an integer/);
    assert.throws(() => loadConfig({ ROLES: 'api,web' }), /^ConfigError: ROLES: unknown role 'web'/);
  });

  test('the server process refuses a bad --role with exit 1 and the message', async () => {
    const r = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = execFile(
        process.execPath,
        ['src/server.ts', '--role', 'api,worker'],
        { cwd: ROOT, env: runtimeEnv(), timeout: 30_000 },
        (_err, _out, stderr) => resolve({ code: child.exitCode, stderr }),
      );
    });
    assert.equal(r.code, 1);
    assert.equal(r.stderr.trim(), "Configuration error: --role: unknown role 'worker' (roles: api, ingest, deliver)");
  });
});
