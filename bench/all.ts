import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { RESULT_PREFIX } from './lib/report.ts';

// `npm run bench:all [-- <name> ...]`: every benchmark in turn, each in a fresh child
// process (bench/run.ts <name>), then ONE markdown table of figure, target, measured
// value and verdict, with the machine it ran on. Written to stdout and to
// build/bench-table.md; the benchmarks' own output goes to stderr as it comes.
//
//   BENCH_QUICK=1 npm run bench:all      reduced sizes: checks that everything runs,
//                                        its figures say nothing about the targets
//   DATABASE_URL=postgres://… REDIS_URL=redis://… npm run bench:all
//
// Targets are the wording of the issues as quoted in docs/ (see docs/benchmarks.md);
// a figure without a stated target is reported with "—".

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const quick = /^(1|true|yes)$/i.test(process.env.BENCH_QUICK ?? '');

interface BenchSpec {
  name: string;
  /** Arguments of the full run (the benchmark's defaults when empty) and of the quick run. */
  full: string[];
  quick: string[];
  /** Give up (and kill its process group) after this long. */
  timeoutMin: number;
}

const BENCHES: BenchSpec[] = [
  { name: 'access', full: [], quick: ['--seconds', '1', '--rounds', '1', '--connections', '4'], timeoutMin: 10 },
  { name: 'stream', full: [], quick: ['200', '2'], timeoutMin: 30 },
  { name: 'alerts', full: [], quick: ['200'], timeoutMin: 20 },
  { name: 'ingest-round', full: [], quick: ['50', '16', '50'], timeoutMin: 20 },
  { name: 'web', full: [], quick: ['--seconds', '1', '--connections', '2', '--active', '5', '--history', '100'], timeoutMin: 10 },
  { name: 'mcp', full: [], quick: ['--seconds', '1', '--connections', '2'], timeoutMin: 10 },
  { name: 'per-user', full: [], quick: ['--requests', '3', '--incidents', '10'], timeoutMin: 15 },
  { name: 'limiter', full: [], quick: ['2000'], timeoutMin: 5 },
  { name: 'freshness', full: [], quick: ['60', '200', '2'], timeoutMin: 15 },
];

type Figures = Record<string, number>;

interface Target {
  op: '>=' | '<' | '<=' | '==';
  value: (f: Figures) => number;
  text: (f: Figures) => string;
}

interface Row {
  bench: string;
  figure: string;
  key: string;
  unit: 'ratio' | 'ms' | 's' | 'KB' | 'MB' | 'req/s' | '/s' | 'count' | 'KiB';
  target?: Target;
}

const n0 = (v: number) => Math.round(v).toLocaleString('en-US');
const atLeast = (value: number, text: string): Target => ({ op: '>=', value: () => value, text: () => text });
const below = (value: number, text: string): Target => ({ op: '<', value: () => value, text: () => text });
const exactly = (value: number, text: string): Target => ({ op: '==', value: () => value, text: () => text });

/** Cached reads (docs/benchmarks.md): ≥ 0.8 of bare on SQLite, ≥ 0.7 with PostgreSQL + Redis. */
const ACCESS_RATIO: Target = atLeast(0.85, '≥ 0.85');

/** Round targets of docs/ingestion.md: 2,000 sources in ≤ 10 s; up to 10,000 in ≤ 60 s (one polling interval). */
const roundTargetS = (f: Figures) => ((f.sources ?? 0) <= 2000 ? 10 : 60);
const roundTargetText = (f: Figures) => ((f.sources ?? 0) <= 2000 ? '≤ 10 s (2,000 sources)' : '≤ 60 s (10,000 sources)');

