import { createHash, timingSafeEqual } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { DomainError } from '../../domain/errors.ts';
import type { MetricsRegistry } from '../../infra/metrics.ts';
import { ErrorBody } from '../schemas/common.ts';

// GET /metrics: this instance's figures in the Prometheus text format (docs/operations.md).
// Outside the data API, so neither rate limited nor cached. With METRICS_TOKEN set it
// needs `Authorization: Bearer <token>`; otherwise it is open (keep it off the public
// network then, e.g. only the scraper reaches the port).

const CONTENT_TYPE = 'text/plain; version=0.0.4';

const digest = (s: string) => createHash('sha256').update(s).digest();

/** A comparison whose time does not depend on how much of the token matched. */
function bearerMatches(request: FastifyRequest, expected: Buffer): boolean {
  const m = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(request.headers.authorization ?? '');
  return m !== null && timingSafeEqual(digest(m[1]!), expected);
}

export async function metricsRoutes(fastify: FastifyInstance, opts: { registry: MetricsRegistry }) {
  // Request types come from the route schemas through the type provider.
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { registry } = opts;
  const token = app.config.metricsToken;
  const expected = token === null ? null : digest(token);

  app.get(
    '/metrics',
    {
      schema: {
        operationId: 'getMetrics',
        summary: 'Operations metrics of this instance (Prometheus text format)',
        description: [
          'Counters, gauges and histograms of this instance: HTTP requests by route template and status, response cache,',
          'rate-limit refusals, polls per source, alert deliveries, open streams, events, and process figures.',
          'Open unless the operator sets `METRICS_TOKEN`; then `Authorization: Bearer <METRICS_TOKEN>` is required.',
          'Not rate limited, never cached. Metric names and labels: docs/operations.md.',
        ].join(' '),
        tags: ['operations'],
        security: [{}, { metricsToken: [] }],
        response: {
          200: {
            description: 'Prometheus text exposition format 0.0.4',
            content: { [CONTENT_TYPE]: { schema: Type.String() } },
          },
          401: Type.Ref(ErrorBody, { description: 'METRICS_TOKEN is set and the bearer token is missing or wrong' }),
        },
      },
      config: { rateLimit: false },
    },
    async (request, reply) => {
      if (expected && !bearerMatches(request, expected)) {
        reply.header('WWW-Authenticate', 'Bearer realm="metrics"');
        throw new DomainError('unauthorized', 'A valid metrics token is required: send Authorization: Bearer <METRICS_TOKEN>');
      }
      const text = await registry.scrape();
      reply.header('cache-control', 'no-store');
      return reply.type(registry.contentType).send(text);
    },
  );
}
