import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { builtApp } from './lib/built-app.ts';
import { reportFigures } from './lib/report.ts';
import { runMeasured } from './load.ts';

// Cached GET /incidents?limit=50 and /vendor-status/{v} through the whole access
// pipeline (API key authentication, rate limiting that counts every request,
// response cache HIT) against a bare node:http server answering the same bytes and
// headers, in the same run. Plan limits are raised through RATE_LIMITS so nothing is refused.
//
// Each round also loads the app with If-None-Match (304, not counted): 304s must be at
// least as fast as the 200s they stand for.
//
//   npm run bench -- access [--seconds 5] [--connections 50] [--rounds 3]
//   REDIS_URL=redis://127.0.0.1:6379 npm run bench -- access   (limits and cache in Redis)

function option(args: string[], name: string, fallback: number): number {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function accessBench(args: string[]) {
  // The app as `npm start` runs it (compiled by tsc), not through tsx (bench/lib/built-app.ts).
  const { buildApp, API_PREFIX, loadConfig, openStore, incidentsRepository } = await builtApp();
  const seconds = option(args, 'seconds', 5);
  const connections = option(args, 'connections', 50);
  const rounds = option(args, 'rounds', 3);
  // --app-only: load only the app (for profiling with --cpu-prof).
  const appOnly = args.includes('--app-only');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vis-bench-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    INGEST: 'off',
    REDIS_URL: process.env.REDIS_URL ?? '',
    REDIS_PREFIX: `vis-bench-${process.pid}:`,
    RATE_LIMITS: JSON.stringify({ pro: { perMinute: 1_000_000_000, perDay: 1_000_000_000 } }),
  });
  const store = openStore(config);
  const app = await buildApp(config, { store });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const appPort = (app.server.address() as { port: number }).port;

  // 60 incidents so the first page is a realistic 50-item body.
  const repo = incidentsRepository(store.db);
  const vendors = ['github', 'cloudflare', 'stripe', 'openai'];
  for (let i = 0; i < 60; i++) {
    const startedAt = new Date(Date.now() - (i + 1) * 3_600_000).toISOString();
    const status = i % 3 === 0 ? 'investigating' : 'resolved';
    await repo.upsert(
      {
        id: `${vendors[i % 4]}:bench-${i}`,
        vendor: vendors[i % 4],
        title: `Elevated error rates on API requests (${i})`,
        status,
        sourceStatus: status,
        impact: i % 5 === 0 ? 'major' : 'minor',
        startedAt,
        updatedAt: startedAt,
        resolvedAt: status === 'resolved' ? new Date(Date.parse(startedAt) + 2_700_000).toISOString() : null,
        components: ['API', 'Webhooks'],
        updates: [
          { status: 'investigating', body: 'We are investigating elevated error rates for API requests.', createdAt: startedAt },
          { status, body: 'A fix has been implemented and we are monitoring the results.', createdAt: startedAt },
        ],
        url: `https://status.example.com/incidents/${i}`,
        source: 'statuspage-v2',
      },
      `fp-${i}`,
    );
  }
  const user = await app.services.accounts.createUser({ email: 'bench@example.com', password: 'bench password', plan: 'pro' });
  const { secret } = await app.services.keys.create(await app.services.accounts.personalViewer(user.id), 'bench');
  const headers = { 'x-api-key': secret };

  const targets = [`${API_PREFIX}/incidents?limit=50`, `${API_PREFIX}/vendor-status/github`];
  const figures: Record<string, number> = {};
  console.log(
    `access pipeline vs bare node:http — ${connections} connections, ${seconds} s per run, ${rounds} rounds, limiter+cache: ${config.redisUrl ? 'redis' : 'in-process'}`,
  );
  for (const target of targets) {
    // As the load generator asks (no Accept-Encoding): the identity bytes and their own
    // Content-Length. fetch would otherwise ask for br/gzip and hand back the decoded body
    // beside the coded length, and the baselines would answer with a length that is not their body's.
    const warm = await fetch(`http://127.0.0.1:${appPort}${target}`, { headers: { ...headers, 'accept-encoding': 'identity' } });
    const body = Buffer.from(await warm.arrayBuffer());
    if (warm.headers.get('content-encoding') || Number(warm.headers.get('content-length')) !== body.length) {
      throw new Error(`${target}: the warm answer is coded or its length is not its body's`);
    }
    const contentType = warm.headers.get('content-type') ?? 'application/json';
    const bare = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': contentType, 'content-length': body.length });
      res.end(body);
    });
    // The baseline the target is judged against writes the app's whole header block too (ETag,
    // Cache-Control, the RateLimit headers, X-Request-Id ... as the warm answer had them): the
    // same bytes and headers, so the gap is the app's own work. The first baseline (body and
    // content headers only) shows what the headers the contract asks for cost on their own
    // (docs/benchmarks.md, "Cached reads").
    const sameHeaders = Object.fromEntries([...warm.headers].filter(([name]) => !['date', 'connection', 'keep-alive', 'transfer-encoding'].includes(name)));
    const bareHeaders = http.createServer((_req, res) => {
      res.writeHead(200, sameHeaders);
      res.end(body);
    });
    for (const s of [bare, bareHeaders]) s.keepAliveTimeout = 60_000;
    app.server.keepAliveTimeout = 60_000;
    await new Promise<void>((r) => bare.listen(0, '127.0.0.1', r));
    await new Promise<void>((r) => bareHeaders.listen(0, '127.0.0.1', r));
    const barePort = (bare.address() as { port: number }).port;
    const bareHeadersPort = (bareHeaders.address() as { port: number }).port;

    type Measured = Awaited<ReturnType<typeof runMeasured>>;
    const results: { app: Measured; bare: Measured; bareHeaders: Measured; notModified: Measured }[] = [];
    const etag = warm.headers.get('etag') ?? '';
    for (let round = 0; round < rounds; round++) {
      const base = { path: target, connections, seconds, warmupSeconds: 1, expectStatus: 200 };
      const b = appOnly
        ? { requests: 0, all: 1, seconds, rps: 1, p50ms: 0, p99ms: 0, unexpected: 0, headerMismatch: 0, cpuUsPerRequest: 1 }
        : await runMeasured({ ...base, port: barePort, headers: {} });
      const bh = appOnly ? b : await runMeasured({ ...base, port: bareHeadersPort, headers: {} });
      // The cache entry lives 30–60 s of clock time; keep it warm between runs.
      await fetch(`http://127.0.0.1:${appPort}${target}`, { headers });
      const a = await runMeasured({ ...base, port: appPort, headers, expectHeader: ['x-cache', 'HIT'] });
      const nm = await runMeasured({ ...base, port: appPort, headers: { ...headers, 'if-none-match': etag }, expectStatus: 304 });
      results.push({ app: a, bare: b, bareHeaders: bh, notModified: nm });
    }
    await new Promise((r) => bare.close(r));
    await new Promise((r) => bareHeaders.close(r));

    const appRps = median(results.map((r) => r.app.rps));
    const bareRps = median(results.map((r) => r.bare.rps));
    const appP50 = median(results.map((r) => r.app.p50ms));
    const appP99 = median(results.map((r) => r.app.p99ms));
    const bareP50 = median(results.map((r) => r.bare.p50ms));
    const bareP99 = median(results.map((r) => r.bare.p99ms));
    const errors = results.reduce((n, r) => n + r.app.unexpected + r.app.headerMismatch + r.bare.unexpected, 0);
    const nmRps = median(results.map((r) => r.notModified.rps));
    const nmP99 = median(results.map((r) => r.notModified.p99ms));
    console.log(`\nGET ${target}  (${body.length} bytes)`);
    for (const [i, r] of results.entries()) {
      console.log(
        `  round ${i + 1}: app ${r.app.rps.toFixed(0)} req/s, bare ${r.bare.rps.toFixed(0)} req/s, ratio ${(r.app.rps / r.bare.rps).toFixed(2)}` +
          `   server CPU per request: app ${r.app.cpuUsPerRequest.toFixed(0)} µs, bare ${r.bare.cpuUsPerRequest.toFixed(0)} µs, ratio ${(r.bare.cpuUsPerRequest / r.app.cpuUsPerRequest).toFixed(2)}`,
      );
    }
    console.log(`  app  (key + rate limit + cache HIT): ${appRps.toFixed(0)} req/s   p50 ${appP50.toFixed(2)} ms   p99 ${appP99.toFixed(2)} ms`);
    console.log(`  app 304 (If-None-Match):             ${nmRps.toFixed(0)} req/s   p99 ${nmP99.toFixed(2)} ms   (÷ app 200: ${(nmRps / appRps).toFixed(2)})`);
    console.log(`  bare node:http, same bytes:          ${bareRps.toFixed(0)} req/s   p50 ${bareP50.toFixed(2)} ms   p99 ${bareP99.toFixed(2)} ms`);
    const bareHeadersRps = median(results.map((r) => r.bareHeaders.rps));
    const headersCpuRatio = median(results.map((r) => r.bareHeaders.cpuUsPerRequest / r.app.cpuUsPerRequest));
    console.log(
      `  bare node:http, same bytes and the app's header block: ${bareHeadersRps.toFixed(0)} req/s, app ÷ it ${(appRps / bareHeadersRps).toFixed(2)}, CPU per request it ÷ app ${headersCpuRatio.toFixed(2)}`,
    );
    const cpuRatio = median(results.map((r) => r.bare.cpuUsPerRequest / r.app.cpuUsPerRequest));
    console.log(`  ratio req/s, app ÷ bare with the same bytes and headers (median of rounds): ${(appRps / bareHeadersRps).toFixed(2)}   target >= 0.85`);
    console.log(
      `  ratio of server CPU per request, bare with the same headers ÷ app (median; less sensitive to other load on the machine): ${headersCpuRatio.toFixed(2)}` +
        ` (bare with the body only ÷ app: ${cpuRatio.toFixed(2)})`,
    );
    // A few MISSes are expected: the entry expires (30 s / 60 s of clock) while the load runs.
    console.log(`  non-200 or non-HIT responses (TTL refreshes): ${errors}`);
    const k = target.includes('/incidents') ? 'incidents' : 'vendorStatus';
    Object.assign(figures, {
      [`${k}.ratio`]: appRps / bareHeadersRps,
      [`${k}.bytesOnlyRatio`]: appRps / bareRps,
      [`${k}.appRps`]: appRps,
      [`${k}.bareRps`]: bareRps,
      [`${k}.appP99Ms`]: appP99,
      [`${k}.notModifiedRps`]: nmRps,
      [`${k}.notModifiedP99Ms`]: nmP99,
      [`${k}.notModifiedVsOk`]: nmRps / appRps,
      [`${k}.cpuRatio`]: headersCpuRatio,
      [`${k}.bytesOnlyCpuRatio`]: cpuRatio,
      [`${k}.unexpected`]: errors,
    });
  }

  const used = await app.access.limiter.peek(`o:${user.id}`, [{ name: 'day', limit: 1_000_000_000, windowSeconds: 86_400 }]);
  console.log(`\nrequests counted by the limiter for the bench account today: ${used.windows[0].used}`);
  reportFigures('access', figures, { connections, seconds, rounds, limiter: config.redisUrl ? 'redis' : 'in-process' });
  await app.close();
  await store.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
