import { type ChildProcess, fork, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createSimulator } from '../src/ingest/simulator/index.ts';
import { readCatalog } from '../src/services/vendors/catalog-loader.ts';
import { systemClock } from '../src/domain/clock.ts';
import { reportFigures } from './lib/report.ts';

// 20,000 concurrent stream clients on one server instance (its own process), the
// clients spread over several processes (docs/stream.md, "Benchmark"). One change is made in the simulated
// fleet; the server polls it (real fetcher, adapters, apply, event log, bus, hub).
// Prints, per client, the time from the event's occurredAt (the poll that found
// the change) until that client had it: p50 / p99 / max; and the server's RSS
// with no streams and with every stream open.
//
//   npm run bench -- stream [clients=20000] [processes=10]
//
// Operating-system limits (docs/stream.md, "Benchmark"): the server holds one file
// descriptor per stream, so it is started with `ulimit -n` raised to the clients plus
// a margin (the bench stops with a message when the hard limit forbids it). Each
// client process connects from its own loopback address (127.0.0.2, 127.0.0.3, …):
// one source address has ~28,000 ephemeral ports, shared with the TIME_WAIT sockets
// of the previous run.

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
/** Streams asked for; `clients` below is how many the server's open-files limit lets it hold. */
const requested = Number(process.argv[2] ?? 20_000);
let clients = requested;
const procs = Number(process.argv[3] ?? 10);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'vis-stream-bench-'));

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const rssKb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))![1]);
const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

const picked = readCatalog().filter((v) => v.slug === 'github');
const sim = createSimulator({
  catalog: picked,
  clock: systemClock,
  seed: 1,
  history: false,
  rates: { newIncident: 0, advanceIncident: 0, newMaintenance: 0, advisory: 0, update: 0 },
  tag: 'b',
});
await sim.listen(0, '127.0.0.1');
const catalogFile = path.join(tmp, 'vendors.json');
fs.writeFileSync(catalogFile, JSON.stringify(sim.rewriteCatalog(picked, { intervalSeconds: 5, feedIntervalSeconds: 5 })));

const port = await freePort();
// The server's inspector (loopback only) lets the bench ask it for a full garbage
// collection. RSS per stream (`rssPerClientKb`) is read after a collection in the server
// at both points (before the clients, all connected): a collection of the idle server
// alone frees ~170 MB here, so RSS read without one (the earlier method, still printed
// as `rssPerClientAsReadKb`) moved by several KB per client with the collector's timing
// (docs/stream.md, "Benchmark").
const inspectPort = await freePort();
async function serverGc() {
  const [target] = (await (await fetch(`http://127.0.0.1:${inspectPort}/json/list`)).json()) as { webSocketDebuggerUrl: string }[];
  const ws = new WebSocket(target!.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    ws.onopen = resolve;
    ws.onerror = reject;
  });
  const call = (id: number, method: string) =>
    new Promise<{ usedSize?: number }>((resolve) => {
      ws.addEventListener('message', (m) => {
        const msg = JSON.parse(String(m.data)) as { id?: number; result: { usedSize?: number } };
        if (msg.id === id) resolve(msg.result);
      });
      ws.send(JSON.stringify({ id, method }));
    });
  await call(1, 'HeapProfiler.collectGarbage');
  // The V8 heap in use after the collection: the JavaScript objects the streams keep, without native memory.
  const { usedSize } = await call(2, 'Runtime.getHeapUsage');
  ws.close();
  await sleep(500);
  return usedSize ?? 0;
}
const base = `http://127.0.0.1:${port}`;
// Open-files limit: raised to what the run needs where the hard limit allows, else to
// the hard limit; whether the server can hold every stream is checked once it runs.
const withNoFile = (n: number, cmd: string[]) => ['-c', `ulimit -n ${n} 2>/dev/null || ulimit -n "$(ulimit -Hn)"; exec "$@"`, 'sh', ...cmd];
const serverFds = requested + 1024;
const server = spawn('/bin/sh', withNoFile(serverFds, [process.execPath, `--inspect=127.0.0.1:${inspectPort}`, '--import', 'tsx', 'src/server.ts']), {
  cwd: root,
  stdio: ['ignore', 'inherit', 'inherit'],
  env: {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: tmp,
    CATALOG_FILE: catalogFile,
    INGEST: 'live',
    POLL_INTERVAL_SECONDS: '5',
    LOG_LEVEL: 'warn',
    RATE_LIMITS: JSON.stringify({ anonymous: { perMinute: 1_000_000, perDay: 100_000_000, concurrentStreams: requested + 100 } }),
    // The clients are anonymous: the per-process cap of anonymous streams (1,000 by default,
    // docs/stream.md) would refuse all but the first thousand.
    ANONYMOUS_STREAMS_PER_SERVER: String(requested + 100),
  },
});
const children: ChildProcess[] = [];
const cleanup = () => {
  for (const c of children) c.kill();
  server.kill();
  void sim.close();
  fs.rmSync(tmp, { recursive: true, force: true });
};

