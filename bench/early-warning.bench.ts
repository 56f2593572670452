import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_RULES, fuse, type Observation } from '../src/domain/early-warning.ts';
import { addSample, type ProbeSample, probeStep } from '../src/domain/probes.ts';
import type { CatalogVendor } from '../src/domain/records.ts';
import { loadConfig } from '../src/infra/config.ts';
import { runCheck } from '../src/probes/index.ts';
import { guardedAgent } from '../src/infra/ssrf-guard.ts';
import { probesService } from '../src/services/probes/probes-service.ts';
import { openStore } from '../src/store/db.ts';
import { probesRepository } from '../src/store/repositories/probes-repository.ts';

// Early warning from probes (docs/early-warning.md "Probes"), in a seeded simulation: vendors'
// endpoints answer with their own latency and rare stray failures, have blips (one to three bad
// samples, short slow spells) that never become incidents, and outages (partial or total, 10
// to 90 minutes) that the vendor's page admits only after a lag drawn like the published one
// (median 16 min, mean about 29, at most 121). Probes run every 30..60 s through the real rules
// (baseline, anomaly, fusion with the solo `probe` row), and the figures printed are:
//   - outages detected before the page (a signal opened between the outage's start and the page);
//   - the median lead over the page;
//   - false alarms: signals opened outside any outage, per vendor per simulated week;
//   - CPU of 500 probes a minute: real http checks against a local endpoint in another process,
//     with their samples written to a SQLite store through the probes' use case.
// Targets: >= 90 % detected, median lead >= 5 min, <= 1 false alarm per vendor per week,
// <= 2 % of one core. The figures are printed as measured, met or not.
//
//   npm run bench -- early-warning [vendors=30] [weeks=4] [seed=42]

