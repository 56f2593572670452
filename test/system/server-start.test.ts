import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, afterEach, describe, test } from 'node:test';
import { dropSchema, uniqueName } from '../helpers/app.ts';
import { runtimeEnv } from '../helpers/child-env.ts';
import { cli } from '../helpers/cli.ts';

// The server process as a newcomer and an operator meet it (docs/operations.md
// "Start-up banner", "Logs", "Demo"): `npm run demo` prints a login and a key that
// work, a port in use is one line, `--help` answers, logs are JSON or human-readable.

const root = path.resolve(import.meta.dirname, '../..');
const schemas: string[] = [];
/** Every server started; a test that fails midway leaves none running (it would keep this file alive). */
const started = new Set<ChildProcess>();

interface Server {
  child: ChildProcess;
  out(): string;
  err(): string;
  /** Resolves with the match once stdout matches, rejects at the deadline or on exit. */
  waitFor(pattern: RegExp, ms?: number): Promise<RegExpMatchArray>;
  exited: Promise<number>;
  stop(): Promise<number>;
}

function storeEnv(dataDir: string): Record<string, string> {
  const env: Record<string, string> = { DATA_DIR: dataDir };
  if (process.env.DATABASE_URL) {
    const schema = uniqueName('start');
    schemas.push(schema);
    Object.assign(env, { DATABASE_URL: process.env.DATABASE_URL, DATABASE_SCHEMA: schema });
  }
  if (process.env.REDIS_URL) Object.assign(env, { REDIS_URL: process.env.REDIS_URL, REDIS_PREFIX: `${uniqueName('start')}:` });
  return env;
}

function start(env: Record<string, string>, args: string[] = []): Server {
  const child = spawn(process.execPath, ['src/server.ts', ...args], {
    cwd: root,
    env: { ...runtimeEnv(), HOST: '127.0.0.1', PORT: '0', PASSWORD_HASH_COST: '10', INGEST_WORKER: 'false', ...env },
  });
  started.add(child);
  let stdout = '';
  let stderr = '';
  const waiters = new Set<() => void>();
  child.stdout!.on('data', (d) => {
    stdout += d;
    for (const w of waiters) w();
  });
  child.stderr!.on('data', (d) => (stderr += d));
  const exited = new Promise<number>((resolve) => child.on('exit', (code) => resolve(code ?? -1)));
  return {
    child,
    out: () => stdout,
    err: () => stderr,
    exited,
    waitFor(pattern, ms = 60_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const m = stdout.match(pattern);
          if (!m) return;
          cleanup();
          resolve(m);
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`no ${pattern} within ${ms} ms\nstdout:\n${stdout}\nstderr:\n${stderr}`));
        }, ms);
        const cleanup = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        void exited.then((code) => {
          if (!waiters.has(check)) return;
          cleanup();
          reject(new Error(`exited ${code} before ${pattern}\nstdout:\n${stdout}\nstderr:\n${stderr}`));
        });
        waiters.add(check);
        check();
      });
    },
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'vis-start-'));
const noStackTrace = (s: string) => assert.doesNotMatch(s, /\n\s+at .+:\d+:\d+/, s);

afterEach(async () => {
  await Promise.all(
    [...started].map((c) => {
      started.delete(c);
      if (c.exitCode !== null || c.signalCode !== null) return;
      c.kill('SIGKILL');
      return new Promise((resolve) => c.once('exit', resolve));
    }),
  );
});

after(async () => {
  if (process.env.DATABASE_URL) for (const s of schemas) await dropSchema(process.env.DATABASE_URL, s);
});

