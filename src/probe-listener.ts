import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { requestIdFor } from './http/request-id.ts';

// A process without the `api` role (a worker: `--role ingest,deliver`) serves no
// API, but orchestrators still probe it and scrape it. This listener answers the
// operational routes through the app (same handlers, same answers) and 404s the rest.

const OPERATIONAL_PATHS = ['/healthz', '/readyz', '/metrics'] as const;

export interface ProbeListener {
  port: number;
  /** Stops accepting and cuts open connections (probes are short; nothing is lost). */
  close(): Promise<void>;
}

export async function listenForProbes(app: FastifyInstance, port: number, host: string, roles: readonly string[]): Promise<ProbeListener> {
  const paths = new Set<string>(OPERATIONAL_PATHS);
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    const method = req.method === 'HEAD' ? 'HEAD' : 'GET';
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !paths.has(path)) {
      const body = {
        success: false,
        error: 'not_found',
        message: `This instance serves no API (roles: ${roles.join(', ')}); it answers ${OPERATIONAL_PATHS.join(', ')} only`,
        requestId: requestIdFor(req),
      };
      res.writeHead(404, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify(body));
      return;
    }
    app.inject({ method, url: req.url ?? path, headers: req.headers }).then(
      (r) => {
        const headers = { ...r.headers };
        delete headers['transfer-encoding'];
        res.writeHead(r.statusCode, headers as http.OutgoingHttpHeaders);
        res.end(r.rawPayload);
      },
      (err) => {
        app.log.warn({ err }, 'probe request failed');
        res.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
        res.end(JSON.stringify({ success: false, error: 'internal_error', message: 'probe failed' }));
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
