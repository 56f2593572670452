import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { API_PREFIX, buildApp } from '../src/app.ts';
import { loadConfig } from '../src/infra/config.ts';
import type { RoundReport } from '../src/ingest/scheduler.ts';
import { firstLine, tsxFork } from './lib/fork.ts';
import { reportFigures } from './lib/report.ts';
import { syntheticCatalog } from './lib/synthetic-catalog.ts';

// One full polling round of N sources (default 2,000, the catalog-scale target of docs/ingestion.md) served by the simulated fleet
// (in a process of its own), through the real fetcher, adapters and store, on the
// ingestion worker thread as the server runs it, while a load generator (another
// process) keeps asking the API. Prints round time, events
// written, peak RSS, and API throughput/latency before and during the rounds.
//
//   npm run bench -- ingest-round [sources=2000] [concurrency=16] [api req/s=200]
// With DATABASE_URL set it runs against PostgreSQL (schema bench_ingest, dropped after).

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const sources = Number(process.argv[2] ?? 2000);
const concurrency = Number(process.argv[3] ?? 16);
/** API requests per second during the measurements (open loop). */
const rate = Number(process.argv[4] ?? 200);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'vis-bench-'));

interface Load {
  path: string;
  requests: number;
  errors: number;
  /** Answers with `X-Cache: HIT`. */
  hits: number;
  rps: number;
  p50: number;
  p99: number;
  max: number;
}

/** Runs the load generator until `until` settles (or for `ms`), returns its figures per URL. */
async function load(urls: string[], o: { ms?: number; until?: Promise<unknown> }): Promise<Load[]> {
  const child = tsxFork(path.join(here, 'lib/load.ts'), [String(o.ms ?? 600_000), String(rate), ...urls]);
  const result = new Promise<Load[]>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => (out += String(d)));
    child.once('exit', () => {
      try {
        resolve(
          out
            .trim()
            .split('\n')
            .filter((l) => l.startsWith('{'))
            .map((l) => JSON.parse(l)),
        );
      } catch (err) {
        reject(err);
      }
    });
  });
  // Let the generator connect and warm up before the measured work starts.
  await new Promise((r) => setTimeout(r, 300));
  if (o.until) {
    await o.until;
    child.send('stop');
  }
  return result;
}

const fmtLoad = (ls: Load[]) =>
  ls
    .map(
      (l) =>
        `${l.path.padEnd(58)} ${l.rps.toFixed(0).padStart(4)} req/s   p50 ${l.p50.toFixed(1).padStart(7)} ms   p99 ${l.p99.toFixed(1).padStart(7)} ms   errors ${l.errors}   cache hits ${l.requests ? ((100 * l.hits) / l.requests).toFixed(0) : '-'} %`,
    )
    .join('\n      ');
const fmtRound = (r: RoundReport) => {
  const by = (s: string) => r.outcomes.filter((o) => o.status === s).length;
  return `${(r.durationMs / 1000).toFixed(2)} s, ${r.outcomes.length} sources (${by('updated')} updated, ${by('unchanged') + by('not_modified')} unchanged, ${by('failed')} failed), ${r.events} events`;
};

/** PostgreSQL: the bench's own schema, dropped before (a run that was killed leaves its rows behind) and after. */
async function dropSchema(url: string) {
  const pg = await import('pg');
  const client = new pg.default.Client({ connectionString: url });
  await client.connect();
  await client.query('drop schema if exists bench_ingest cascade');
  await client.end();
}

