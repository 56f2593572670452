import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import type { Fleet } from './fleet.ts';
import { render } from './formats.ts';

// The simulator's HTTP side: serves the fleet at /<type>/<vendor>/<upstream path>
// with ETag/Last-Modified and 304s like a real status page, gzip when asked, and
// per-path faults for tests (hang, error status, garbage, a huge body, ...).

export type Fault =
  /** Accepts the request and never answers. */
  | { kind: 'hang' }
  | { kind: 'status'; status: number; retryAfter?: number }
  /** 200 with a body no adapter can read. */
  | { kind: 'garbage' }
  /** 200 streaming `bytes` of JSON-looking filler; `declareLength` sends Content-Length up front. */
  | { kind: 'huge'; bytes: number; declareLength?: boolean }
  /** Answers normally after a delay. */
  | { kind: 'slow'; delayMs: number }
  /** Drops the connection. */
  | { kind: 'reset' }
  | { kind: 'redirect'; location: string; status?: number }
  /** Never answers 304, whatever the request says. */
  | { kind: 'no-conditional' };

interface Cached {
  version: number;
  body: Buffer;
  gzip: Buffer | null;
  etag: string;
  lastModified: string;
  contentType: string;
}

export interface SimulatorStats {
  requests: number;
  notModified: number;
  /** Requests per path. */
  byPath: Map<string, number>;
}

export interface SimulatorServer {
  listen(port?: number, host?: string): Promise<string>;
  close(): Promise<void>;
  readonly url: string;
  setFault(pathOrUrl: string, fault: Fault | null): void;
  clearFaults(): void;
  readonly stats: SimulatorStats;
}

const pathOf = (pathOrUrl: string) => (/^https?:/.test(pathOrUrl) ? new URL(pathOrUrl).pathname : pathOrUrl);

export function createSimulatorServer(fleet: Fleet): SimulatorServer {
  const faults = new Map<string, Fault>();
  const cache = new Map<string, Cached>();
  const stats: SimulatorStats = { requests: 0, notModified: 0, byPath: new Map() };
  let base = '';

  function respondHuge(res: http.ServerResponse, fault: Extract<Fault, { kind: 'huge' }>) {
    const chunk = Buffer.from(`${'{"filler":"'.padEnd(65_534, 'x')}"}`);
    let left = fault.bytes;
    res.writeHead(200, {
      'content-type': 'application/json',
      ...(fault.declareLength ? { 'content-length': String(fault.bytes) } : {}),
    });
    const pump = () => {
      while (left > 0) {
        const piece = left >= chunk.length ? chunk : chunk.subarray(0, left);
        left -= piece.length;
        if (!res.write(piece)) {
          res.once('drain', pump);
          return;
        }
      }
      res.end();
    };
    res.on('close', () => {
      left = 0;
    });
    pump();
  }

  function page(res: http.ServerResponse, slug: string, rest: string) {
    const v = fleet.vendors.get(slug);
    if (!v) return notFound(res);
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      `<!doctype html><meta charset="utf-8"><title>${v.name} (simulated)</title>` +
        `<p><strong>Simulated data.</strong> This page belongs to the demo fleet of the Vendor Infrastructure Status API; ` +
        `it is not ${v.name}'s status page.</p><p>${rest.replace(/[<>&]/g, '')}</p>`,
    );
  }

  function notFound(res: http.ServerResponse) {
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end('{"error":"not found"}');
  }

  function serve(req: http.IncomingMessage, res: http.ServerResponse, path: string, fault: Fault | undefined) {
    const [, type = '', slug = '', ...restParts] = path.split('/');
    if (type === 'pages') return page(res, slug, restParts.join('/'));
    if (path === '/' || path === '') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ simulator: true, vendors: [...fleet.vendors.keys()] }));
      return;
    }
    const v = fleet.vendors.get(slug);
    if (!v) return notFound(res);
    let entry = cache.get(path);
    if (!entry || entry.version !== v.version) {
      const out = render(fleet, base, type, slug, `/${restParts.join('/')}`);
      if (!out) return notFound(res);
      const body = Buffer.from(out.body, 'utf8');
      entry = {
        version: v.version,
        body,
        gzip: body.length > 1024 ? zlib.gzipSync(body, { level: 1 }) : null,
        etag: `"${createHash('sha1').update(body).digest('hex').slice(0, 20)}"`,
        lastModified: new Date(v.changedAt).toUTCString(),
        contentType: out.contentType,
      };
      cache.set(path, entry);
    }
    const conditional = fault?.kind !== 'no-conditional';
    const inm = req.headers['if-none-match'];
    const ims = req.headers['if-modified-since'];
    const fresh =
      conditional &&
      (inm !== undefined
        ? inm.split(',').some((t) => t.trim() === entry.etag)
        : ims !== undefined && !Number.isNaN(Date.parse(ims)) && Date.parse(ims) >= Date.parse(entry.lastModified));
    const headers: http.OutgoingHttpHeaders = {
      etag: entry.etag,
      'last-modified': entry.lastModified,
      'cache-control': 'max-age=0, must-revalidate',
      vary: 'Accept-Encoding',
    };
    if (fresh) {
      stats.notModified++;
      res.writeHead(304, headers);
      res.end();
      return;
    }
    const gzip = entry.gzip && /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
    const body = gzip ? entry.gzip! : entry.body;
    res.writeHead(200, {
      ...headers,
      'content-type': entry.contentType,
      'content-length': String(body.length),
      ...(gzip ? { 'content-encoding': 'gzip' } : {}),
    });
    res.end(body);
  }

  const server = http.createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://sim').pathname;
    stats.requests++;
    stats.byPath.set(path, (stats.byPath.get(path) ?? 0) + 1);
    const fault = faults.get(path);
    switch (fault?.kind) {
      case 'hang':
        return; // the socket stays open until the client gives up or the server closes
      case 'reset':
        req.socket.destroy();
        return;
      case 'status':
        res.writeHead(fault.status, {
          'content-type': 'text/html',
          ...(fault.retryAfter !== undefined ? { 'retry-after': String(fault.retryAfter) } : {}),
        });
        res.end(`<html><body><h1>${fault.status}</h1></body></html>`);
        return;
      case 'garbage':
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('<html>\u0000\u00ff not json {{{');
        return;
      case 'huge':
        return respondHuge(res, fault);
      case 'redirect':
        res.writeHead(fault.status ?? 302, { location: fault.location });
        res.end();
        return;
      case 'slow': {
        const timer = setTimeout(() => serve(req, res, path, fault), fault.delayMs);
        res.on('close', () => clearTimeout(timer));
        return;
      }
      default:
        return serve(req, res, path, fault);
    }
  });
  server.keepAliveTimeout = 5_000;

  return {
    async listen(port = 0, host = '127.0.0.1') {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          server.off('error', reject);
          resolve();
        });
      });
      const a = server.address() as AddressInfo;
      base = `http://${a.family === 'IPv6' ? `[${a.address}]` : a.address}:${a.port}`;
      return base;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
    get url() {
      return base;
    },
    setFault(pathOrUrl, fault) {
      const p = pathOf(pathOrUrl);
      if (fault) faults.set(p, fault);
      else faults.delete(p);
    },
    clearFaults() {
      faults.clear();
    },
    stats,
  };
}
