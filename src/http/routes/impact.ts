import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { noStore } from '../no-store.ts';
import { requireOrg } from '../plugins/viewer.ts';
import { ImpactResponse } from '../schemas/impact.ts';
import { OrgIdParams } from '../schemas/orgs.ts';
import { strictValidatorCompiler } from '../strict-validation.ts';
import { errors, USER_SECURITY } from './orgs.ts';

// The organisation's services hit now by vendor incidents and maintenance (docs/services.md
// "Impact now"): members read it. Per organisation, so never from a shared cache.

export async function impactRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.setValidatorCompiler(strictValidatorCompiler());
  app.addHook('onSend', noStore);
  const { impact } = app.services;

  app.get(
    '/orgs/:orgId/impact',
    {
      schema: {
        operationId: 'getImpact',
        summary: "The organisation's services hit now by open vendor incidents and maintenance under way, with the records and reasons",
        tags: ['services'],
        security: USER_SECURITY,
        params: OrgIdParams,
        response: { 200: ImpactResponse, ...errors },
      },
      config: { auth: 'user' },
    },
    async (request) => ({ success: true, ...(await impact.now(requireOrg(request), request.params.orgId)) }),
  );
}
