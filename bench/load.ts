import { spawn } from 'node:child_process';

// A small closed-loop HTTP/1.1 load generator on raw keep-alive sockets, run in a
// child process so it shares neither the event loop nor the CPU accounting of the
// server under test (process.cpuUsage() then measures the server alone).
// Each connection sends one request, reads the whole response (Content-Length),
// records the latency, and sends the next.

export interface LoadResult {
  /** Responses in the measured interval. */
  requests: number;
  /** Responses including warm-up. */
  all: number;
  seconds: number;
  rps: number;
  p50ms: number;
  p99ms: number;
  /** Responses whose status was not the expected one. */
  unexpected: number;
  /** Responses whose checked header was missing or different. */
  headerMismatch: number;
}

export interface LoadOptions {
  port: number;
  path: string;
  headers: Record<string, string>;
  connections: number;
  seconds: number;
  warmupSeconds: number;
  expectStatus: number;
  /** A header (lower-case name) every response must carry with this value, e.g. x-cache: HIT. */
  expectHeader?: [string, string];
}

const WORKER = `
const o = JSON.parse(process.argv[1]);
const net = require('node:net');
const req = Buffer.from('GET ' + o.path + ' HTTP/1.1\\r\\nHost: 127.0.0.1:' + o.port + '\\r\\n' +
  Object.entries(o.headers).map(([k, v]) => k + ': ' + v + '\\r\\n').join('') + '\\r\\n');
const expectHeader = o.expectHeader ? (o.expectHeader[0] + ': ' + o.expectHeader[1]).toLowerCase() : null;
const lat = [];
let measuring = false, stop = false, done = 0, all = 0, unexpected = 0, headerMismatch = 0, open = 0;
function connection() {
  const s = net.connect(o.port, '127.0.0.1');
  s.setNoDelay(true);
  open++;
  let buf = Buffer.alloc(0), need = -1, headLen = 0, t0 = 0;
  const send = () => { if (stop) { s.end(); return; } t0 = performance.now(); s.write(req); };
  s.on('connect', send);
  s.on('data', (chunk) => {
    buf = buf.length ? Buffer.concat([buf, chunk]) : chunk;
    for (;;) {
      if (need < 0) {
        const end = buf.indexOf('\\r\\n\\r\\n');
        if (end < 0) return;
        const head = buf.subarray(0, end).toString('latin1');
        const m = /\\r\\ncontent-length: *(\\d+)/i.exec(head);
        const status = Number(head.slice(9, 12));
        if (measuring) {
          if (status !== o.expectStatus) unexpected++;
          if (expectHeader && !head.toLowerCase().includes('\\r\\n' + expectHeader + '\\r\\n')) headerMismatch++;
        }
        headLen = end + 4;
        need = headLen + (m ? Number(m[1]) : 0);
      }
      if (buf.length < need) return;
      buf = buf.subarray(need);
      need = -1;
      all++;
      if (measuring) { lat.push(performance.now() - t0); done++; }
      send();
    }
  });
  s.on('error', () => {});
  s.on('close', () => { open--; if (stop && open === 0) finish(); });
}
let startedAt = 0;
function finish() {
  const seconds = (performance.now() - startedAt) / 1000;
  lat.sort((a, b) => a - b);
  const q = (p) => lat.length ? lat[Math.min(lat.length - 1, Math.floor(p * lat.length))] : NaN;
  process.stdout.write(JSON.stringify({ requests: done, all, seconds, rps: done / o.seconds, p50ms: q(0.5), p99ms: q(0.99), unexpected, headerMismatch }));
  process.exit(0);
}
for (let i = 0; i < o.connections; i++) connection();
setTimeout(() => {
  measuring = true;
  startedAt = performance.now();
  setTimeout(() => { measuring = false; stop = true; }, o.seconds * 1000);
}, o.warmupSeconds * 1000);
`;

export function runLoad(opts: LoadOptions): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', WORKER, JSON.stringify(opts)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`load generator exited with ${code}`));
      resolve(JSON.parse(out) as LoadResult);
    });
  });
}

/** Runs a load and reports the server's CPU time per request (this process is the server). */
export async function runMeasured(opts: LoadOptions): Promise<LoadResult & { cpuUsPerRequest: number }> {
  // CPU is sampled over the whole run (warm-up included) and divided by every response.
  const before = process.cpuUsage();
  const r = await runLoad(opts);
  const cpu = process.cpuUsage(before);
  return { ...r, cpuUsPerRequest: (cpu.user + cpu.system) / r.all };
}
