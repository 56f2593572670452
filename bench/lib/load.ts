import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';

// Open-loop HTTP load: `rate` requests per second at fixed intervals whatever the
// answers, like real clients (a slow server is not given a break), for `durationMs`
// or until the parent says 'stop'. Latency counts from the moment a request was due.
// Requests go round-robin over the URLs (one origin), each URL over connections of its
// own: otherwise slow answers of one URL (an uncached list waiting for the database)
// hold every connection and the others queue behind them in this client, which measured
// the client's queue instead of the server's answer (docs/ingestion.md, "Profile of a round"). Prints one JSON line per URL:
// answered, errors, achieved req/s, latency percentiles, and how many answers said
// `X-Cache: HIT` (the cache hit ratio of a cached route while the store changes).
//   tsx bench/lib/load.ts <durationMs> <rate> <url> [<url> ...]

const [durationArg, rateArg, ...urls] = process.argv.slice(2);
const targets = urls.map((u) => new URL(u));
const duration = Number(durationArg ?? 3000);
const rate = Number(rateArg ?? 200);
const paths = targets.map((t) => t.pathname + t.search);
const pools = targets.map((t) => new Pool(t.origin, { connections: 64, pipelining: 1 }));
const latencies: number[][] = paths.map(() => []);
const errors: number[] = paths.map(() => 0);
const hits: number[] = paths.map(() => 0);
let sent = 0;
let stop = false;
process.on('message', (m) => {
  if (m === 'stop') stop = true;
});

const pending = new Set<Promise<void>>();
function fire(dueAt: number) {
  const i = sent++ % paths.length;
  const p = (async () => {
    try {
      const res = await pools[i]!.request({ method: 'GET', path: paths[i]! });
      await res.body.dump();
      if (res.statusCode !== 200) errors[i]!++;
      else latencies[i]!.push(performance.now() - dueAt);
      if (res.headers['x-cache'] === 'HIT') hits[i]!++;
    } catch {
      errors[i]!++;
    }
  })();
  pending.add(p);
  void p.finally(() => pending.delete(p));
}

const started = performance.now();
const interval = 1000 / rate;
let next = started;
while (!stop && performance.now() - started < duration) {
  const now = performance.now();
  while (next <= now) {
    fire(next);
    next += interval;
  }
  await new Promise((r) => setTimeout(r, Math.max(1, next - performance.now())));
}
const elapsed = performance.now() - started;
await Promise.all([...pending]);
const q = (l: number[], p: number) => (l.length ? l[Math.min(l.length - 1, Math.floor(p * l.length))]! : 0);
for (const [i, path] of paths.entries()) {
  const l = latencies[i]!.sort((a, b) => a - b);
  console.log(
    JSON.stringify({
      path,
      requests: l.length,
      errors: errors[i],
      hits: hits[i],
      seconds: elapsed / 1000,
      rps: l.length / (elapsed / 1000),
      p50: q(l, 0.5),
      p99: q(l, 0.99),
      max: l.at(-1) ?? 0,
    }),
  );
}
await Promise.all(pools.map((p) => p.close()));
process.exit(0);
