import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { noStore } from '../no-store.ts';
import { requireOrg } from '../plugins/viewer.ts';
import { OrgIdParams } from '../schemas/orgs.ts';
import { NewService, ServiceChange, ServiceParams, ServiceSchema } from '../schemas/services.ts';
import { strictValidatorCompiler } from '../strict-validation.ts';
import { errors, USER_SECURITY } from './orgs.ts';

// The organisation's own services and their vendor dependencies (docs/services.md "API"):
// members read them, editors create, change and delete them (403 `role_required`).
// Unknown body fields are refused.

const tags = ['services'];
const One = Type.Object({ success: Type.Boolean(), service: ServiceSchema });

export async function serviceRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.setValidatorCompiler(strictValidatorCompiler());
  app.addHook('onSend', noStore);
  const { teamServices } = app.services;

  app.get(
    '/orgs/:orgId/services',
    {
      schema: {
        operationId: 'listServices',
        summary: "The organisation's services and their vendor dependencies",
        tags,
        security: USER_SECURITY,
        params: OrgIdParams,
        response: { 200: Type.Object({ success: Type.Boolean(), services: Type.Array(ServiceSchema) }), ...errors },
      },
      config: { auth: 'user' },
    },
    async (request) => ({ success: true, services: await teamServices.list(requireOrg(request), request.params.orgId) }),
  );

  app.post(
    '/orgs/:orgId/services',
    {
      schema: {
        operationId: 'createService',
        summary: 'Add a service (editors)',
        tags,
        security: USER_SECURITY,
        params: OrgIdParams,
        body: NewService,
        response: { 201: One, ...errors },
      },
      config: { auth: 'user' },
    },
    async (request, reply) => {
      const service = await teamServices.create(requireOrg(request), request.params.orgId, request.body);
      reply.code(201);
      return { success: true, service };
    },
  );

  app.get(
    '/orgs/:orgId/services/:serviceId',
    {
      schema: { operationId: 'getService', summary: 'One service', tags, security: USER_SECURITY, params: ServiceParams, response: { 200: One, ...errors } },
      config: { auth: 'user' },
    },
    async (request) => ({ success: true, service: await teamServices.get(requireOrg(request), request.params.orgId, request.params.serviceId) }),
  );

  app.put(
    '/orgs/:orgId/services/:serviceId',
    {
      schema: {
        operationId: 'updateService',
        summary: 'Change a service (editors): fields given replace those stored, dependencies as a whole',
        tags,
        security: USER_SECURITY,
        params: ServiceParams,
        body: ServiceChange,
        response: { 200: One, ...errors },
      },
      config: { auth: 'user' },
    },
    async (request) => ({
      success: true,
      service: await teamServices.update(requireOrg(request), request.params.orgId, request.params.serviceId, request.body),
    }),
  );

  app.delete(
    '/orgs/:orgId/services/:serviceId',
    {
      schema: {
        operationId: 'deleteService',
        summary: 'Delete a service (editors)',
        tags,
        security: USER_SECURITY,
        params: ServiceParams,
        response: { 200: Type.Object({ success: Type.Boolean() }), ...errors },
      },
      config: { auth: 'user' },
    },
    async (request) => {
      await teamServices.remove(requireOrg(request), request.params.orgId, request.params.serviceId);
      return { success: true };
    },
  );
}