try {
  for (let i = 0; ; i++) {
    const ok = await fetch(`${base}/api/v1/infrastructure/vendor-status/github`)
      .then(async (r) => r.status === 200 && !!(await r.json()).items?.[0]?.sourceHealth?.lastSuccessAt)
      .catch(() => false);
    if (ok) break;
    // Start-up (migrations, catalog, first poll) takes a minute or more on a loaded machine.
    if (i > 900) throw new Error('server did not start polling within 3 minutes');
    await sleep(200);
  }
  // One descriptor per stream: a server that cannot open them all would refuse the last
  // connections (EMFILE) and the run would measure that instead.
  const maxOpen = Number(/Max open files\s+(\d+)/.exec(fs.readFileSync(`/proc/${server.pid}/limits`, 'utf8'))![1]);
  const openNow = fs.readdirSync(`/proc/${server.pid}/fd`).length;
  // A limit we cannot raise (the hard limit needs CAP_SYS_RESOURCE) measures what fits and
  // says so: the figures are per stream, and the table shows connected < requested as a miss.
  if (openNow + clients + 64 > maxOpen) {
    clients = Math.floor((maxOpen - openNow - 64) / 100) * 100;
    console.log(
      `the server's open-files limit is ${maxOpen} with ${openNow} in use: running ${clients} streams, not the ${requested} asked for` +
        ` (raise the hard limit, ulimit -Hn, to run them all)`,
    );
  }
  console.log(`server open-files limit ${maxOpen}, ${openNow} open before the streams`);
  // Warm the route (code paths compiled, hub subscribed) before the first figure.
  for (let i = 0; i < 5; i++) {
    const r = await fetch(`${base}/api/v1/infrastructure/incidents/stream`);
    const reader = r.body!.getReader();
    await reader.read();
    await reader.cancel();
  }
  await sleep(1000);
  const rssBefore = rssKb(server.pid!);
  const heapBefore = await serverGc();
  const rssBeforeGc = rssKb(server.pid!);

  const started = Date.now();
  const per = Math.ceil(clients / procs);
  const ready = await Promise.all(
    Array.from({ length: procs }, (_, i) => {
      const n = Math.min(per, clients - i * per);
      const from = `127.0.0.${2 + (i % 250)}`;
      const child = fork(path.join(here, 'lib/stream-clients.ts'), [`${base}/api/v1/infrastructure/incidents/stream`, String(n), from], {
        execPath: '/bin/sh',
        execArgv: withNoFile(n + 1024, [process.execPath, '--import', 'tsx']),
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      });
      children.push(child);
      return new Promise<{ ready: number; failed: number }>((resolve) => {
        child.on('message', (m: { kind: string; ready: number; failed: number }) => {
          if (m.kind === 'ready') resolve(m);
        });
      });
    }),
  );
  const connected = ready.reduce((s, r) => s + r.ready, 0);
  const failed = ready.reduce((s, r) => s + r.failed, 0);
  const connectSeconds = (Date.now() - started) / 1000;
  console.log(`connected ${connected} streams (${failed} failed) in ${connectSeconds.toFixed(1)} s`);
  await sleep(2000);
  const rssConnected = rssKb(server.pid!);
  const heapConnected = await serverGc();
  const rssConnectedGc = rssKb(server.pid!);

  const received = Promise.all(
    children.map(
      (child) =>
        new Promise<number[]>((resolve) => {
          child.on('message', (m: { kind: string; latencies: number[] }) => {
            if (m.kind === 'received') resolve(m.latencies);
          });
        }),
    ),
  );
  const inc = sim.fleet.openIncident('github', { impact: 'major' });
  console.log(`opened ${inc.id} in the simulated fleet; waiting for the next poll (every 5 s)`);
  const all = (await Promise.race([received, sleep(60_000).then(() => null)]))?.flat();
  if (!all) throw new Error('not every client received the event within 60 s');
  const rssAfter = rssKb(server.pid!);
  all.sort((x, y) => x - y);
  console.log(`clients that received the event: ${all.length} of ${connected}`);
  console.log(
    `time from the poll (event occurredAt) to delivery: p50 ${pct(all, 50)} ms, p99 ${pct(all, 99)} ms, max ${all[all.length - 1]} ms` +
      ` (first ${all[0]} ms)`,
  );
  console.log(
    `server RSS: ${(rssBefore / 1024).toFixed(1)} MB without streams, ${(rssConnected / 1024).toFixed(1)} MB with ${connected} streams, ${(rssAfter / 1024).toFixed(1)} MB after the event`,
  );
  console.log(
    `RSS growth per client, as read (no GC): ${(((rssConnected - rssBefore) / connected) * 1.024).toFixed(1)} KB (connected), ${(((rssAfter - rssBefore) / connected) * 1.024).toFixed(1)} KB (after the event)`,
  );
  console.log(
    `after a full GC in the server: ${(rssBeforeGc / 1024).toFixed(1)} MB without streams, ${(rssConnectedGc / 1024).toFixed(1)} MB with ${connected} streams:` +
      ` ${(((rssConnectedGc - rssBeforeGc) / connected) * 1.024).toFixed(1)} KB per client;` +
      ` V8 heap in use ${((heapConnected - heapBefore) / connected / 1000).toFixed(2)} KB per client`,
  );
  reportFigures('stream', {
    clients: requested,
    connected,
    failed,
    received: all.length,
    connectS: connectSeconds,
    p50Ms: pct(all, 50),
    p99Ms: pct(all, 99),
    maxMs: all[all.length - 1]!,
    rssPerClientKb: ((rssConnectedGc - rssBeforeGc) / connected) * 1.024,
    heapPerClientKb: (heapConnected - heapBefore) / connected / 1000,
    rssPerClientAsReadKb: ((rssConnected - rssBefore) / connected) * 1.024,
    rssPerClientAfterKb: ((rssAfter - rssBefore) / connected) * 1.024,
  });
} finally {
  cleanup();
}
process.exit(0);
