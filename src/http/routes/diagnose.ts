import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { Envelope, errorResponses } from '../schemas/common.ts';
import { DiagnoseQuery, DiagnoseSchema } from '../schemas/diagnose.ts';

// "Is it us or them" (docs/diagnose.md): public and cached briefly like the other reads of
// vendor state; a member of an organisation with services gets its own answer (its services,
// its signals), under a key of its own (docs/access.md "Response cache").
export async function diagnoseRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const s = app.services;

  app.get(
    '/diagnose',
    {
      schema: {
        operationId: 'diagnose',
        summary: 'Which vendor an error message, host name or URL points at, what it reports now, and a verdict',
        tags: ['vendor'],
        querystring: DiagnoseQuery,
        response: { 200: Envelope(Type.Ref(DiagnoseSchema), 'One item: the diagnosis'), ...errorResponses },
      },
      config: { cacheTtlSeconds: 30 },
    },
    async (req) => app.envelope([await s.diagnose.diagnose(req.query.q, req.viewer)]),
  );
}
