import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { noStore } from '../no-store.ts';
import { errorResponses } from '../schemas/common.ts';

// A vendor's status platform pushes here (docs/ingestion.md "Push from vendors"): Atlassian
// Statuspage, Instatus and Better Stack subscriber webhooks sign nothing, so the secret is the
// URL's token. The body is not read as data: the push makes the vendor's sources due now, and
// the poll reads the page as any poll does. Answered before the poll runs.

const PushParams = Type.Object({
  token: Type.String({ pattern: '^vpush_[A-Za-z0-9_-]{43}$', description: 'The secret token of the push URL (`npm run cli -- push create`)' }),
});

export async function pushRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.addHook('onSend', noStore);

  app.post(
    '/push/:token',
    {
      schema: {
        operationId: 'receiveVendorPush',
        summary: "A vendor status platform's subscriber webhook: the vendor's sources are polled at once",
        description:
          'Any JSON body (Statuspage, Instatus, Better Stack shapes); it is not trusted as data. 202 once the sources are due; the poll follows within seconds, at most one per source every 10 s.',
        tags: ['ingestion'],
        security: [],
        params: PushParams,
        body: Type.Unknown({ description: "The platform's webhook payload, ignored" }),
        response: {
          202: Type.Object({ success: Type.Boolean() }),
          400: errorResponses[400],
          404: Type.Ref('ErrorBody', { description: 'No push URL with this token' }),
          500: errorResponses[500],
          503: errorResponses[503],
        },
      },
      config: { auth: 'none', rateLimit: false },
    },
    async (request, reply) => {
      await app.services.push.receive(request.params.token);
      reply.code(202);
      return { success: true };
    },
  );
}