// What the table shows, per benchmark, in order. Sources of the targets: docs/benchmarks.md.
const ROWS: Row[] = [
  {
    bench: 'access',
    figure: 'cached `/incidents?limit=50`: app ÷ bare node:http req/s (same bytes and headers)',
    key: 'incidents.ratio',
    unit: 'ratio',
    target: ACCESS_RATIO,
  },
  {
    bench: 'access',
    figure: 'cached `/vendor-status/github`: app ÷ bare req/s (same bytes and headers)',
    key: 'vendorStatus.ratio',
    unit: 'ratio',
    target: ACCESS_RATIO,
  },
  {
    bench: 'access',
    figure: '`/incidents` app p99 at -c 50',
    key: 'incidents.appP99Ms',
    unit: 'ms',
    target: { op: '<=', value: () => 5, text: () => '≤ 5 ms' },
  },
  {
    bench: 'access',
    figure: '`/vendor-status` app p99 at -c 50',
    key: 'vendorStatus.appP99Ms',
    unit: 'ms',
    target: { op: '<=', value: () => 5, text: () => '≤ 5 ms' },
  },
  { bench: 'access', figure: '`/incidents` 304 req/s ÷ 200 req/s (app)', key: 'incidents.notModifiedVsOk', unit: 'ratio', target: atLeast(1, '≥ 1') },
  { bench: 'access', figure: '`/vendor-status` 304 req/s ÷ 200 req/s (app)', key: 'vendorStatus.notModifiedVsOk', unit: 'ratio', target: atLeast(1, '≥ 1') },
  { bench: 'access', figure: '`/incidents` server CPU per request, bare (same bytes and headers) ÷ app', key: 'incidents.cpuRatio', unit: 'ratio' },
  { bench: 'access', figure: '`/vendor-status` server CPU per request, bare (same bytes and headers) ÷ app', key: 'vendorStatus.cpuRatio', unit: 'ratio' },
  { bench: 'access', figure: '`/incidents` app ÷ bare req/s, bare writing the body and content headers only', key: 'incidents.bytesOnlyRatio', unit: 'ratio' },
  {
    bench: 'access',
    figure: '`/vendor-status` app ÷ bare req/s, bare writing the body and content headers only',
    key: 'vendorStatus.bytesOnlyRatio',
    unit: 'ratio',
  },
  { bench: 'access', figure: '`/incidents` app req/s (key + limit + cache HIT)', key: 'incidents.appRps', unit: 'req/s' },
  {
    bench: 'stream',
    figure: 'streams connected at once',
    key: 'connected',
    unit: 'count',
    target: { op: '>=', value: (f) => f.clients ?? 20_000, text: (f) => `≥ ${n0(f.clients ?? 20_000)} (all requested)` },
  },
  {
    bench: 'stream',
    figure: 'server RSS per open stream (after a full GC in the server)',
    key: 'rssPerClientKb',
    unit: 'KB',
    target: { op: '<=', value: () => 15, text: () => '≤ 15 KB' },
  },
  { bench: 'stream', figure: 'poll → client delivery, p99', key: 'p99Ms', unit: 'ms', target: below(1000, '< 1 s') },
  { bench: 'stream', figure: 'poll → client delivery, p50', key: 'p50Ms', unit: 'ms' },
  { bench: 'stream', figure: 'poll → client delivery, max', key: 'maxMs', unit: 'ms' },
  {
    bench: 'alerts',
    figure: 'event committed → every webhook delivery recorded',
    key: 'allSucceededS',
    unit: 's',
    target: { op: '<', value: () => 10, text: (f) => `< 10 s for ${n0(f.deliveries ?? 10_000)}${f.deliveries === 10_000 ? '' : ' (target: 10,000)'}` },
  },
  { bench: 'alerts', figure: 'deliveries per second', key: 'deliveriesPerS', unit: '/s' },
  { bench: 'alerts', figure: 'invalid signatures at the receiver', key: 'signaturesInvalid', unit: 'count', target: exactly(0, '0') },
  { bench: 'alerts', figure: 'peak RSS of the service', key: 'peakRssMb', unit: 'MB' },
  {
    bench: 'ingest-round',
    figure: 'round 1 (every payload new), all sources',
    key: 'round1S',
    unit: 's',
    // docs/ingestion.md "Benchmark": 2,000 sources in ≤ 10 s, 10,000 in ≤ 60 s (one polling interval).
    target: { op: '<=', value: (f) => roundTargetS(f), text: (f) => roundTargetText(f) },
  },
  {
    bench: 'ingest-round',
    figure: 'round 2 (conditional GETs after 12 fleet steps)',
    key: 'round2S',
    unit: 's',
    target: { op: '<=', value: (f) => roundTargetS(f), text: (f) => roundTargetText(f) },
  },
  // docs/benchmarks.md "Freshness": vendor publication -> first seen, per kind and path.
  ...(['rest', 'stream'] as const).flatMap((p): Row[] => [
    { bench: 'freshness', figure: `pushed source -> ${p}, p50`, key: `pushed.${p}P50S`, unit: 's', target: { op: '<=', value: () => 3, text: () => '≤ 3 s' } },
    {
      bench: 'freshness',
      figure: `pushed source -> ${p}, p99`,
      key: `pushed.${p}P99S`,
      unit: 's',
      target: { op: '<=', value: () => 10, text: () => '≤ 10 s' },
    },
    {
      bench: 'freshness',
      figure: `polled source -> ${p}, p50`,
      key: `polled.${p}P50S`,
      unit: 's',
      target: { op: '<=', value: () => 20, text: () => '≤ 20 s' },
    },
    {
      bench: 'freshness',
      figure: `polled source -> ${p}, p99`,
      key: `polled.${p}P99S`,
      unit: 's',
      target: { op: '<=', value: () => 45, text: () => '≤ 45 s' },
    },
  ]),
  { bench: 'freshness', figure: 'pushed changes never received as a webhook', key: 'pushed.webhookMissing', unit: 'count', target: exactly(0, '0') },
  { bench: 'freshness', figure: 'polled changes never received as a webhook', key: 'polled.webhookMissing', unit: 'count', target: exactly(0, '0') },
  { bench: 'freshness', figure: 'invalid webhook signatures', key: 'signaturesInvalid', unit: 'count', target: exactly(0, '0') },
  { bench: 'ingest-round', figure: 'failed polls (healthy simulated fleet)', key: 'failures', unit: 'count', target: exactly(0, '0') },
  { bench: 'ingest-round', figure: 'API p99, cached list, no ingestion (filled store)', key: 'baseline.cachedP99Ms', unit: 'ms' },
  {
    bench: 'ingest-round',
    figure: 'API p99, cached list, during round 1',
    key: 'round1.cachedP99Ms',
    unit: 'ms',
    target: { op: '<=', value: () => 20, text: () => '≤ 20 ms' },
  },
  { bench: 'ingest-round', figure: 'cache hit ratio of the cached list, round 1', key: 'round1.cachedHitRatio', unit: 'ratio' },
  { bench: 'ingest-round', figure: 'API p99, uncached list, during round 1', key: 'round1.uncachedP99Ms', unit: 'ms' },
  { bench: 'ingest-round', figure: 'API thread event-loop delay p99, round 1', key: 'loopP99Round1Ms', unit: 'ms' },
  { bench: 'web', figure: 'overview `/` req/s', key: 'overview.rps', unit: 'req/s' },
  { bench: 'web', figure: 'overview `/` p99', key: 'overview.p99Ms', unit: 'ms' },
  { bench: 'web', figure: 'live partial `/partials/overview` req/s', key: 'partial.rps', unit: 'req/s' },
  { bench: 'web', figure: 'busiest vendor page req/s', key: 'vendorPage.rps', unit: 'req/s' },
  { bench: 'web', figure: 'busiest vendor page p99', key: 'vendorPage.p99Ms', unit: 'ms' },
  { bench: 'mcp', figure: '`tools/list` req/s', key: 'toolsList.rps', unit: 'req/s' },
  { bench: 'mcp', figure: '`get_active_incidents` (anonymous) req/s', key: 'activeIncidents.rps', unit: 'req/s' },
  { bench: 'mcp', figure: '`get_active_incidents`: REST ÷ MCP req/s', key: 'activeIncidents.restOverMcp', unit: 'ratio' },
  { bench: 'mcp', figure: '`get_incident_history` 30d (OAuth) p99', key: 'historyOauth.p99Ms', unit: 'ms' },
  { bench: 'mcp', figure: '`get_incident_history` 30d (API key): REST ÷ MCP req/s', key: 'historyKey.restOverMcp', unit: 'ratio' },
  { bench: 'per-user', figure: '`POST /dashboard-favorites`, 10 vendors, p95', key: 'bundle.10.p95Ms', unit: 'ms' },
  { bench: 'per-user', figure: '`POST /dashboard-favorites`, 40 vendors, p95', key: 'bundle.40.p95Ms', unit: 'ms' },
  {
    bench: 'per-user',
    figure: '`POST /dashboard-favorites`, whole catalog, same body repeated, p95',
    key: 'bundle.all.p95Ms',
    unit: 'ms',
    target: { op: '<=', value: () => 100, text: () => '≤ 100 ms' },
  },
  { bench: 'per-user', figure: '`POST /dashboard-favorites`, whole catalog, built each time (new key), p95', key: 'bundle.all.coldP95Ms', unit: 'ms' },
  {
    bench: 'per-user',
    figure: '`POST /dashboard-favorites`, whole catalog, first request of a second account',
    key: 'bundle.all.otherAccountFirstMs',
    unit: 'ms',
  },
  { bench: 'per-user', figure: '20 concurrent watchlist adds (free plan cap)', key: 'watchlist.concurrent20Ms', unit: 'ms' },
];

