import { fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/infra/config.ts';
import { loadSecretBox } from '../src/infra/secret-box.ts';
import { createRepositories } from '../src/services/index.ts';
import { openStore } from '../src/store/db.ts';
import { newWebhookSecret } from '../src/services/alerts/channel-secrets.ts';
import { reportFigures } from './lib/report.ts';

// One incident on a vendor watched by N users (default 10,000), each with a
// signed webhook to a local receiver (a process of its own that checks every
// signature). Prints the time until every delivery succeeded, deliveries/s and
// peak RSS of the service process, and the CPU time the service and the receiver
// used from the event to the last recorded delivery: on a shared machine the wall
// time follows the load, the CPU per delivery much less.
//
//   npm run bench -- alerts [users=10000] [concurrency=128]
// With DATABASE_URL set it runs against PostgreSQL (schema bench_alerts, dropped after).

const users = Number(process.argv[2] ?? 10_000);
const concurrency = process.argv[3] ?? '128';
const here = path.dirname(fileURLToPath(import.meta.url));
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'vis-bench-alerts-'));

// ------------------------------------------------------------ receiver process
const receiverSource = `
const http = require('node:http');
const { createHmac, timingSafeEqual } = require('node:crypto');
const secrets = new Map();
let ok = 0, bad = 0, cpu0 = null;
process.on('disconnect', () => process.exit(0));
process.on('message', (m) => { if (m.secrets) { for (const [k, v] of m.secrets) secrets.set(k, Buffer.from(v.slice(6), 'base64')); process.send({ ready: true }); } if (m.start) cpu0 = process.cpuUsage(); if (m.report) { const c = process.cpuUsage(cpu0 || undefined); process.send({ ok, bad, cpuMs: (c.user + c.system) / 1000 }); } });
const server = http.createServer({ keepAliveTimeout: 60000 }, (req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const body = Buffer.concat(chunks).toString();
    const key = secrets.get(req.url.slice(1));
    const id = req.headers['webhook-id'], ts = req.headers['webhook-timestamp'];
    const want = key && 'v1,' + createHmac('sha256', key).update(id + '.' + ts + '.' + body).digest('base64');
    const got = (req.headers['webhook-signature'] || '').split(' ');
    if (want && got.some((g) => g.length === want.length && timingSafeEqual(Buffer.from(g), Buffer.from(want)))) { ok++; res.writeHead(204); res.end(); }
    else { bad++; res.writeHead(400); res.end(); }
  });
});
server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
`;
const receiverFile = path.join(tmp, 'receiver.cjs');
fs.writeFileSync(receiverFile, receiverSource);
const receiver = fork(receiverFile, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
const next = <T>() => new Promise<T>((resolve) => receiver.once('message', (m) => resolve(m as T)));
const { port } = await next<{ port: number }>();

// ------------------------------------------------------------ service
const schema = process.env.DATABASE_URL ? `bench_alerts_${process.pid}` : undefined;
const config = loadConfig({
  ...process.env,
  DATA_DIR: tmp,
  ...(schema ? { DATABASE_SCHEMA: schema } : {}),
  LOG_LEVEL: 'warn',
  INGEST: 'off',
  DELIVER: 'off',
  OUTBOUND_ALLOW_PRIVATE: '127.0.0.1',
  DELIVERY_CONCURRENCY: concurrency,
});
const store = openStore(config);
const app = await buildApp(config, { store });
await app.ready();
// Repositories over the app's store and secrets key: the app hands out use cases only (docs/architecture.md).
const repos = createRepositories(store, loadSecretBox({ key: config.secretsKey, previous: config.secretsKeyPrevious, dataDir: config.dataDir }));

const setupStart = performance.now();
console.log(`setting up ${users} users watching 'github' with webhooks to 127.0.0.1:${port} …`);
const secrets: [string, string][] = [];
const now = new Date();
for (let i = 0; i < users; i++) {
  const id = randomUUID();
  await repos.users.create({ id, email: `bench-${i}@example.com`, passwordHash: 'scrypt$1$1$1$x$y', plan: 'pro', now });
  await repos.watchlist.add(id, 'github', null, now);
  const secret = newWebhookSecret();
  await repos.preferences.update(id, now, (s) => ({
    ...s,
    webhookSecret: secret,
    settings: { ...s.settings, in_app: { enabled: false }, webhook: { ...s.settings.webhook, enabled: true, url: `http://127.0.0.1:${port}/${id}` } },
  }));
  secrets.push([id, secret]);
}
receiver.send({ secrets });
await next();
console.log(`setup took ${((performance.now() - setupStart) / 1000).toFixed(1)} s`);

// The deliver role as the server runs it: background dispatcher and workers.
await app.alerts.start();
const rssBefore = process.memoryUsage().rss;
const inc = {
  id: `bench-${Date.now()}`,
  vendor: 'github',
  vendorName: 'GitHub',
  title: 'Benchmark incident',
  status: 'investigating',
  sourceStatus: 'investigating',
  impact: 'major',
  startedAt: new Date().toISOString(),
  updatedAt: new Date().toISOString(),
  resolvedAt: null,
  components: ['Actions'],
  updates: [{ status: 'investigating', body: 'We are investigating delays.', createdAt: new Date().toISOString() }],
  url: 'https://www.githubstatus.com/incidents/bench',
  source: 'bench',
  durationMinutes: null,
};
let peakRss = process.memoryUsage().rss;
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}, 20);
receiver.send({ start: true });
const cpu0 = process.cpuUsage();
const t0 = performance.now();
const event = await store.db.transaction().execute((trx) =>
  repos.events.append(trx, {
    type: 'incident.created',
    vendor: 'github',
    entityKind: 'incident',
    entityId: inc.id,
    occurredAt: new Date().toISOString(),
    payload: inc as never,
  }),
);
app.bus.publish([event]);
let dispatchedAt = 0;
for (;;) {
  // Every 100 ms: the count reads the whole table, and more often it took a visible
  // share of the CPU the benchmark measures (on PostgreSQL 1.5 s of server time per run).
  await new Promise((r) => setTimeout(r, 100));
  const counts = await repos.deliveries.countByStatus();
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  if (!dispatchedAt && total >= users) dispatchedAt = performance.now() - t0;
  if ((counts.succeeded ?? 0) >= users) break;
  if (performance.now() - t0 > 300_000) throw new Error(`not done after 300 s: ${JSON.stringify(counts)}`);
}
const elapsed = performance.now() - t0;
const cpu = process.cpuUsage(cpu0);
const cpuMs = (cpu.user + cpu.system) / 1000;
clearInterval(sampler);
receiver.send({ report: true });
const report = await next<{ ok: number; bad: number; cpuMs: number }>();
console.log(
  `database:            ${config.databaseUrl ? 'PostgreSQL' : 'SQLite'}; concurrency ${config.deliveryConcurrency}; ${os.cpus().length} CPUs (${os.cpus()[0]?.model}); load average ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
console.log(`deliveries created:  ${users} in ${dispatchedAt.toFixed(0)} ms (dispatcher)`);
console.log(`all succeeded after: ${(elapsed / 1000).toFixed(2)} s  (event committed -> last delivery recorded)`);
console.log(`throughput:          ${Math.round(users / (elapsed / 1000))} deliveries/s`);
console.log(`receiver:            ${report.ok} signatures valid, ${report.bad} invalid`);
console.log(
  `CPU time:            service ${(cpuMs / 1000).toFixed(2)} s (${((cpuMs * 1000) / users).toFixed(0)} µs per delivery), receiver ${(report.cpuMs / 1000).toFixed(2)} s`,
);
console.log(`peak RSS:            ${(peakRss / 1048576).toFixed(0)} MiB (before the event: ${(rssBefore / 1048576).toFixed(0)} MiB)`);
reportFigures(
  'alerts',
  {
    deliveries: users,
    dispatchMs: dispatchedAt,
    allSucceededS: elapsed / 1000,
    deliveriesPerS: users / (elapsed / 1000),
    signaturesValid: report.ok,
    signaturesInvalid: report.bad,
    peakRssMb: peakRss / 1048576,
    serviceCpuS: cpuMs / 1000,
    receiverCpuS: report.cpuMs / 1000,
  },
  { database: config.databaseUrl ? 'PostgreSQL' : 'SQLite', concurrency: config.deliveryConcurrency },
);

await app.close();
await store.close();
receiver.kill();
if (schema && config.databaseUrl) {
  const pg = (await import('pg')).default;
  const c = new pg.Client({ connectionString: config.databaseUrl });
  await c.connect();
  await c.query(`drop schema if exists "${schema}" cascade`);
  await c.end();
}
fs.rmSync(tmp, { recursive: true, force: true });
void here;
