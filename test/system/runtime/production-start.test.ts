// @store-independent
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { MIN_NODE_MAJOR } from '../../../src/runtime.ts';
import { runtimeEnv } from '../../helpers/child-env.ts';
import { waitFor } from '../../helpers/wait.ts';

// The service started the production way, through the README's `npm start`
// (docs/deployment.md, "Runtime"): the compiled dist/ on Node 24, no TypeScript loader in
// the process, the ingestion worker thread running from the build too.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const linux = process.platform === 'linux';

interface LogLine {
  msg?: string;
  pid?: number;
  port?: number;
  component?: string;
}

describe('npm start (production)', { skip: !linux && 'reads the server process from /proc' }, () => {
  let npm: ChildProcess;
  let dataDir: string;
  const lines: LogLine[] = [];
  let stderr = '';

  /** A log line of the server; ends early when npm start has exited. */
  const logLine = (what: string, find: (l: LogLine) => boolean) =>
    waitFor(
      () => {
        const found = lines.find(find);
        if (found === undefined && npm.exitCode !== null) throw new Error(`npm start exited (${npm.exitCode}) before ${what}:\n${stderr}`);
        return found;
      },
      { message: () => `${what}:\n${stderr}`, timeoutMs: 240_000, intervalMs: 100 },
    );

  before(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vis-prod-start-'));
    // No vendors: the worker thread starts and schedules, and nothing leaves the machine.
    const catalog = path.join(dataDir, 'catalog.json');
    fs.writeFileSync(catalog, '[]\n');
    const env: Record<string, string> = {
      ...runtimeEnv(),
      HOME: process.env.HOME ?? os.homedir(),
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      CATALOG_FILE: catalog,
      LOG_LEVEL: 'info',
      npm_config_update_notifier: 'false',
    };
    npm = spawn('npm', ['start'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let buf = '';
    npm.stdout!.on('data', (d: Buffer) => {
      buf += d.toString();
      let nl: number;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        if (line.startsWith('{')) lines.push(JSON.parse(line) as LogLine);
      }
    });
    npm.stderr!.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
  });

  after(async () => {
    if (npm.exitCode === null) {
      const exited = new Promise((r) => npm.once('exit', r));
      npm.kill('SIGTERM');
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([exited, new Promise((r) => (timer = setTimeout(r, 20_000)))]);
      clearTimeout(timer);
      if (npm.exitCode === null) npm.kill('SIGKILL');
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  test('answers /healthz from dist/server.js on Node 24, without tsx', async () => {
    const started = await logLine('the listening line', (l) => typeof l.port === 'number' && !!l.msg?.startsWith('started with roles'));
    const res = await fetch(`http://127.0.0.1:${started.port}/healthz`);
    assert.equal(res.status, 200);
    await res.body?.cancel();

    // The process that listens: `npm start` execs node on the build, nothing else on its command line.
    const pid = started.pid!;
    const argv = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
    assert.deepEqual(argv.slice(1), ['dist/server.js'], `server command line: ${argv.join(' ')}`);
    const environ = fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
    const nodeOptions = environ.find((e) => e.startsWith('NODE_OPTIONS=')) ?? '';
    assert.doesNotMatch(nodeOptions, /tsx/);
    // The runtime npm gave it is the supported one.
    const exe = fs.readlinkSync(`/proc/${pid}/exe`);
    const version = await new Promise<string>((resolve, reject) => {
      const c = spawn(exe, ['--version'], { stdio: ['ignore', 'pipe', 'inherit'] });
      let out = '';
      c.stdout.on('data', (d: Buffer) => (out += d.toString()));
      c.on('exit', () => resolve(out.trim()));
      c.on('error', reject);
    });
    assert.ok(Number(version.replace(/^v/, '').split('.')[0]) >= MIN_NODE_MAJOR, `${exe} is ${version}`);

    // The ingestion worker thread runs from the build as well (worker.js, no tsx register).
    await logLine('the ingestion scheduler in the worker thread', (l) => l.msg === 'ingestion scheduler started');
  });
});
