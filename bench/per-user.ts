import { PUBLIC_AUDIENCE } from '../src/domain/audience.ts';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { API_PREFIX, buildApp } from '../src/app.ts';
import { loadConfig } from '../src/infra/config.ts';
import { openStore } from '../src/store/db.ts';
import { incidentsRepository } from '../src/store/repositories/incidents-repository.ts';
import { maintenancesRepository } from '../src/store/repositories/maintenances-repository.ts';
import { publicationsRepository } from '../src/store/repositories/publications-repository.ts';
import { pct, reportFigures } from './lib/report.ts';

// POST /dashboard-favorites latency by vendor count, over a real listening server
// (the same body repeated, and a body that differs every time),
// with a seeded history (every catalog vendor: incidents over 90 days, maintenance,
// advisories, release notes), plus the time of 20 concurrent watchlist adds.
//
//   npm run bench -- per-user [--requests 30] [--incidents 200] [--sizes 1,10,40,all] [--data-dir DIR]
//
// `--data-dir DIR` (SQLite only) keeps the seeded store in DIR and reuses it on the next
// run: the seeding takes minutes on a busy machine, and before/after runs then read
// the very same rows.
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench -- per-user

function option(args: string[], name: string, fallback: number): number {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
}

const ms = (n: number) => `${n.toFixed(1)} ms`;