interface Outcome {
  spec: BenchSpec;
  args: string[];
  code: number | null;
  seconds: number;
  loadAtStart: number;
  figures: Figures | null;
  notes: Record<string, unknown>;
  error: string | null;
}

function format(v: number, unit: Row['unit']): string {
  if (!Number.isFinite(v)) return String(v);
  switch (unit) {
    case 'ratio':
      return v.toFixed(2);
    case 'count':
      return n0(v);
    case 'ms':
      return `${v < 10 ? v.toFixed(2) : n0(v)} ms`;
    case 's':
      return `${v.toFixed(2)} s`;
    case 'KB':
    case 'KiB':
    case 'MB':
      return `${v.toFixed(1)} ${unit}`;
    default:
      return `${n0(v)} ${unit}`;
  }
}

function verdict(row: Row, f: Figures): { ratio: string; verdict: string } {
  const v = f[row.key];
  if (!row.target || v === undefined) return { ratio: '—', verdict: '—' };
  const t = row.target.value(f);
  const met = row.target.op === '>=' ? v >= t : row.target.op === '<' ? v < t : row.target.op === '<=' ? v <= t : v === t;
  const ratio = t === 0 ? '—' : (v / t).toFixed(2);
  return { ratio, verdict: `${met ? 'met' : '**not met**'}${quick ? ' (quick)' : ''}` };
}

