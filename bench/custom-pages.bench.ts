import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { API_PREFIX, buildApp } from '../src/app.ts';
import { loadConfig } from '../src/infra/config.ts';
import { openStore } from '../src/store/db.ts';
import { pct, reportFigures } from './lib/report.ts';

// Status pages added by URL (docs/per-user.md "Custom status pages"), over a real
// listening server and a Statuspage-format page on loopback (allow-listed):
// - time of POST /account/status-pages when the platform is found (second probe) and when
//   nothing is (every probe answers 404);
// - GET /incidents?skipCache=true for an anonymous caller and for the owner of 20 pages
//   (the visibility subquery runs on every list).
//
//   npm run bench -- custom-pages
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench -- custom-pages

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

const summary = (n: number) =>
  JSON.stringify({
    page: { id: 'ab12cd34ef56', name: `Bench ${n}`, url: 'https://bench.example' },
    status: { indicator: 'none', description: 'All Systems Operational' },
    components: [],
    incidents: [],
    scheduled_maintenances: [],
  });

const pageServer = http.createServer((req, res) => {
  const m = /^\/p(\d+)\/api\/v2\/summary\.json$/.exec(req.url ?? '');
  if (!m) return void res.writeHead(404).end('no');
  res.writeHead(200, { 'content-type': 'application/json' }).end(summary(Number(m[1])));
});
await new Promise<void>((r) => pageServer.listen(0, '127.0.0.1', r));
const pages = `http://127.0.0.1:${(pageServer.address() as AddressInfo).port}`;

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vis-bench-'));
const schema = process.env.DATABASE_URL ? `bench_${process.pid}` : '';
const config = loadConfig({
  DATA_DIR: dataDir,
  LOG_LEVEL: 'silent',
  INGEST: 'off',
  OUTBOUND_ALLOW_PRIVATE: '127.0.0.1',
  DATABASE_URL: process.env.DATABASE_URL ?? '',
  DATABASE_SCHEMA: schema,
  RATE_LIMITS: JSON.stringify({ anonymous: { perMinute: 1e9, perDay: 1e9 }, enterprise: { perMinute: 1e9, perDay: 1e9 } }),
});
const store = openStore(config);
const app = await buildApp(config, { store });
await app.listen({ port: 0, host: '127.0.0.1' });
const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
try {
  const user = await app.services.accounts.createUser({ email: `bench.${process.pid}@example.com`, password: 'bench password 123', plan: 'enterprise' });
  const { secret } = await app.services.keys.create(await app.services.accounts.personalViewer(user.id), 'bench');
  const headers = { 'x-api-key': secret, 'content-type': 'application/json' };
  const add = (url: string) =>
    fetch(`${base}/api/v1/account/status-pages`, { method: 'POST', headers, body: JSON.stringify({ url }) }).then(async (r) => {
      await r.text();
      return r.status;
    });

  const found: number[] = [];
  for (let i = 0; i < 20; i++)
    found.push(
      await timed(async () => {
        const s = await add(`${pages}/p${i}/`);
        if (s !== 201) throw new Error(`add: ${s}`);
      }),
    );
  const missing: number[] = [];
  for (let i = 0; i < 5; i++)
    missing.push(
      await timed(async () => {
        const s = await add(`${pages}/none${i}/`);
        if (s !== 422) throw new Error(`undetected: ${s}`);
      }),
    );

  const list = async (h: Record<string, string>, n: number) => {
    const xs: number[] = [];
    for (let i = 0; i < n; i++) xs.push(await timed(async () => (await fetch(`${base}${API_PREFIX}/incidents?skipCache=true`, { headers: h })).text()));
    return xs;
  };
  await list({}, 20);
  const anon = await list({}, 200);
  const owner = await list({ 'x-api-key': secret }, 200);

  const figures = {
    add_found_p50_ms: pct(found, 0.5),
    add_found_p95_ms: pct(found, 0.95),
    add_undetected_p50_ms: pct(missing, 0.5),
    incidents_anonymous_p50_ms: pct(anon, 0.5),
    incidents_anonymous_p95_ms: pct(anon, 0.95),
    incidents_owner_p50_ms: pct(owner, 0.5),
    incidents_owner_p95_ms: pct(owner, 0.95),
  };
  for (const [k, v] of Object.entries(figures)) console.log(`${k.padEnd(28)} ${v.toFixed(1)}`);
  reportFigures('custom-pages', figures, { store: config.databaseUrl ? 'postgres' : 'sqlite', privatePages: 20 });
} finally {
  await app.close();
  await store.close();
  pageServer.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
  if (schema) {
    const pg = await import('pg');
    const c = new pg.default.Client({ connectionString: process.env.DATABASE_URL });
    await c.connect();
    await c.query(`drop schema if exists "${schema}" cascade`);
    await c.end();
  }
}