export async function perUserBench(args: string[]) {
  const requests = option(args, 'requests', 30);
  const perVendor = option(args, 'incidents', 200);
  const keptDir = args.indexOf('--data-dir') >= 0 && !process.env.DATABASE_URL ? args[args.indexOf('--data-dir') + 1]! : null;
  if (keptDir) fs.mkdirSync(keptDir, { recursive: true });
  const seededMark = keptDir ? path.join(keptDir, `seeded-${perVendor}`) : null;
  const dataDir = keptDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'vis-bench-'));
  const schema = process.env.DATABASE_URL ? `bench_${process.pid}` : '';
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    INGEST: 'off',
    DATABASE_URL: process.env.DATABASE_URL ?? '',
    DATABASE_SCHEMA: schema,
    RATE_LIMITS: JSON.stringify({ free: { perMinute: 1e9, perDay: 1e9 }, pro: { perMinute: 1e9, perDay: 1e9 } }),
  });
  const store = openStore(config);
  const app = await buildApp(config, { store });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const addr = app.server.address();
  const api = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}${API_PREFIX}`;
  try {
    const vendors = (await app.services.catalog.list(PUBLIC_AUDIENCE)).map((v) => v.id);
    const now = Date.now();
    const t0 = performance.now();
    const reuse = seededMark !== null && fs.existsSync(seededMark);
    for (const v of reuse ? [] : vendors) {
      await store.db.transaction().execute(async (trx) => {
        const i2 = incidentsRepository(trx);
        const m2 = maintenancesRepository(trx);
        const p2 = publicationsRepository(trx);
        for (let i = 0; i < perVendor; i++) {
          const startedAt = new Date(now - ((i * 90 * 86_400_000) / perVendor + 60_000)).toISOString();
          await i2.upsert(
            {
              id: `${v}:i${i}`,
              vendor: v,
              title: `Incident ${i}`,
              status: i % 10 === 0 ? 'investigating' : 'resolved',
              sourceStatus: 'resolved',
              impact: (['none', 'minor', 'major', 'critical'] as const)[i % 4]!,
              startedAt,
              updatedAt: startedAt,
              resolvedAt: i % 10 === 0 ? null : new Date(Date.parse(startedAt) + 1_800_000).toISOString(),
              components: ['API'],
              updates: [{ status: 'resolved', body: 'Fixed', createdAt: startedAt }],
              url: null,
              source: 'bench',
            },
            'f',
          );
        }
        for (let i = 0; i < 20; i++) {
          const at = new Date(now + (i - 10) * 86_400_000).toISOString();
          await m2.upsert(
            {
              id: `${v}:m${i}`,
              vendor: v,
              title: `Maintenance ${i}`,
              status: i < 10 ? 'completed' : 'scheduled',
              sourceStatus: 'scheduled',
              impact: 'none',
              scheduledFor: at,
              scheduledUntil: at,
              startedAt: null,
              completedAt: i < 10 ? at : null,
              components: [],
              updates: [],
              url: null,
              source: 'bench',
            },
            'f',
          );
          const pubAt = new Date(now - i * 3 * 86_400_000).toISOString();
          await p2.upsertAdvisory(
            {
              id: `${v}:a${i}`,
              vendor: v,
              title: `Advisory ${i}`,
              severity: 'high',
              cves: [],
              publishedAt: pubAt,
              updatedAt: pubAt,
              summary: 's',
              url: null,
              source: 'bench',
            },
            'f',
          );
          await p2.upsertUpdate(
            { id: `${v}:u${i}`, vendor: v, title: `Release ${i}`, publishedAt: pubAt, summary: 's', categories: [], url: null, source: 'bench' },
            'f',
          );
        }
      });
    }
    if (seededMark && !reuse) fs.writeFileSync(seededMark, '');
    console.log(
      `${reuse ? 'reused' : 'seeded'} ${vendors.length} vendors x (${perVendor} incidents, 20 maintenance, 20 advisories, 20 updates) in ${ms(performance.now() - t0)} on ${store.dialect}`,
    );

    const user = await app.services.accounts.createUser({ email: `bench${process.pid}@example.com`, password: 'bench password 1', plan: 'pro' });
    const { secret } = await app.services.keys.create(await app.services.accounts.personalViewer(user.id), 'bench');
    const headers = { 'x-api-key': secret, 'content-type': 'application/json' };

    console.log(`POST /dashboard-favorites, all four sections, timePeriod 90d, ${requests} sequential requests each:`);
    const figures: Record<string, number> = {};
    const sizesArg = args.indexOf('--sizes') >= 0 ? args[args.indexOf('--sizes') + 1]! : '1,10,40,all';
    const sizes = sizesArg.split(',').map((s) => (s === 'all' ? vendors.length : Math.min(Number(s), vendors.length)));
    for (const n of sizes) {
      const list = vendors.slice(0, n);
      const bodyOf = (l: string[]) => JSON.stringify({ vendors: l, sections: ['stats', 'maintenance', 'advisories', 'recentActivity'], timePeriod: '90d' });
      const post = async (body: string) => {
        const s = performance.now();
        const res = await fetch(`${api}/dashboard-favorites`, { method: 'POST', headers, body });
        const text = await res.text();
        if (res.status !== 200) throw new Error(`${res.status} ${text}`);
        return { ms: performance.now() - s, bytes: text.length, cache: res.headers.get('x-cache') ?? '-' };
      };
      // The same body again and again (a dashboard polling): after the first, the
      // response cache answers (docs/per-user.md "Dashboard bundle").
      const times: number[] = [];
      const seen = new Set<string>();
      let bytes = 0;
      for (let i = 0; i < requests + 3; i++) {
        const r = await post(bodyOf(list));
        if (i >= 3) times.push(r.ms);
        if (i >= 3) seen.add(r.cache);
        bytes = r.bytes;
      }
      // Another signed-in account without private pages asking for the same bundle, right
      // after (within the entry's 60 s): it reads what the public reads, so it may be
      // answered from the first one's entry (docs/access.md "Response cache", "Who shares").
      if (n === vendors.length) {
        const other = await app.services.accounts.createUser({ email: `bench-other${process.pid}@example.com`, password: 'bench password 1', plan: 'pro' });
        const otherKey = (await app.services.keys.create(await app.services.accounts.personalViewer(other.id), 'bench')).secret;
        const s = performance.now();
        const res = await fetch(`${api}/dashboard-favorites`, { method: 'POST', headers: { ...headers, 'x-api-key': otherKey }, body: bodyOf(list) });
        await res.text();
        const otherMs = performance.now() - s;
        console.log(`  whole catalog, first request of a second account: ${ms(otherMs)} (X-Cache ${res.headers.get('x-cache') ?? '-'})`);
        figures['bundle.all.otherAccountFirstMs'] = otherMs;
      }
      // Built every time: the vendor list rotated by one per request (same work, a new
      // cache key each time), what a first view or a view after a data change costs.
      const cold: number[] = [];
      const coldRequests = Math.max(3, Math.min(requests, 10));
      for (let i = 0; i < coldRequests; i++) cold.push((await post(bodyOf([...list.slice(i + 1), ...list.slice(0, i + 1)]))).ms);
      console.log(
        `  ${String(n).padStart(3)} vendors: repeated p50 ${ms(pct(times, 0.5))}, p95 ${ms(pct(times, 0.95))} (X-Cache ${[...seen].join('/')}); ` +
          `built each time p50 ${ms(pct(cold, 0.5))}, p95 ${ms(pct(cold, 0.95))} (${coldRequests}); ${(bytes / 1024).toFixed(0)} KiB`,
      );
      // The whole catalog is keyed `all` (its size depends on the catalog).
      const k = n === vendors.length ? 'bundle.all' : `bundle.${n}`;
      Object.assign(figures, {
        [`${k}.p50Ms`]: pct(times, 0.5),
        [`${k}.p95Ms`]: pct(times, 0.95),
        [`${k}.coldP50Ms`]: pct(cold, 0.5),
        [`${k}.coldP95Ms`]: pct(cold, 0.95),
        [`${k}.kib`]: bytes / 1024,
      });
    }

    const free = await app.services.accounts.createUser({ email: `bench-free${process.pid}@example.com`, password: 'bench password 1', plan: 'free' });
    const freeKey = (await app.services.keys.create(await app.services.accounts.personalViewer(free.id), 'bench')).secret;
    const s = performance.now();
    const results = await Promise.all(
      vendors.slice(0, 20).map((v) => fetch(`${api}/watchlist/${v}`, { method: 'POST', headers: { 'x-api-key': freeKey } }).then((r) => r.status)),
    );
    const watchlistMs = performance.now() - s;
    console.log(
      `20 concurrent POST /watchlist/{vendor} (free plan): ${ms(watchlistMs)} in all, ${results.filter((r) => r === 200).length} added, ${results.filter((r) => r === 403).length} refused at the cap`,
    );
    figures['watchlist.concurrent20Ms'] = watchlistMs;
    reportFigures('per-user', figures, { vendors: vendors.length, incidentsPerVendor: perVendor, requests, database: store.dialect });
  } finally {
    await app.close();
    if (schema) {
      const { sql } = await import('kysely');
      await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(store.db).catch(() => {});
    }
    await store.close();
    if (!keptDir) fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