async function main() {
  if (process.env.DATABASE_URL) await dropSchema(process.env.DATABASE_URL);
  const catalogIn = path.join(tmp, 'catalog.json');
  const catalogOut = path.join(tmp, 'catalog-sim.json');
  fs.writeFileSync(catalogIn, JSON.stringify(syntheticCatalog(sources)));
  const sim = tsxFork(path.join(root, 'src/ingest/simulator/main.ts'), ['--catalog', catalogIn, '--out', catalogOut, '--seed', '1', '--history']);
  const simUrl = await firstLine(sim, 'listening ');

  const config = loadConfig({
    ...process.env,
    LOG_LEVEL: 'silent',
    INGEST: 'off',
    DATA_DIR: path.join(tmp, 'data'),
    ...(process.env.DATABASE_URL ? { DATABASE_SCHEMA: 'bench_ingest' } : {}),
    CATALOG_FILE: catalogOut,
    INGEST_CONCURRENCY: String(concurrency),
    INGEST_HOST_CONCURRENCY: String(concurrency),
    // The load generator is one anonymous client sending far more than a plan allows.
    RATE_LIMITS: JSON.stringify({ anonymous: { perMinute: 1_000_000_000, perDay: 1_000_000_000 } }),
  });
  const app = await buildApp(config);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const addr = app.server.address();
  const base = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
  // A cached list (X-Cache: HIT after the first), the same list uncached, and /healthz (no work at all).
  const endpoints = [`${base}${API_PREFIX}/incidents?limit=20`, `${base}${API_PREFIX}/incidents?limit=20&skipCache=true`, `${base}/healthz`];

  const db = config.databaseUrl ? `PostgreSQL` : 'SQLite';
  console.log(`${sources} sources on ${simUrl} (simulator process), ${db}, concurrency ${concurrency}, ${os.cpus().length} CPUs, Node ${process.version}`);
  console.log(`API load: ${rate} req/s in all (open loop), alternating ${endpoints.map((e) => e.replace(base, '')).join(' and ')}, from a separate process`);
  console.log(`Load average at start: ${os.loadavg()[0]!.toFixed(1)}\n`);

  if (process.env.BENCH_NO_LOAD) {
    const cpu0 = process.cpuUsage();
    const r = await app.ingest.roundInWorker({ force: true });
    const cpu = process.cpuUsage(cpu0);
    console.log(
      `Round without API load: ${fmtRound(r)}; service CPU ${((cpu.user + cpu.system) / 1e6).toFixed(2)} s; load average ${os.loadavg()[0]!.toFixed(1)}`,
    );
    reportFigures('ingest-round', {
      sources,
      round1S: r.durationMs / 1000,
      failures: r.outcomes.filter((o) => o.status === 'failed').length,
      events1: r.events,
    });
    await app.close();
    sim.kill('SIGTERM');
    if (config.databaseUrl) await dropSchema(config.databaseUrl);
    fs.rmSync(tmp, { recursive: true, force: true });
    return;
  }
  const idle = await load(endpoints, { ms: 3000 });
  console.log(`API, no ingestion, empty store:\n      ${fmtLoad(idle)}`);

  // Delay of the API's event loop: how long a request could wait behind other work on it.
  const loop = monitorEventLoopDelay({ resolution: 10 });
  const loopP99: number[] = [];
  const loopFigures = () => {
    loopP99.push(loop.percentile(99) / 1e6);
    const f = `event-loop delay of the API thread: p50 ${(loop.percentile(50) / 1e6).toFixed(1)} ms, p99 ${(loop.percentile(99) / 1e6).toFixed(1)} ms, max ${(loop.max / 1e6).toFixed(1)} ms`;
    loop.reset();
    return f;
  };
  loop.enable();
  let cpu0 = process.cpuUsage();
  const r1p = app.ingest.roundInWorker({ force: true });
  const during1 = await load(endpoints, { until: r1p });
  const r1 = await r1p;
  const cpu1 = process.cpuUsage(cpu0);
  console.log(`API during round 1 (${loopFigures()}):\n      ${fmtLoad(during1)}`);

  loopFigures();
  const baseline = await load(endpoints, { ms: 3000 });
  console.log(`API, no ingestion, filled store (${loopFigures()}):\n      ${fmtLoad(baseline)}`);

  for (let i = 0; i < 12; i++) {
    await new Promise<void>((resolve) => {
      sim.once('message', () => resolve());
      sim.send('step');
    });
  }
  cpu0 = process.cpuUsage();
  const r2p = app.ingest.roundInWorker({ force: true });
  const during2 = await load(endpoints, { until: r2p });
  const r2 = await r2p;
  const cpu2 = process.cpuUsage(cpu0);
  console.log(`API during round 2 (${loopFigures()}):\n      ${fmtLoad(during2)}`);

  const rss = process.resourceUsage().maxRSS / 1024;
  console.log('');
  const secs = (c: NodeJS.CpuUsage) => ((c.user + c.system) / 1e6).toFixed(2);
  console.log(`Round 1 (first poll: every payload new, cold process): ${fmtRound(r1)}; service CPU ${secs(cpu1)} s (API included)`);
  console.log(`Round 2 (after 12 fleet steps, conditional GETs):      ${fmtRound(r2)}; service CPU ${secs(cpu2)} s (API included)`);
  console.log(`Load average at the end: ${os.loadavg()[0]!.toFixed(1)}`);
  console.log(`Peak RSS of the service process: ${rss.toFixed(0)} MB`);
  const failed = [...r1.outcomes, ...r2.outcomes].filter((o) => o.status === 'failed');
  if (failed.length)
    console.log(
      `Failures: ${failed
        .slice(0, 5)
        .map((o) => `${o.url}: ${o.error}`)
        .join('; ')}`,
    );
  // Per phase: p99 of the cached list, the uncached list and /healthz (left out when a short
  // round left no answered request to measure), and errors of all three.
  const phase = (name: string, ls: Load[]) => {
    const out: Record<string, number> = { [`${name}.errors`]: ls.reduce((n, l) => n + l.errors, 0) };
    for (const [i, k] of ['cached', 'uncached', 'healthz'].entries()) if (ls[i]!.requests) out[`${name}.${k}P99Ms`] = ls[i]!.p99;
    // Share of the cached list answered from the cache: invalidations during a round show here.
    if (ls[0]!.requests) out[`${name}.cachedHitRatio`] = ls[0]!.hits / ls[0]!.requests;
    return out;
  };
  reportFigures(
    'ingest-round',
    {
      sources,
      round1S: r1.durationMs / 1000,
      round2S: r2.durationMs / 1000,
      events1: r1.events,
      events2: r2.events,
      failures: failed.length,
      cpu1S: (cpu1.user + cpu1.system) / 1e6,
      cpu2S: (cpu2.user + cpu2.system) / 1e6,
      // Event-loop delay of the API thread (loopFigures calls: round 1, a reset, the baseline, round 2).
      loopP99Round1Ms: loopP99[0]!,
      loopP99BaselineMs: loopP99[2]!,
      loopP99Round2Ms: loopP99[3]!,
      peakRssMb: rss,
      ...phase('idle', idle),
      ...phase('round1', during1),
      ...phase('baseline', baseline),
      ...phase('round2', during2),
    },
    { database: db, concurrency, apiRate: rate },
  );

  await app.close();
  sim.kill('SIGTERM');
  if (config.databaseUrl) await dropSchema(config.databaseUrl);
  fs.rmSync(tmp, { recursive: true, force: true });
}

main().catch((err) => {
  console.error(err);
  fs.rmSync(tmp, { recursive: true, force: true });
  process.exit(1);
});
