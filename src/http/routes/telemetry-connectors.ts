import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { noStore } from '../no-store.ts';
import { requireOrg } from '../plugins/viewer.ts';
import { OrgIdParams } from '../schemas/orgs.ts';
import { ConnectorParams, NewTelemetryConnector, TelemetryConnectorChange, TelemetryConnectorSchema } from '../schemas/telemetry-connectors.ts';
import { strictValidatorCompiler } from '../strict-validation.ts';
import { errors, USER_SECURITY } from './orgs.ts';

// Prometheus connectors of an organisation (docs/early-warning.md "Prometheus connectors"):
// members read them with their health, admins create, change and delete them (403
// `role_required` below). Unknown body fields are refused; the token is never answered.

const tags = ['early warning'];
const One = Type.Object({ success: Type.Boolean(), connector: TelemetryConnectorSchema });

export async function telemetryConnectorRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.setValidatorCompiler(strictValidatorCompiler());
  app.addHook('onSend', noStore);
  const { telemetry } = app.services.earlyWarning;

  app.get(
    '/orgs/:orgId/telemetry-connectors',
    {
      schema: {
        operationId: 'listTelemetryConnectors',
        summary: "The organisation's Prometheus connectors with their health (members)",
        tags,
        security: USER_SECURITY,
        params: OrgIdParams,
        response: { 200: Type.Object({ success: Type.Boolean(), connectors: Type.Array(TelemetryConnectorSchema) }), ...errors },
      },
      config: { auth: 'user' },
    },
    async (request) => ({ success: true, connectors: await telemetry.list(requireOrg(request), request.params.orgId) }),
  );

  app.post(
    '/orgs/:orgId/telemetry-connectors',
    {
      schema: {
        operationId: 'createTelemetryConnector',
        summary: 'Add a Prometheus connector (admins)',
        tags,
        security: USER_SECURITY,
        params: OrgIdParams,
        body: NewTelemetryConnector,
        response: { 201: One, ...errors },
      },
      config: { auth: 'user' },
    },
    async (request, reply) => {
      const connector = await telemetry.create(requireOrg(request), request.params.orgId, request.body);
      reply.code(201);
      return { success: true, connector };
    },
  );

  app.get(
    '/orgs/:orgId/telemetry-connectors/:connectorId',
    {
      schema: {
        operationId: 'getTelemetryConnector',
        summary: 'One Prometheus connector with its health',
        tags,
        security: USER_SECURITY,
        params: ConnectorParams,
        response: { 200: One, ...errors },
      },
      config: { auth: 'user' },
    },
    async (request) => ({ success: true, connector: await telemetry.get(requireOrg(request), request.params.orgId, request.params.connectorId) }),
  );

  app.put(
    '/orgs/:orgId/telemetry-connectors/:connectorId',
    {
      schema: {
        operationId: 'updateTelemetryConnector',
        summary: 'Change a Prometheus connector (admins): fields given replace those stored; new queries or URL start evaluation afresh',
        tags,
        security: USER_SECURITY,
        params: ConnectorParams,
        body: TelemetryConnectorChange,
        response: { 200: One, ...errors },
      },
      config: { auth: 'user' },
    },
    async (request) => ({
      success: true,
      connector: await telemetry.update(requireOrg(request), request.params.orgId, request.params.connectorId, request.body),
    }),
  );

  app.delete(
    '/orgs/:orgId/telemetry-connectors/:connectorId',
    {
      schema: {
        operationId: 'deleteTelemetryConnector',
        summary: 'Delete a Prometheus connector (admins)',
        tags,
        security: USER_SECURITY,
        params: ConnectorParams,
        response: { 200: Type.Object({ success: Type.Boolean() }), ...errors },
      },
      config: { auth: 'user' },
    },
    async (request) => {
      await telemetry.delete(requireOrg(request), request.params.orgId, request.params.connectorId);
      return { success: true };
    },
  );
}
