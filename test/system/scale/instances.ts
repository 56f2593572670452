import { type ChildProcess, execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { dropRedisKeys, uniqueName } from '../../helpers/app.ts';
import { runtimeEnv } from '../../helpers/child-env.ts';

// Real server processes (`node src/server.ts`) for the scale-out and
// shutdown tests: spawned with an environment built from scratch, their JSON log
// lines collected, their port read from the start-up line. They always use
// PostgreSQL and Redis (DATABASE_URL / REDIS_URL when set, else the local ones),
// in a schema and key prefix of their own that `cleanup` removes.

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

export interface Deployment {
  schema: string;
  prefix: string;
  dataDir: string;
  /** What every process of this deployment shares (database, Redis, data dir). */
  env: Record<string, string>;
  cleanup(): Promise<void>;
}

export function deployment(tag: string): Deployment {
  const schema = uniqueName(tag);
  const prefix = `${uniqueName(tag)}:`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `vis-${tag}-`));
  return {
    schema,
    prefix,
    dataDir,
    env: {
      DATABASE_URL,
      DATABASE_SCHEMA: schema,
      REDIS_URL,
      REDIS_PREFIX: prefix,
      DATA_DIR: dataDir,
      PASSWORD_HASH_COST: '10',
    },
    async cleanup() {
      await dropRedisKeys(REDIS_URL, prefix);
      const client = new pg.Client({ connectionString: DATABASE_URL });
      await client.connect();
      try {
        await client.query(`drop schema if exists "${schema}" cascade`);
      } finally {
        await client.end();
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The process's own environment is not inherited (a CI leg's settings must not leak in). */
function baseEnv(): Record<string, string> {
  const env = runtimeEnv();
  for (const k of ['HOME', 'TMPDIR', 'LANG']) if (process.env[k]) env[k] = process.env[k]!;
  return env;
}

export interface LogLine {
  level: number;
  msg?: string;
  [k: string]: unknown;
}

export interface Instance {
  name: string;
  pid: number;
  port: number;
  url: string;
  api: string;
  child: ChildProcess;
  lines: LogLine[];
  /** Raw stderr (a crash before the logger exists). */
  stderr: string[];
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
  /** Resolves with the first log line matching, within `timeoutMs`. */
  waitForLog(match: (l: LogLine) => boolean, timeoutMs?: number): Promise<LogLine>;
  /** SIGTERM, then SIGKILL if it has not exited after `graceMs`. */
  stop(graceMs?: number): Promise<void>;
}

export async function startInstance(name: string, env: Record<string, string>, args: string[] = [], timeoutMs = 60_000): Promise<Instance> {
  const child = spawn(process.execPath, ['src/server.ts', ...args], {
    cwd: ROOT,
    env: { ...baseEnv(), LOG_LEVEL: 'info', HOST: '127.0.0.1', PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: LogLine[] = [];
  const stderr: string[] = [];
  const waiters = new Set<() => void>();
  let buffered = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    buffered += chunk;
    let nl: number;
    while ((nl = buffered.indexOf('\n')) >= 0) {
      const text = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      try {
        lines.push(JSON.parse(text) as LogLine);
      } catch {
        lines.push({ level: 0, msg: text });
      }
    }
    for (const w of [...waiters]) w();
  });
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => stderr.push(chunk));
  // Set before the waiters look: a process that dies while starting is reported as such
  // (with its stderr) at once, not as a start that timed out a minute later.
  let exited = false;
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) =>
    child.once('exit', (code, signal) => {
      exited = true;
      resolve({ code, signal, at: Date.now() });
      for (const w of [...waiters]) w();
    }),
  );

  const waitForLog = (match: (l: LogLine) => boolean, ms = 20_000) =>
    new Promise<LogLine>((resolve, reject) => {
      const check = () => {
        const found = lines.find(match);
        if (found) {
          done();
          resolve(found);
        } else if (exited) {
          done();
          reject(new Error(`${name} exited before the expected log line; stderr: ${stderr.join('').slice(-2000)}`));
        }
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`${name}: no matching log line within ${ms} ms; last lines: ${JSON.stringify(lines.slice(-5))}`));
      }, ms);
      const done = () => {
        clearTimeout(timer);
        waiters.delete(check);
      };
      waiters.add(check);
      check();
    });

  const started = await waitForLog((l) => typeof l.msg === 'string' && l.msg.startsWith('started with roles'), timeoutMs).catch(async (err) => {
    // What the database was doing says why a start hangs (a lock wait, a statement); read
    // before the kill ends the process's sessions.
    const activity = exited || !(err instanceof Error) ? null : await databaseActivity();
    child.kill('SIGKILL');
    if (activity === null) throw err;
    // A new error: the runner prints the stack, which holds the message it was made with.
    throw new Error(`${err.message}\n--- database activity ---\n${activity}`);
  });
  const port = Number(started.port);
  const url = `http://127.0.0.1:${port}`;
  return {
    name,
    pid: child.pid!,
    port,
    url,
    api: `${url}/api/v1/infrastructure`,
    child,
    lines,
    stderr,
    exit,
    waitForLog,
    async stop(graceMs = 10_000) {
      if (exited) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exit;
      clearTimeout(timer);
    },
  };
}

/** Runs the operator CLI (`npm run cli -- …`) with a deployment's environment; resolves with stdout. */
export function cli(env: Record<string, string>, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['src/cli/index.ts', ...args],
      { cwd: ROOT, env: { ...baseEnv(), LOG_LEVEL: 'silent', ...env }, timeout: 60_000 },
      (err, stdout, stderr) => (err ? reject(new Error(`cli ${args.join(' ')} failed: ${err.message}\n${stderr}`)) : resolve(stdout)),
    );
  });
}

/** Statements in progress and lock waits on the test database, one line each. */
async function databaseActivity(): Promise<string> {
  const client = new pg.Client({ connectionString: DATABASE_URL });
  try {
    await client.connect();
    const { rows } = await client.query(
      `select pid, application_name, state, wait_event_type, wait_event, now() - xact_start as in_transaction, left(query, 300) as query
         from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and state <> 'idle'`,
    );
    const waits = await client.query(`select pid, locktype, mode, relation::regclass::text as relation, objid from pg_locks where not granted`);
    return [...rows, ...waits.rows.map((w) => ({ waiting: w }))].map((r) => JSON.stringify(r)).join('\n') || 'none';
  } catch (err) {
    return `could not be read: ${(err as Error).message}`;
  } finally {
    await client.end().catch(() => {});
  }
}

/** Warnings and errors of the instances, for a failing test's message. */
export function problems(list: Instance[]): string {
  return list
    .map((i) => {
      const bad = i.lines.filter((l) => l.level >= 40).slice(-10);
      return `${i.name} (pid ${i.pid}): ${bad.length ? bad.map((l) => JSON.stringify(l).slice(0, 400)).join('\n  ') : 'no warnings'}${i.stderr.length ? `\n  stderr: ${i.stderr.join('').slice(-1000)}` : ''}`;
    })
    .join('\n');
}
