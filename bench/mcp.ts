import { PUBLIC_AUDIENCE } from '../src/domain/audience.ts';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Pool } from 'undici';
import { API_PREFIX, buildApp } from '../src/app.ts';
import { loadConfig } from '../src/infra/config.ts';
import { openStore } from '../src/store/db.ts';
import { incidentsRepository } from '../src/store/repositories/incidents-repository.ts';
import { reportFigures } from './lib/report.ts';

// MCP over Streamable HTTP, stateless: every POST builds a server and a transport,
// authenticates its bearer token (OAuth access token or API key: one indexed
// lookup each), counts tool calls against the quota, and runs the tool.
// Closed loop: each connection sends the next request when the last answer is in.
//
//   npm run bench -- mcp [--seconds 5] [--connections 16]
//
// Scenarios: tools/list (the per-request server construction and schema output),
// get_active_incidents anonymous (the "what is down?" question over 82 vendors),
// get_incident_history with an OAuth token and with an API key (30 days of GitHub),
// each beside the REST request that reads the same data (cache bypassed), so the
// MCP overhead shows as a ratio measured on the same machine in the same run.

function option(args: string[], name: string, fallback: number): number {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
}

interface Result {
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  failures: number;
}

interface Target {
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  headers: Record<string, string>;
}

const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

async function send(pool: Pool, t: Target) {
  const res = await pool.request({ path: t.path, method: t.method, headers: { ...(t.body ? MCP_HEADERS : {}), ...t.headers }, body: t.body });
  return { status: res.statusCode, text: await res.body.text() };
}

async function closedLoop(pool: Pool, target: Target, connections: number, seconds: number, check: (text: string) => boolean): Promise<Result> {
  const lat: number[] = [];
  let failures = 0;
  let measuring = false;
  let stop = false;
  const one = async () => {
    const t0 = performance.now();
    const res = await send(pool, target);
    if (!measuring) return;
    lat.push(performance.now() - t0);
    if (res.status !== 200 || !check(res.text)) failures++;
  };
  const loops = Array.from({ length: connections }, async () => {
    while (!stop) await one();
  });
  await new Promise((r) => setTimeout(r, 1000));
  measuring = true;
  const started = performance.now();
  await new Promise((r) => setTimeout(r, seconds * 1000));
  measuring = false;
  stop = true;
  const elapsed = (performance.now() - started) / 1000;
  await Promise.all(loops);
  lat.sort((a, b) => a - b);
  const q = (p: number) => lat[Math.min(lat.length - 1, Math.floor(p * lat.length))] ?? NaN;
  return { requests: lat.length, rps: lat.length / elapsed, p50: q(0.5), p99: q(0.99), failures };
}

