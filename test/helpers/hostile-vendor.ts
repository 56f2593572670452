import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { CatalogVendor, SourceType } from '../../src/domain/records.ts';

// A vendor status page that attacks its reader, served by a real loopback HTTP
// server: redirects to private addresses, payloads quoting secrets, unclosed
// markup, hostile text. Routes are plain functions so each test says what it serves.

export type Route = (req: http.IncomingMessage, res: http.ServerResponse, base: string) => void;

export interface HostileServer {
  url: string;
  /** Requests per path. */
  hits: Map<string, number>;
  routes: Map<string, Route>;
  close(): Promise<void>;
}

export async function startHostileServer(routes: Record<string, Route> = {}): Promise<HostileServer> {
  const hits = new Map<string, number>();
  const table = new Map(Object.entries(routes));
  let base = '';
  const server = http.createServer((req, res) => {
    const p = new URL(req.url ?? '/', base).pathname;
    hits.set(p, (hits.get(p) ?? 0) + 1);
    const route = table.get(p);
    if (!route) {
      res.writeHead(404).end();
      return;
    }
    route(req, res, base);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    hits,
    routes: table,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export const json =
  (body: unknown, status = 200): Route =>
  (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json' }).end(typeof body === 'string' ? body : JSON.stringify(body));
  };
export const xml =
  (body: string): Route =>
  (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/rss+xml' }).end(body);
  };
export const redirect =
  (location: string, status = 302): Route =>
  (_req, res) => {
    res.writeHead(status, { location }).end();
  };

// ---- payloads --------------------------------------------------------------------

/** An HTML fragment of `bytes` characters that is all unclosed openings (`<!--`, `<a `, `<script>`). */
export function hostileHtml(bytes: number, opening: string): string {
  return opening.repeat(Math.ceil(bytes / opening.length)).slice(0, bytes);
}

export interface SpIncident {
  id: string;
  name: string;
  status?: string;
  createdAt: string;
  shortlink?: string | null;
  components?: string[];
  body?: string;
}

/** A Statuspage v2 incidents.json. */
export function statuspageIncidents(incidents: SpIncident[]): string {
  return JSON.stringify({
    page: { id: 'p', name: 'Hostile', url: 'https://status.example.com', updated_at: incidents[0]?.createdAt ?? '2026-01-01T00:00:00Z' },
    incidents: incidents.map((i) => ({
      id: i.id,
      name: i.name,
      status: i.status ?? 'investigating',
      impact: 'minor',
      created_at: i.createdAt,
      updated_at: i.createdAt,
      started_at: i.createdAt,
      resolved_at: null,
      shortlink: i.shortlink ?? null,
      components: (i.components ?? []).map((name, n) => ({ id: `c${n}`, name, status: 'degraded_performance' })),
      incident_updates: [
        {
          id: `${i.id}u1`,
          status: i.status ?? 'investigating',
          body: i.body ?? 'Looking into it.',
          created_at: i.createdAt,
          updated_at: i.createdAt,
          display_at: i.createdAt,
        },
      ],
    })),
  });
}

/** A Statuspage history.rss with one item whose description is `html`. */
export function statuspageHistoryRss(html: string, pubDate = 'Thu, 01 Jan 2026 00:00:00 GMT'): string {
  const esc = html.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return (
    `<?xml version="1.0"?><rss version="2.0"><channel><title>T</title><link>https://status.example.com</link>` +
    `<item><title>Hostile</title><guid>g1</guid><pubDate>${pubDate}</pubDate>` +
    `<link>https://status.example.com/incidents/abc</link><description>${esc}</description></item></channel></rss>`
  );
}

// ---- catalog ---------------------------------------------------------------------

export function vendor(slug: string, sources: { type: SourceType; url: string }[]): CatalogVendor {
  return {
    slug,
    name: slug,
    website: 'https://example.com',
    category: 'cloud',
    description: 'A vendor served by a test server.',
    statusPageUrl: 'https://status.example.com',
    availableDataTypes: ['incidents'],
    sources,
    compliance: { sourceUrl: null, items: [] },
  };
}

/** Writes a catalog file in a temporary directory; returns its path (the directory goes with `removeCatalog`). */
export function writeCatalog(vendors: CatalogVendor[], file?: string): string {
  const target = file ?? path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'vis-hostile-')), 'vendors.json');
  fs.writeFileSync(target, JSON.stringify(vendors));
  return target;
}

export function removeCatalog(file: string): void {
  fs.rmSync(path.dirname(file), { recursive: true, force: true });
}
