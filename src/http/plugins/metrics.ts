import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { type Metrics, UNMATCHED_ROUTE } from '../../domain/metrics.ts';

// Every answered request is counted by method, route *template* and status, with its
// duration (Fastify's own timing, from arrival to the end of the response). The raw
// URL never becomes a label: label values stay bounded whatever clients send.
// Cache hits answered at the HTTP server never reach these hooks; the hot path
// (http/access/hot-path.ts) counts them itself. Hijacked replies (event streams, MCP)
// are counted when their response ends, so a stream's duration is its lifetime.

export const httpMetricsPlugin = fp(
  async (app: FastifyInstance, opts: { metrics: Metrics }) => {
    const { metrics } = opts;
    app.addHook('onResponse', (request, reply, done) => {
      metrics.httpRequest(request.method, request.routeOptions.url ?? UNMATCHED_ROUTE, reply.statusCode, reply.elapsedTime / 1000);
      done();
    });
  },
  { name: 'http-metrics' },
);