function machine() {
  const cpus = os.cpus();
  let commit = 'unknown';
  try {
    commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    /* not a git checkout */
  }
  return {
    cpu: `${cpus[0]?.model.trim() ?? 'unknown'} × ${cpus.length}`,
    memory: `${(os.totalmem() / 2 ** 30).toFixed(1)} GiB (${(os.freemem() / 2 ** 30).toFixed(1)} GiB free at start)`,
    node: process.version,
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    commit,
  };
}

const loadavg = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' / ');

function killGroup(child: ChildProcess, signal: NodeJS.Signals) {
  try {
    process.kill(-child.pid!, signal);
  } catch {
    /* already gone */
  }
}

let current: ChildProcess | null = null;
process.on('SIGINT', () => {
  if (current) killGroup(current, 'SIGTERM');
  process.exit(130);
});

function runOne(spec: BenchSpec): Promise<Outcome> {
  const args = quick ? spec.quick : spec.full;
  const loadAtStart = os.loadavg()[0]!;
  const started = performance.now();
  process.stderr.write(`\n=== ${spec.name} ${args.join(' ')} (load average ${loadavg()}) ===\n`);
  return new Promise((resolve) => {
    // A process group of its own: a benchmark's server and client processes go with it on timeout.
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(here, 'run.ts'), spec.name, ...args], {
      cwd: root,
      env: process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    current = child;
    let out = '';
    let errTail = '';
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      process.stderr.write(c);
    });
    child.stderr!.on('data', (c: Buffer) => {
      errTail = (errTail + c.toString()).slice(-2000);
      process.stderr.write(c);
    });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child, 'SIGTERM');
      setTimeout(() => killGroup(child, 'SIGKILL'), 10_000).unref();
    }, spec.timeoutMin * 60_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      current = null;
      const line = out
        .split('\n')
        .reverse()
        .find((l) => l.startsWith(RESULT_PREFIX));
      let figures: Figures | null = null;
      let notes: Record<string, unknown> = {};
      let error: string | null = null;
      if (line) {
        const parsed = JSON.parse(line.slice(RESULT_PREFIX.length)) as { figures: Figures; notes?: Record<string, unknown> };
        figures = parsed.figures;
        notes = parsed.notes ?? {};
      }
      if (timedOut) error = `timed out after ${spec.timeoutMin} min`;
      else if (code !== 0) error = `exit ${code}: ${errTail.trim().split('\n').pop() ?? ''}`;
      else if (!figures) error = 'no BENCH_RESULT line';
      resolve({ spec, args, code, seconds: (performance.now() - started) / 1000, loadAtStart, figures, notes, error });
    });
  });
}

