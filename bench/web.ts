import { PUBLIC_AUDIENCE } from '../src/domain/audience.ts';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/infra/config.ts';
import { createRepositories } from '../src/services/index.ts';
import { openStore } from '../src/store/db.ts';
import { reportFigures } from './lib/report.ts';
import { runLoad } from './load.ts';

// Server-side rendering of the dashboard with the whole catalog (80+ vendors):
// the overview (every vendor's state in a fixed number of queries), its live
// partial, and a busy vendor page. Prints req/s and latency per page.
//
//   npm run bench -- web [--seconds 5] [--connections 8] [--active 40] [--history 3000]
//   DATABASE_URL=postgres://... npm run bench -- web

function option(args: string[], name: string, fallback: number): number {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
}

export async function webBench(args: string[]) {
  const seconds = option(args, 'seconds', 5);
  const connections = option(args, 'connections', 8);
  const activeCount = option(args, 'active', 40);
  const history = option(args, 'history', 3000);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vis-bench-web-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    INGEST: 'off',
    DATABASE_URL: process.env.DATABASE_URL ?? '',
    DATABASE_SCHEMA: process.env.DATABASE_URL ? `bench_web_${process.pid}` : '',
  });
  const store = openStore(config);
  const app = await buildApp(config, { store });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as { port: number }).port;

  const repos = createRepositories(store);
  const vendors = (await repos.vendors.list(PUBLIC_AUDIENCE)).map((v) => v.slug);
  const now = Date.now();
  const body = 'We are investigating elevated error rates for API requests. '.repeat(4);
  for (let i = 0; i < history + activeCount; i++) {
    const active = i < activeCount;
    const vendor = vendors[i % vendors.length]!;
    const startedAt = new Date(now - (active ? i * 600_000 : (i % 2160) * 3_600_000)).toISOString();
    const status = active ? 'investigating' : 'resolved';
    await repos.incidents.upsert(
      {
        id: `${vendor}:bench-${i}`,
        vendor,
        title: `Elevated error rates (${i})`,
        status,
        sourceStatus: status,
        impact: (['minor', 'major', 'critical', 'minor'] as const)[i % 4]!,
        startedAt,
        updatedAt: startedAt,
        resolvedAt: active ? null : new Date(Date.parse(startedAt) + 2_700_000).toISOString(),
        components: ['API', 'Webhooks'],
        updates: [
          { status: 'investigating', body, createdAt: startedAt },
          { status, body, createdAt: startedAt },
        ],
        url: null,
        source: 'statuspage-v2',
      },
      `fp-${i}`,
    );
  }
  for (const [k, vendor] of vendors.entries()) {
    await repos.status.setStatus(vendor, { indicator: k % 9 === 0 ? 'degraded' : 'operational', description: 'x', checkedAt: new Date().toISOString() });
  }
  const busiest = vendors[0]!;
  console.log(
    `web pages — ${vendors.length} vendors, ${activeCount} active and ${history} past incidents, ${config.databaseUrl ? 'PostgreSQL' : 'SQLite'}, ${connections} connections, ${seconds} s per page`,
  );
  const figures: Record<string, number> = {};
  const keys: Record<string, string> = { '/': 'overview', '/partials/overview': 'partial', [`/vendors/${busiest}`]: 'vendorPage' };
  for (const target of ['/', '/partials/overview', `/vendors/${busiest}`]) {
    const t0 = performance.now();
    const first = await fetch(`http://127.0.0.1:${port}${target}`);
    const bytes = (await first.arrayBuffer()).byteLength;
    const single = performance.now() - t0;
    const r = await runLoad({ port, path: target, headers: {}, connections, seconds, warmupSeconds: 1, expectStatus: 200 });
    console.log(
      `GET ${target.padEnd(22)} ${String(bytes).padStart(7)} bytes   first ${single.toFixed(1)} ms   ${r.rps.toFixed(0)} req/s   p50 ${r.p50ms.toFixed(2)} ms   p99 ${r.p99ms.toFixed(2)} ms   errors ${r.unexpected}`,
    );
    const k = keys[target]!;
    Object.assign(figures, { [`${k}.rps`]: r.rps, [`${k}.p50Ms`]: r.p50ms, [`${k}.p99Ms`]: r.p99ms, [`${k}.errors`]: r.unexpected, [`${k}.bytes`]: bytes });
  }
  reportFigures('web', figures, { vendors: vendors.length, database: config.databaseUrl ? 'PostgreSQL' : 'SQLite', connections, seconds });
  await app.close();
  await store.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