describe('server start', () => {
  test('npm run demo: the printed API key works at once, the pages say demo, and a restart prints the same login', async () => {
    const dataDir = tmp();
    const env = { DEMO: 'true', ...storeEnv(dataDir) };
    const first = start(env);
    let key: string;
    try {
      key = (await first.waitFor(/API key\s+(vis_\S+)/))[1]!;
      const base = (await first.waitFor(/Dashboard\s+(http:\/\/\S+?)\/\s/))[1]!;
      const password = (await first.waitFor(/Demo login\s+demo@example\.com \/ (\S+)/))[1]!;
      assert.match(first.out(), /API docs\s+http:\/\/\S+\/docs/);
      assert.match(first.out(), /MCP endpoint\s+http:\/\/\S+\/mcp/);
      const data = await fetch(`${base}/api/v1/infrastructure/incidents?limit=5`, { headers: { 'x-api-key': key } });
      assert.equal(data.status, 200);
      const account = (await (await fetch(`${base}/api/v1/account`, { headers: { 'x-api-key': key } })).json()) as { account: { email: string } };
      assert.equal(account.account.email, 'demo@example.com');
      const login = await fetch(`${base}/api/v1/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'demo@example.com', password }),
      });
      assert.equal(login.status, 200);
      assert.match(await (await fetch(`${base}/`)).text(), /data-demo-banner/);
    } finally {
      assert.equal(await first.stop(), 0, first.err());
    }
    noStackTrace(first.err());
    const second = start(env);
    try {
      assert.equal((await second.waitFor(/API key\s+(vis_\S+)/))[1], key, 'the login is created once');
      const base = (await second.waitFor(/Dashboard\s+(http:\/\/\S+?)\/\s/))[1]!;
      assert.equal((await fetch(`${base}/api/v1/infrastructure/vendor-list`, { headers: { 'x-api-key': key } })).status, 200);
    } finally {
      await second.stop();
    }
    noStackTrace(second.err());
  });

  test('npm run cli -- --demo ingest --once beside a running demo: refused in one line, and --force re-points nothing', async () => {
    const dataDir = tmp();
    const env = { DEMO: 'true', ...storeEnv(dataDir) };
    const demo = start(env);
    const cliEnv = { LOG_LEVEL: 'silent', ...env };
    const urls = async () => {
      const r = await cli(['--demo', 'sources', '--json'], cliEnv);
      assert.equal(r.code, 0, r.stderr);
      return (JSON.parse(r.stdout) as { id: string; url: string }[]).map((s) => `${s.id} ${s.url}`).sort();
    };
    try {
      await demo.waitFor(/Dashboard\s+(http:\/\/\S+?)\/\s/);
      const before = await urls();
      assert.ok(before.length > 1000, 'the whole demo catalog');

      const refused = await cli(['--demo', 'ingest', '--once', '--vendor', 'github'], cliEnv);
      assert.equal(refused.code, 1);
      assert.deepEqual(refused.stderr.trim().split('\n'), [
        `The demo server (pid ${demo.child.pid}) is using this store; it polls its fleet itself. Stop it first, or add --force to poll its fleet once from here without changing its sources.`,
      ]);
      assert.deepEqual(await urls(), before, 'nothing re-pointed');

      const forced = await cli(['--demo', 'ingest', '--once', '--vendor', 'github', '--force'], cliEnv);
      assert.equal(forced.code, 0, forced.stderr);
      assert.match(forced.stdout, /0 failed/, 'polled the running demo’s own fleet');
      assert.deepEqual(await urls(), before, 'still nothing re-pointed');
    } finally {
      assert.equal(await demo.stop(), 0, demo.err());
    }
    // Once the demo has stopped, its mark is gone and the CLI works on the store alone.
    assert.equal(fs.existsSync(path.join(dataDir, 'demo-running.json')), false);
  });

  test('a port in use is one clear line on stderr and exit 1', async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as net.AddressInfo).port;
    try {
      const s = start({ PORT: String(port), INGEST: 'off', DELIVER: 'false', LOG_LEVEL: 'warn', ...storeEnv(tmp()) });
      assert.equal(await s.exited, 1);
      assert.deepEqual(s.err().trim().split('\n'), [
        `Port ${port} is already in use (127.0.0.1:${port}): stop the other process or choose another port with PORT=…`,
      ]);
    } finally {
      blocker.close();
    }
  });

  test('--help prints the options and exits 0', async () => {
    const s = start({}, ['--help']);
    assert.equal(await s.exited, 0);
    assert.match(s.out(), /^usage: npm start -- \[--role/);
    assert.match(s.out(), /--role LIST/);
    assert.match(s.out(), /LOG_FORMAT/);
  });

  test('LOG_FORMAT=json: only JSON lines, request lines at debug only; LOG_FORMAT=pretty: readable lines and the banner', async () => {
    const json = start({ LOG_FORMAT: 'json', LOG_LEVEL: 'info', INGEST: 'off', DELIVER: 'false', ...storeEnv(tmp()) });
    const port = (await json.waitFor(/"port":(\d+)/))[1];
    assert.equal((await fetch(`http://127.0.0.1:${port}/api/v1/infrastructure/vendor-list`)).status, 200);
    await json.stop();
    const lines = json.out().trim().split('\n');
    for (const l of lines) assert.doesNotThrow(() => JSON.parse(l), l);
    assert.ok(lines.some((l) => JSON.parse(l).msg.startsWith('started with roles')));
    assert.ok(!lines.some((l) => JSON.parse(l).msg === 'request completed'), 'no request lines at info');

    const debug = start({ LOG_FORMAT: 'json', LOG_LEVEL: 'debug', INGEST: 'off', DELIVER: 'false', ...storeEnv(tmp()) });
    const port2 = (await debug.waitFor(/"port":(\d+)/))[1];
    await fetch(`http://127.0.0.1:${port2}/api/v1/infrastructure/vendor-list`);
    const completed = JSON.parse((await debug.waitFor(/^.*"request completed".*$/m))[0]) as { level: number; res: { statusCode: number } };
    assert.equal(completed.level, 20);
    assert.equal(completed.res.statusCode, 200);
    await debug.stop();

    const pretty = start({ LOG_FORMAT: 'pretty', INGEST: 'off', DELIVER: 'false', ...storeEnv(tmp()) });
    await pretty.waitFor(/Dashboard\s+http:\/\/127\.0\.0\.1:\d+\//);
    await pretty.stop();
    assert.match(pretty.out(), /INFO.*started with roles api,ingest,deliver/);
    assert.match(pretty.out(), /Store\s+(SQLite in|PostgreSQL)/);
    assert.ok(
      !pretty
        .out()
        .split('\n')
        .some((l) => l.startsWith('{')),
      'no JSON lines',
    );
    noStackTrace(pretty.err());
  });
});
