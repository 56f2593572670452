import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { ReadinessProblem } from '../readiness.ts';

const Check = Type.Object({
  name: Type.String(),
  ok: Type.Boolean(),
  error: Type.Optional(Type.String({ description: '`unreachable`, or for `ingest`: `most_sources_failing` or `no_recent_poll`' })),
});
const Readiness = Type.Object({
  success: Type.Boolean(),
  status: Type.String({ description: 'ready, degraded (an optional dependency is down, or ingestion is failing) or not_ready' }),
  checks: Type.Array(Check),
});

export async function healthRoutes(fastify: FastifyInstance) {
  // Request types come from the route schemas through the type provider.
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    '/healthz',
    {
      schema: {
        operationId: 'getLiveness',
        summary: 'Liveness: the process answers',
        tags: ['operations'],
        response: { 200: Type.Object({ success: Type.Boolean(), status: Type.String() }) },
      },
    },
    async () => ({ success: true, status: 'ok' }),
  );

  app.get(
    '/readyz',
    {
      schema: {
        operationId: 'getReadiness',
        summary: 'Readiness: database (and Redis when configured) reachable',
        tags: ['operations'],
        response: { 200: Readiness, 503: Readiness },
      },
    },
    async (_req, reply) => {
      const checks = await Promise.all(
        app.readinessChecks.map(async (c) => {
          try {
            await c.check();
            return { name: c.name, ok: true };
          } catch (err) {
            if (err instanceof ReadinessProblem) return { name: c.name, ok: false, error: err.message };
            // The reason is an operator's concern; the body names the failing dependency only.
            app.log.warn({ err, check: c.name }, 'readiness check failed');
            return { name: c.name, ok: false, error: 'unreachable' };
          }
        }),
      );
      const ok = checks.every((c) => c.ok || app.readinessChecks.find((r) => r.name === c.name)?.optional);
      reply.code(ok ? 200 : 503);
      // An optional dependency down (Redis) leaves the service ready but degraded.
      const status = !ok ? 'not_ready' : checks.every((c) => c.ok) ? 'ready' : 'degraded';
      return { success: ok, status, checks };
    },
  );
}