export async function mcpBench(args: string[]) {
  const seconds = option(args, 'seconds', 5);
  const connections = option(args, 'connections', 16);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vis-bench-mcp-'));
  const lifted = { perMinute: 1_000_000_000, perDay: 1_000_000_000 };
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    INGEST: 'off',
    DATABASE_URL: process.env.DATABASE_URL ?? '',
    DATABASE_SCHEMA: process.env.DATABASE_URL ? `bench_mcp_${process.pid}` : '',
    REDIS_URL: process.env.REDIS_URL ?? '',
    REDIS_PREFIX: `vis-bench-mcp-${process.pid}:`,
    RATE_LIMITS: JSON.stringify({ anonymous: lifted, pro: lifted }),
  });
  const store = openStore(config);
  const app = await buildApp(config, { store });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as { port: number }).port;

  // A realistic day: 30 ongoing incidents over the catalog, 300 resolved ones in the last 90 days.
  const vendors = (await app.services.catalog.list(PUBLIC_AUDIENCE)).map((v) => v.id);
  const repo = incidentsRepository(store.db);
  for (let i = 0; i < 330; i++) {
    const vendor = i % 10 === 0 ? 'github' : vendors[i % vendors.length];
    const startedAt = new Date(Date.now() - (i < 30 ? i + 1 : (i - 30) * 7 + 2) * 3_600_000).toISOString();
    const status = i < 30 ? 'investigating' : 'resolved';
    await repo.upsert(
      {
        id: `${vendor}:bench-${i}`,
        vendor,
        title: `Elevated error rates on API requests (${i})`,
        status,
        sourceStatus: status,
        impact: i % 5 === 0 ? 'major' : 'minor',
        startedAt,
        updatedAt: startedAt,
        resolvedAt: status === 'resolved' ? new Date(Date.parse(startedAt) + 2_700_000).toISOString() : null,
        components: ['API', 'Webhooks'],
        updates: [{ status, body: 'We are investigating elevated error rates for API requests.', createdAt: startedAt }],
        url: `https://status.example.com/incidents/${i}`,
        source: 'statuspage-v2',
      },
      `fp-${i}`,
    );
  }

  const user = await app.services.accounts.createUser({ email: 'bench-mcp@example.com', password: 'bench password', plan: 'pro' });
  const { secret } = await app.services.keys.create(await app.services.accounts.personalViewer(user.id), 'bench');
  // An OAuth grant as the consent page would record it, then its tokens.
  const tokens = app.services.oauth;
  const client = {
    clientId: 'mcp_client_bench',
    secretHash: null,
    name: 'Bench',
    redirectUris: ['http://127.0.0.1:9/cb'],
    grantTypes: ['authorization_code', 'refresh_token'],
    authMethod: 'none',
    scope: 'history:read',
    metadata: {},
    createdAt: new Date().toISOString(),
  };
  await tokens.registerClient(client);
  const verifier = 'v'.repeat(64);
  const { createHash } = await import('node:crypto');
  const code = await tokens.createCode({
    client,
    userId: user.id,
    orgId: user.id,
    scope: 'history:read',
    resource: `http://127.0.0.1:${port}/mcp`,
    redirectUri: client.redirectUris[0],
    codeChallenge: createHash('sha256').update(verifier).digest('base64url'),
  });
  const { access_token } = await tokens.exchangeCode({ client, code, redirectUri: client.redirectUris[0], codeVerifier: verifier, resource: undefined });

  const call = (name: string, args: Record<string, unknown>) =>
    JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } });
  const ok = (text: string) => text.includes('"result"') && !text.includes('"isError":true');
  const rest = (text: string) => text.startsWith('{"success":true');
  const mcp = (body: string, headers: Record<string, string> = {}): Target => ({ method: 'POST', path: '/mcp', body, headers });
  const history = call('get_incident_history', { vendor: 'github', timePeriod: '30d' });
  // Each MCP scenario next to the REST request doing the same work (uncached), same run.
  // Keys of the figures (BENCH_RESULT), in the order of the scenarios.
  const keys = ['toolsList', 'activeIncidents', 'restActive', 'historyOauth', 'historyKey', 'restHistory'];
  const figures: Record<string, number> = {};
  const scenarios: [string, Target, (text: string) => boolean][] = [
    ['MCP tools/list (anonymous)', mcp(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' })), ok],
    ['MCP get_active_incidents (anonymous)', mcp(call('get_active_incidents', {})), ok],
    [
      'REST /incidents?activeOnly=true (anonymous)',
      { method: 'GET', path: `${API_PREFIX}/incidents?activeOnly=true&limit=200&skipCache=true`, headers: {} },
      rest,
    ],
    ['MCP get_incident_history 30d (OAuth token)', mcp(history, { authorization: `Bearer ${access_token}` }), ok],
    ['MCP get_incident_history 30d (API key)', mcp(history, { authorization: `Bearer ${secret}` }), ok],
    [
      'REST /vendors/github/incidents 30d (API key)',
      { method: 'GET', path: `${API_PREFIX}/vendors/github/incidents?timePeriod=30d&limit=20&skipCache=true`, headers: { 'x-api-key': secret } },
      rest,
    ],
  ];

  const pool = new Pool(`http://127.0.0.1:${port}`, { connections, pipelining: 1 });
  console.log(
    `MCP Streamable HTTP (stateless) — ${connections} connections, ${seconds} s per scenario, store: ${config.databaseUrl ? 'postgres' : 'sqlite'}, limiter: ${config.redisUrl ? 'redis' : 'in-process'}`,
  );
  for (const [i, [label, target, check]] of scenarios.entries()) {
    const sample = await send(pool, target);
    if (sample.status !== 200 || !check(sample.text)) throw new Error(`${label}: ${sample.status} ${sample.text.slice(0, 300)}`);
    const size = sample.text.length;
    const r = await closedLoop(pool, target, connections, seconds, check);
    console.log(
      `${label.padEnd(48)} ${r.rps.toFixed(0).padStart(6)} req/s   p50 ${r.p50.toFixed(2)} ms   p99 ${r.p99.toFixed(2)} ms   ${size} bytes   failures ${r.failures}/${r.requests}`,
    );
    Object.assign(figures, { [`${keys[i]}.rps`]: r.rps, [`${keys[i]}.p50Ms`]: r.p50, [`${keys[i]}.p99Ms`]: r.p99, [`${keys[i]}.failures`]: r.failures });
  }
  // What a tool call costs over the REST request reading the same data, same run.
  figures['activeIncidents.restOverMcp'] = figures['restActive.rps']! / figures['activeIncidents.rps']!;
  figures['historyKey.restOverMcp'] = figures['restHistory.rps']! / figures['historyKey.rps']!;
  reportFigures('mcp', figures, { connections, seconds, store: config.databaseUrl ? 'postgres' : 'sqlite' });
  await pool.close();
  await app.close();
  await store.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