const cell = (s: string) => s.replace(/\|/g, '\\|');

async function main() {
  const wanted = process.argv.slice(2);
  const unknown = wanted.filter((w) => !BENCHES.some((b) => b.name === w));
  if (unknown.length) {
    console.error(`Unknown benchmark(s): ${unknown.join(', ')}. Available: ${BENCHES.map((b) => b.name).join(', ')}`);
    process.exit(2);
  }
  const chosen = wanted.length ? BENCHES.filter((b) => wanted.includes(b.name)) : BENCHES;
  const m = machine();
  const date = new Date().toISOString();
  const loadStart = loadavg();

  const outcomes: Outcome[] = [];
  for (const spec of chosen) outcomes.push(await runOne(spec));
  const loadEnd = loadavg();

  const lines: string[] = [];
  lines.push(`# Benchmarks${quick ? ' — quick mode (BENCH_QUICK=1)' : ''}`, '');
  lines.push(`- Date: ${date}`);
  lines.push(`- CPU: ${m.cpu}`);
  lines.push(`- Memory: ${m.memory}`);
  lines.push(`- Node: ${m.node}; ${m.os}`);
  lines.push(`- Load average (1 / 5 / 15 min): ${loadStart} at start, ${loadEnd} at end`);
  lines.push(
    `- Store: ${process.env.DATABASE_URL ? 'PostgreSQL (DATABASE_URL)' : 'SQLite'}; Redis: ${process.env.REDIS_URL ? 'yes (REDIS_URL)' : 'no'}; commit ${m.commit}`,
  );
  if (quick) {
    lines.push('- **Quick mode**: reduced sizes to check that every benchmark runs; the figures are not evidence for or against the targets.');
  }
  lines.push('', '| Benchmark | Figure | Target | Measured | Ratio | Verdict |', '|---|---|---|---|---|---|');
  for (const o of outcomes) {
    const rows = ROWS.filter((r) => r.bench === o.spec.name);
    if (o.error && !o.figures) {
      lines.push(`| ${o.spec.name} | — | — | **failed**: ${cell(o.error)} | — | **not measured** |`);
      continue;
    }
    for (const r of rows) {
      const f = o.figures!;
      const v = f[r.key];
      const { ratio, verdict: vd } = verdict(r, f);
      lines.push(
        `| ${r.bench} | ${cell(r.figure)} | ${r.target ? cell(r.target.text(f)) : '—'} | ${v === undefined ? 'no sample' : format(v, r.unit)} | ${ratio} | ${vd} |`,
      );
    }
    if (o.error) lines.push(`| ${o.spec.name} | — | — | ${cell(o.error)} | — | — |`);
  }
  lines.push('', '| Benchmark | Arguments | Run time | Load average at its start | Result |', '|---|---|---|---|---|');
  for (const o of outcomes) {
    const notes = Object.entries(o.notes)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ');
    lines.push(
      `| ${o.spec.name} | ${o.args.length ? `\`${o.args.join(' ')}\`` : '(defaults)'} | ${o.seconds.toFixed(0)} s | ${o.loadAtStart.toFixed(2)} | ${o.error ? cell(o.error) : `ok${notes ? `; ${cell(notes)}` : ''}`} |`,
    );
  }
  const table = `${lines.join('\n')}\n`;
  fs.mkdirSync(path.join(root, 'build'), { recursive: true });
  fs.writeFileSync(path.join(root, 'build/bench-table.md'), table);
  process.stdout.write(`\n${table}`);
  process.stderr.write('\n(written to build/bench-table.md)\n');
  process.exit(outcomes.some((o) => o.error) ? 1 : 0);
}

await main();
