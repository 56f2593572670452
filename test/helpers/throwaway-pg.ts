import { execFile, execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

// A PostgreSQL server of a test's own, for tests that stop and start it (the shared
// server on 5432 is never touched). initdb once per test file into a temp dir, trust
// auth, a free port on 127.0.0.1, fsync off; stop/start/restart with pg_ctl; close()
// stops it and removes the directory. initdb refuses to run as root, so as root
// every binary runs as the `postgres` user and the directory is made theirs.

const BIN = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';

export interface ThrowawayPg {
  port: number;
  /** postgres://postgres@127.0.0.1:PORT/postgres */
  url: string;
  dir: string;
  running: boolean;
  start(): Promise<void>;
  /** `fast` (default) ends sessions with 57P01 admin_shutdown; `immediate` is a crash. */
  stop(mode?: 'fast' | 'immediate'): Promise<void>;
  restart(): Promise<void>;
  /** SIGSTOP to the server and its backends: connections stay open, nothing answers (a hung server). */
  freeze(): void;
  /** SIGCONT: the frozen server carries on. */
  thaw(): void;
  /** Stops the server (if running) and removes its directory. Safe to call twice. */
  close(): Promise<void>;
  /** The server's log (for failure messages). */
  log(): string;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const p = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(p));
    });
  });
}

const asRoot = process.getuid?.() === 0;

const command = (cmd: string, args: string[]): [string, string[]] =>
  asRoot ? ['runuser', ['-u', 'postgres', '--', path.join(BIN, cmd), ...args]] : [path.join(BIN, cmd), args];

/** Asynchronous, so an app under test in this process keeps serving while the server stops. */
function run(cmd: string, args: string[]): Promise<string> {
  const [file, argv] = command(cmd, args);
  return new Promise((resolve, reject) => {
    execFile(file, argv, { encoding: 'utf8' }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${cmd} ${args.join(' ')} failed: ${err.message}\n${stderr || stdout}`));
      else resolve(stdout);
    });
  });
}

function runSync(cmd: string, args: string[]) {
  const [file, argv] = command(cmd, args);
  spawnSync(file, argv, { stdio: 'ignore' });
}

/** The server's pid (postmaster.pid) and those of its children (from /proc: Linux). */
function clusterPids(data: string): number[] {
  const pid = Number(fs.readFileSync(path.join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
  const children: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      // pid (comm) state ppid ...; comm may contain spaces, so read after the last ')'.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) children.push(Number(entry));
    } catch {
      /* gone meanwhile */
    }
  }
  return [pid, ...children];
}

const live = new Set<ThrowawayPg>();

/** Stops every server still running, synchronously (process exit, or a signal that ends the test). */
function stopAll() {
  for (const pg of live) {
    try {
      for (const pid of clusterPids(path.join(pg.dir, 'data'))) process.kill(pid, 'SIGCONT');
    } catch {
      /* not running */
    }
    try {
      if (pg.running) runSync('pg_ctl', ['-D', path.join(pg.dir, 'data'), '-m', 'immediate', '-w', 'stop']);
      fs.rmSync(pg.dir, { recursive: true, force: true });
    } catch {
      /* best effort at exit */
    }
  }
  live.clear();
}
// A test process that ends before its `after` hook ran (an error, a timeout, Ctrl-C)
// still leaves no server behind.
process.once('exit', stopAll);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.once(signal, () => {
    stopAll();
    process.kill(process.pid, signal);
  });
}

export async function createThrowawayPg(): Promise<ThrowawayPg> {
  if (!fs.existsSync(path.join(BIN, 'initdb'))) throw new Error(`PostgreSQL binaries not found in ${BIN} (set PG_BIN)`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vis-pg-'));
  const data = path.join(dir, 'data');
  const logFile = path.join(dir, 'server.log');
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    fs.chownSync(dir, uid, gid);
  }
  const port = await freePort();
  let frozen = false;
  const pg: ThrowawayPg = {
    port,
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    dir,
    running: false,
    async start() {
      // The socket goes in our directory, not /var/run/postgresql (another server's).
      const opts = `-p ${port} -c listen_addresses=127.0.0.1 -k ${dir} -c fsync=off -c full_page_writes=off`;
      await run('pg_ctl', ['-D', data, '-l', logFile, '-o', opts, '-w', '-t', '60', 'start']);
      pg.running = true;
    },
    async stop(mode = 'fast') {
      if (!pg.running) return;
      await run('pg_ctl', ['-D', data, '-m', mode, '-w', '-t', '60', 'stop']);
      pg.running = false;
    },
    async restart() {
      await pg.stop();
      await pg.start();
    },
    freeze() {
      // The postmaster first, so it forks no new backend meanwhile.
      for (const pid of clusterPids(data)) process.kill(pid, 'SIGSTOP');
      frozen = true;
    },
    thaw() {
      if (!frozen) return;
      for (const pid of clusterPids(data).reverse()) process.kill(pid, 'SIGCONT');
      frozen = false;
    },
    async close() {
      if (frozen) pg.thaw();
      try {
        await pg.stop('immediate');
      } finally {
        live.delete(pg);
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
    log: () => (fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8') : ''),
  };
  live.add(pg);
  try {
    await run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--no-sync', '--no-instructions']);
    await pg.start();
  } catch (err) {
    await pg.close().catch(() => {});
    throw err;
  }
  return pg;
}
