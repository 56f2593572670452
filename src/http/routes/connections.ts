import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { requireUser } from '../plugins/viewer.ts';
import { DateTime, errorResponses, IdParam, Nullable } from '../schemas/common.ts';

// Applications connected to the account through OAuth (MCP clients such as
// desktop assistants). Listing works with a key or a session; disconnecting,
// which revokes the application's tokens, needs the web session.

const errors = {
  400: errorResponses[400],
  401: errorResponses[401],
  403: errorResponses[403],
  404: errorResponses[404],
  500: errorResponses[500],
  503: errorResponses[503],
};

// Same requirements as the account area's other routes (account.ts).
const USER_SECURITY: Record<string, string[]>[] = [{ apiKeyHeader: [] }, { bearer: [] }, { sessionCookie: [] }];
const SESSION_SECURITY: Record<string, string[]>[] = [{ sessionCookie: [] }];

const ConnectionSchema = Type.Object({
  id: Type.String({ description: 'Id of the authorization (use it to disconnect)' }),
  clientId: Type.String({ description: 'OAuth client id of the application' }),
  name: Type.String({ description: 'Name the application registered with (not verified)' }),
  scope: Type.String({ description: 'Granted scopes, space-separated' }),
  createdAt: DateTime({ description: 'When the user allowed it' }),
  lastUsedAt: Nullable(DateTime({ description: 'Last token issued to it (connect or refresh)' })),
});

export async function connectionRoutes(fastify: FastifyInstance) {
  // Request types come from the route schemas through the type provider.
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { connections } = app.services;

  app.get(
    '/account/connections',
    {
      schema: {
        operationId: 'listConnections',
        summary: 'Applications connected through OAuth (MCP clients)',
        tags: ['account'],
        security: USER_SECURITY,
        response: { 200: Type.Object({ success: Type.Boolean(), connections: Type.Array(ConnectionSchema) }), ...errors },
      },
      config: { auth: 'user' },
    },
    async (request) => ({ success: true, connections: await connections.list(requireUser(request).userId) }),
  );

  app.delete(
    '/account/connections/:id',
    {
      schema: {
        operationId: 'disconnectConnection',
        summary: 'Disconnect an application; its tokens stop working at once',
        tags: ['account'],
        security: SESSION_SECURITY,
        params: Type.Object({ id: IdParam('Id of the connection (`id` in GET /api/v1/account/connections)') }),
        response: { 200: Type.Object({ success: Type.Boolean() }), ...errors },
      },
      config: { auth: 'session' },
    },
    async (request) => {
      await connections.disconnect(requireUser(request).userId, request.params.id);
      return { success: true };
    },
  );
}
