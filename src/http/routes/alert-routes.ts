import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { noStore } from '../no-store.ts';
import { requireOrg } from '../plugins/viewer.ts';
import { AlertRouteChange, AlertRouteSchema, NewAlertRoute, RouteParams } from '../schemas/alert-routes.ts';
import { TestAlertResponse } from '../schemas/alerts.ts';
import { OrgIdParams } from '../schemas/orgs.ts';
import { strictValidatorCompiler } from '../strict-validation.ts';
import { errors, USER_SECURITY } from './orgs.ts';

// Alert routes of an organisation (docs/alert-routes.md): members read them, editors
// create, change, test and delete them (403 `role_required` below). Unknown body fields
// are refused.

const tags = ['alert routes'];
const One = Type.Object({ success: Type.Boolean(), route: AlertRouteSchema });

export async function alertRouteRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.setValidatorCompiler(strictValidatorCompiler());
  app.addHook('onSend', noStore);
  const { alertRoutes } = app.services;

  app.get(
    '/orgs/:orgId/alert-routes',
    {
      schema: {
        operationId: 'listAlertRoutes',
        summary: "The organisation's alert routes, destinations masked",
        tags,
        security: USER_SECURITY,
        params: OrgIdParams,
        response: { 200: Type.Object({ success: Type.Boolean(), routes: Type.Array(AlertRouteSchema) }), ...errors },
      },
      config: { auth: 'user' },
    },
    async (request) => ({ success: true, routes: await alertRoutes.list(requireOrg(request), request.params.orgId) }),
  );

  app.post(
    '/orgs/:orgId/alert-routes',
    {
      schema: {
        operationId: 'createAlertRoute',
        summary: 'Add an alert route (editors); a webhook route answers its signing secret once',
        tags,
        security: USER_SECURITY,
        params: OrgIdParams,
        body: NewAlertRoute,
        response: { 201: One, ...errors },
      },
      config: { auth: 'user' },
    },
    async (request, reply) => {
      const route = await alertRoutes.create(requireOrg(request), request.params.orgId, request.body);
      reply.code(201);
      return { success: true, route };
    },
  );

  app.get(
    '/orgs/:orgId/alert-routes/:routeId',
    {
      schema: {
        operationId: 'getAlertRoute',
        summary: 'One alert route',
        tags,
        security: USER_SECURITY,
        params: RouteParams,
        response: { 200: One, ...errors },
      },
      config: { auth: 'user' },
    },
    async (request) => ({ success: true, route: await alertRoutes.get(requireOrg(request), request.params.orgId, request.params.routeId) }),
  );

  app.put(
    '/orgs/:orgId/alert-routes/:routeId',
    {
      schema: {
        operationId: 'updateAlertRoute',
        summary: 'Change an alert route (editors): fields given replace those stored; filters given are merged into the stored ones',
        tags,
        security: USER_SECURITY,
        params: RouteParams,
        body: AlertRouteChange,
        response: { 200: One, ...errors },
      },
      config: { auth: 'user' },
    },
    async (request) => ({ success: true, route: await alertRoutes.update(requireOrg(request), request.params.orgId, request.params.routeId, request.body) }),
  );

  app.delete(
    '/orgs/:orgId/alert-routes/:routeId',
    {
      schema: {
        operationId: 'deleteAlertRoute',
        summary: 'Delete an alert route (editors); its pending alerts are cancelled',
        tags,
        security: USER_SECURITY,
        params: RouteParams,
        response: { 200: Type.Object({ success: Type.Boolean() }), ...errors },
      },
      config: { auth: 'user' },
    },
    async (request) => {
      await alertRoutes.remove(requireOrg(request), request.params.orgId, request.params.routeId);
      return { success: true };
    },
  );

  app.post(
    '/orgs/:orgId/alert-routes/:routeId/test',
    {
      schema: {
        operationId: 'testAlertRoute',
        summary: 'Send one test alert through the route now (editors), one attempt',
        tags,
        security: USER_SECURITY,
        params: RouteParams,
        response: { 200: TestAlertResponse, ...errors },
      },
      config: { auth: 'user' },
    },
    async (request) => ({ success: true, ...(await alertRoutes.test(requireOrg(request), request.params.orgId, request.params.routeId)) }),
  );
}
