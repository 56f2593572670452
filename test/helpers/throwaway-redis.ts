import { type ChildProcess, spawn } from 'node:child_process';
import net from 'node:net';
import { freePort } from './throwaway-pg.ts';
import { waitFor } from './wait.ts';

// A Redis server of a test's own (the shared one on 6379 is never stopped): no
// persistence, loopback only, a free port that stays the same across stop/start so
// the app's client reconnects to it.

export interface ThrowawayRedis {
  port: number;
  url: string;
  readonly running: boolean;
  start(): Promise<void>;
  /** SIGKILL by default (Redis vanishing); `SIGTERM` for an orderly shutdown. */
  stop(signal?: NodeJS.Signals): Promise<void>;
  /** SIGSTOP: connections stay open and nothing answers (a hung server); resume() with SIGCONT. */
  pause(): void;
  resume(): void;
  close(): Promise<void>;
}

const children = new Set<ChildProcess>();
const killAll = () => {
  for (const c of children) c.kill('SIGKILL');
  children.clear();
};
// A test process that ends before its `after` hook ran still leaves no server behind.
process.once('exit', killAll);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.once(signal, () => {
    killAll();
    process.kill(process.pid, signal);
  });
}

const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const c = net.connect(port, '127.0.0.1', () => {
      c.end();
      resolve(true);
    });
    c.on('error', () => resolve(false));
  });

export async function createThrowawayRedis(): Promise<ThrowawayRedis> {
  const port = await freePort();
  let child: ChildProcess | null = null;
  let stderr = '';
  const r: ThrowawayRedis = {
    port,
    url: `redis://127.0.0.1:${port}`,
    get running() {
      return child !== null;
    },
    async start() {
      if (child) return;
      const c = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      c.stderr!.on('data', (d) => (stderr += d));
      children.add(c);
      child = c;
      const exited = new Promise<never>((_, reject) =>
        c.once('exit', (code) => reject(new Error(`redis-server exited (${code}) before accepting connections: ${stderr}`))),
      );
      // Stopping it later is not an error.
      exited.catch(() => {});
      await waitFor(() => Promise.race([accepts(port), exited]), {
        message: `redis-server on ${port} to accept connections`,
        timeoutMs: 15_000,
        intervalMs: 25,
      });
    },
    async stop(signal = 'SIGKILL') {
      const c = child;
      if (!c) return;
      child = null;
      if (c.exitCode === null && c.signalCode === null) {
        await new Promise<void>((resolve) => {
          const force = setTimeout(() => c.kill('SIGKILL'), 5_000);
          c.once('exit', () => {
            clearTimeout(force);
            resolve();
          });
          c.kill(signal);
        });
      }
      children.delete(c);
    },
    pause() {
      child?.kill('SIGSTOP');
    },
    resume() {
      child?.kill('SIGCONT');
    },
    async close() {
      r.resume();
      await r.stop();
    },
  };
  await r.start();
  return r;
}