const VENDORS = Number(process.argv[2] ?? 30);
const WEEKS = Number(process.argv[3] ?? 4);
let seed = Number(process.argv[4] ?? 42);
const rand = () => {
  // mulberry32
  seed = (seed + 0x6d2b79f5) | 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const normal = () => Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
const lognormal = (median: number, sigma: number) => median * Math.exp(sigma * normal());
const MIN = 60_000;
const T0 = Date.UTC(2026, 0, 5);
const SPAN = WEEKS * 7 * 24 * 60 * MIN;

interface Outage {
  start: number;
  end: number;
  page: number;
  failP: number;
  slow: number;
}
interface Blip {
  start: number;
  end: number;
  failP: number;
  slow: number;
}

function simulateVendor(v: number) {
  const base = 60 + rand() * 240;
  const outages: Outage[] = [];
  const blips: Blip[] = [];
  // About one outage a week per vendor, at random times.
  for (let t = T0 + rand() * 7 * 24 * 60 * MIN; t < T0 + SPAN - 3 * 60 * MIN; t += (3 + rand() * 8) * 24 * 60 * MIN) {
    const duration = (10 + rand() * 80) * MIN;
    // The page's lag: lognormal around a 16 min median (mean ~29), capped at 121 min.
    const lag = Math.min(121, Math.max(2, lognormal(16, 0.9))) * MIN;
    const kind = rand();
    outages.push({
      start: t,
      end: t + duration,
      page: t + lag,
      failP: kind < 0.6 ? 0.9 + rand() * 0.1 : kind < 0.85 ? 0.5 + rand() * 0.4 : 0.05,
      slow: kind >= 0.85 ? 6 + rand() * 6 : 1,
    });
  }
  // Blips: several a day, one to three samples long.
  for (let t = T0; t < T0 + SPAN; t += lognormal(4 * 60, 0.8) * MIN) {
    const len = (0.5 + rand() * 2.5) * MIN;
    blips.push({ start: t, end: t + len, failP: rand() < 0.7 ? 0.8 : 0, slow: rand() < 0.3 ? 5 : 1 });
  }
  const within = <T extends { start: number; end: number }>(list: T[], t: number) => list.find((x) => t >= x.start && t < x.end);

  let samples: ProbeSample[] = [];
  let anomalous = false;
  const obs: Observation[] = [];
  const signals: number[] = [];
  let signalLast: number | null = null;
  let lastClosed: string | null = null;
  let n = 0;
  for (let t = T0; t < T0 + SPAN; t += 45_000 * (2 / 3 + (2 / 3) * rand())) {
    const o = within(outages, t);
    const b = within(blips, t);
    const failP = o ? o.failP : b ? b.failP : 0.002;
    const slow = o ? o.slow : b ? b.slow : 1;
    const failed = rand() < failP;
    const latency = Math.round(lognormal(base, 0.25) * slow);
    const sample: ProbeSample = { at: new Date(t).toISOString(), ok: !failed, latencyMs: failed ? null : latency, reason: failed ? 'status 503' : null };
    samples = addSample(samples, sample);
    const step = probeStep(samples, anomalous);
    const now = new Date(t);
    // An open signal clears after the quiet period with no observation.
    if (signalLast !== null && t - signalLast >= DEFAULT_RULES.quietMs) {
      lastClosed = new Date(signalLast + DEFAULT_RULES.quietMs).toISOString();
      signalLast = null;
    }
    // What the probes' use case does with a sample: an observation when the rules make one.
    if (step.strength !== null) {
      const ob: Observation = {
        id: `o${v}-${n++}`,
        orgId: 'o',
        source: 'probe',
        vendor: `v${v}`,
        components: [],
        regions: [],
        strength: step.strength,
        observedAt: now.toISOString(),
        summary: '',
        actor: 'probe:x',
      };
      obs.push(ob);
      if (signalLast !== null) signalLast = t;
      else {
        const recent = obs.filter((x) => Date.parse(x.observedAt) >= t - DEFAULT_RULES.windowMs);
        if (fuse(recent, now, DEFAULT_RULES, lastClosed).open) {
          signals.push(t);
          signalLast = t;
        }
      }
      while (obs.length && Date.parse(obs[0]!.observedAt) < t - DEFAULT_RULES.windowMs) obs.shift();
    }
    anomalous = step.anomalous;
  }
  let before = 0;
  const leads: number[] = [];
  for (const o of outages) {
    const s = signals.find((x) => x >= o.start - 5 * MIN && x < o.page);
    if (s !== undefined) {
      before++;
      leads.push((o.page - s) / MIN);
    } else if (process.env.BENCH_DEBUG) {
      const after = signals.find((x) => x >= o.start - 5 * MIN && x <= o.end + 30 * MIN);
      console.log(
        `miss: lag ${((o.page - o.start) / MIN).toFixed(1)} min, failP ${o.failP.toFixed(2)}, slow ${o.slow.toFixed(1)}, dur ${((o.end - o.start) / MIN).toFixed(0)}, signal ${after === undefined ? 'none' : `${((after - o.start) / MIN).toFixed(1)} min after start`}`,
      );
    }
  }
  const falseAlarms = signals.filter((s) => !outages.some((o) => s >= o.start - 5 * MIN && s <= o.end + DEFAULT_RULES.quietMs)).length;
  return { outages: outages.length, before, leads, falseAlarms };
}

let outages = 0;
let before = 0;
let falseAlarms = 0;
const leads: number[] = [];
for (let v = 0; v < VENDORS; v++) {
  const r = simulateVendor(v);
  outages += r.outages;
  before += r.before;
  falseAlarms += r.falseAlarms;
  leads.push(...r.leads);
}
leads.sort((a, b) => a - b);
const median = leads.length ? leads[Math.floor((leads.length - 1) / 2)]! : null;
const detectedPct = outages ? (100 * before) / outages : 0;
const faPerVendorWeek = falseAlarms / VENDORS / WEEKS;
console.log(`simulation: ${VENDORS} vendors, ${WEEKS} weeks, ${outages} outages (a tenth or so only slow, not failing)`);
console.log(`detected before the page: ${before}/${outages} = ${detectedPct.toFixed(1)} %  (target >= 90 %) ${detectedPct >= 90 ? 'met' : 'NOT met'}`);
console.log(
  `median lead over the page: ${median === null ? 'n/a' : `${median.toFixed(1)} min`}  (target >= 5 min) ${median !== null && median >= 5 ? 'met' : 'NOT met'}`,
);
console.log(`false alarms: ${falseAlarms} = ${faPerVendorWeek.toFixed(2)} per vendor per week  (target <= 1) ${faPerVendorWeek <= 1 ? 'met' : 'NOT met'}`);

// CPU of 500 probes a minute: real checks, real store writes.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ew-bench-'));
const server = spawn(
  process.execPath,
  [
    '-e',
    "require('node:http').createServer((q,s)=>{s.writeHead(401,{'content-type':'application/json'});s.end('{\"message\":\"unauthorized\"}')}).listen(0,'127.0.0.1',function(){process.send(this.address().port)})",
  ],
  { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
);
const port = await new Promise<number>((r) => server.once('message', (m) => r(Number(m))));
const config = loadConfig({
  DATA_DIR: dir,
  INGEST: 'off',
  LOG_LEVEL: 'silent',
  ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
});
const store = openStore(config);
await store.migrate();
const clock = { now: () => new Date() };
const probes = probesService({
  probes: probesRepository(store.db),
  signals: { observe: async () => ({ observation: null as never, signal: null }) },
  clock,
  intervalMs: 60_000,
});
const PROBES = 500;
await probes.syncCatalog([
  {
    slug: 'bench',
    probes: Array.from({ length: PROBES }, (_, i) => ({ kind: 'http' as const, url: `http://localhost:${port}/v1/x?${i}`, expect: [200, 401] })),
  } as CatalogVendor,
]);
const agent = guardedAgent({ allowList: ['localhost'], timeoutMs: 5_000, connections: 16 });
const claimed = await probes.claimDue('bench', PROBES, 120_000);
const cpu0 = process.cpuUsage();
const wall0 = performance.now();
let okCount = 0;
for (let i = 0; i < claimed.length; i += 16) {
  await Promise.all(
    claimed.slice(i, i + 16).map(async (p) => {
      const s = await runCheck(p.spec, { agent, allowList: ['localhost'], timeoutMs: 5_000, now: Date.now });
      if (s.ok) okCount++;
      await probes.record(p, 'bench', s);
    }),
  );
}
const cpu = process.cpuUsage(cpu0);
const wall = performance.now() - wall0;
const cpuMs = (cpu.user + cpu.system) / 1000;
const pctCore = (100 * cpuMs) / 60_000;
console.log(
  `cpu of ${claimed.length} probes (${okCount} good; checks and store writes, ${process.env.DATABASE_URL ? 'PostgreSQL' : 'SQLite'}): ${cpuMs.toFixed(0)} ms of CPU in ${wall.toFixed(0)} ms = ${pctCore.toFixed(2)} % of one core at 500 a minute  (target <= 2 %) ${pctCore <= 2 ? 'met' : 'NOT met'}`,
);
await agent.close();
await store.close();
server.kill();
fs.rmSync(dir, { recursive: true, force: true });
