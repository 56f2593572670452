import '../src/runtime.ts';
import { fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/infra/config.ts';
import { openStore } from '../src/store/db.ts';

// What one open stream keeps alive on the server (docs/stream.md, "What a stream
// costs"): the app in this process (SQLite, no ingestion), N streams opened by a
// client process (bench/lib/stream-clients.ts), then, after a full garbage
// collection, the heap growth per stream and the objects behind it, by constructor,
// from two heap snapshots (before and with the streams). RSS is shown too, but the
// stream benchmark's figure (bench/stream.bench.ts) is the one the target is read on.
//
//   npm exec -- node --expose-gc --import tsx bench/stream-memory.ts [streams=2000] [top=25]

const here = path.dirname(fileURLToPath(import.meta.url));
const streams = Number(process.argv[2] ?? 2000);
const top = Number(process.argv[3] ?? 25);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'vis-stream-memory-'));
const config = loadConfig({
  ...process.env,
  DATA_DIR: tmp,
  INGEST: 'off',
  LOG_LEVEL: 'warn',
  PORT: '0',
  HOST: '127.0.0.1',
  RATE_LIMITS: JSON.stringify({ anonymous: { perMinute: 1_000_000, perDay: 100_000_000, concurrentStreams: streams + 100 } }),
  // The clients are anonymous: the per-process cap of anonymous streams (1,000 by default,
  // docs/stream.md "Limits") would refuse all but the first thousand.
  ANONYMOUS_STREAMS_PER_SERVER: String(streams + 100),
});
const app = await buildApp(config, { store: openStore(config) });
await app.listen({ port: 0, host: '127.0.0.1' });
const { port } = app.server.address() as { port: number };
const url = `http://127.0.0.1:${port}/api/v1/infrastructure/incidents/stream`;

const settle = async () => {
  for (let i = 0; i < 3; i++) {
    await new Promise((r) => setTimeout(r, 200));
    gc();
  }
};

/** Count and self size per (node type, constructor name) of a heap snapshot. */
function census(file: string): Map<string, { count: number; size: number }> {
  const snap = JSON.parse(fs.readFileSync(file, 'utf8')) as {
    snapshot: { meta: { node_fields: string[]; node_types: [string[]] } };
    nodes: number[];
    strings: string[];
  };
  const fields = snap.snapshot.meta.node_fields;
  const width = fields.length;
  const [typeAt, nameAt, sizeAt] = ['type', 'name', 'self_size'].map((f) => fields.indexOf(f)) as [number, number, number];
  const types = snap.snapshot.meta.node_types[0];
  const out = new Map<string, { count: number; size: number }>();
  for (let i = 0; i < snap.nodes.length; i += width) {
    const type = types[snap.nodes[i + typeAt]!]!;
    const name = type === 'object' || type === 'native' || type === 'closure' ? snap.strings[snap.nodes[i + nameAt]!]! : `(${type})`;
    const key = `${type} ${name.slice(0, 60)}`;
    const e = out.get(key) ?? { count: 0, size: 0 };
    e.count++;
    e.size += snap.nodes[i + sizeAt]!;
    out.set(key, e);
  }
  return out;
}

async function openStreams(n: number) {
  const child = fork(path.join(here, 'lib/stream-clients.ts'), [url, String(n), '127.0.0.1'], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ready = await new Promise<{ ready: number; failed: number }>((resolve) =>
    child.on('message', (m: { kind: string; ready: number; failed: number }) => m.kind === 'ready' && resolve(m)),
  );
  return { child, ...ready };
}

try {
  // Warm-up: code compiled, hub subscribed, then closed again.
  const warm = await openStreams(20);
  warm.child.kill();
  await new Promise((r) => setTimeout(r, 1000));
  await settle();
  const before = process.memoryUsage();
  const snap0 = v8.writeHeapSnapshot(path.join(tmp, 'before.heapsnapshot'));

  const open = await openStreams(streams);
  await new Promise((r) => setTimeout(r, 1000));
  await settle();
  const after = process.memoryUsage();
  const snap1 = v8.writeHeapSnapshot(path.join(tmp, 'after.heapsnapshot'));
  const n = open.ready;
  console.log(`${n} streams open (${open.failed} failed), hub holds ${app.streams.hub.size}`);
  const per = (k: keyof NodeJS.MemoryUsage) => (((after[k] as number) - (before[k] as number)) / n / 1024).toFixed(2);
  console.log(
    `per stream after GC: heapUsed ${per('heapUsed')} KB, external ${per('external')} KB, arrayBuffers ${per('arrayBuffers')} KB, rss ${per('rss')} KB`,
  );

  const a = census(snap0);
  const b = census(snap1);
  const rows = [...b.entries()]
    .map(([k, v]) => {
      const was = a.get(k) ?? { count: 0, size: 0 };
      return { k, count: (v.count - was.count) / n, bytes: (v.size - was.size) / n };
    })
    .filter((r) => r.bytes > 0)
    .sort((x, y) => y.bytes - x.bytes);
  const total = rows.reduce((s, r) => s + r.bytes, 0);
  console.log(`heap snapshot growth: ${(total / 1024).toFixed(2)} KB per stream (self sizes)`);
  console.log('| objects per stream | bytes per stream | type and constructor |');
  console.log('|---:|---:|---|');
  for (const r of rows.slice(0, top)) console.log(`| ${r.count.toFixed(2)} | ${Math.round(r.bytes)} | ${r.k} |`);
  open.child.kill();
} finally {
  await app.close();
  // STREAM_MEMORY_KEEP=dir keeps the two snapshots (for a retainer view in DevTools).
  if (process.env.STREAM_MEMORY_KEEP) {
    for (const f of ['before.heapsnapshot', 'after.heapsnapshot']) fs.copyFileSync(path.join(tmp, f), path.join(process.env.STREAM_MEMORY_KEEP, f));
  }
  fs.rmSync(tmp, { recursive: true, force: true });
}
process.exit(0);
