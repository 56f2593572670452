import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { requireUser } from '../plugins/viewer.ts';
import { AccountSummary, ApiKeySchema } from '../schemas/account.ts';
import { errorResponses, IdParam, PLAIN_TEXT_PATTERN } from '../schemas/common.ts';

// The account area. Reading works with a key or a session; creating and
// revoking keys needs a web session, so a leaked key cannot mint new ones.

/** Who may call: a key (either header) or a web session; key management: a session only. */
export const USER_SECURITY: Record<string, string[]>[] = [{ apiKeyHeader: [] }, { bearer: [] }, { sessionCookie: [] }];
const SESSION_SECURITY: Record<string, string[]>[] = [{ sessionCookie: [] }];

/** The error answers of the account area's routes. */
export const errors = {
  400: errorResponses[400],
  401: errorResponses[401],
  403: errorResponses[403],
  404: errorResponses[404],
  500: errorResponses[500],
  503: errorResponses[503],
};

export async function accountRoutes(fastify: FastifyInstance) {
  // Request types come from the route schemas through the type provider.
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { accounts, keys } = app.services;

  app.get(
    '/account',
    {
      schema: {
        operationId: 'getAccount',
        summary: 'Plan, limits and usage today of the organisation acted for',
        tags: ['account'],
        security: USER_SECURITY,
        response: { 200: AccountSummary, ...errors },
      },
      config: { auth: 'user' },
    },
    async (request) => ({ success: true, ...(await accounts.summary(requireUser(request))) }),
  );

  app.get(
    '/account/keys',
    {
      schema: {
        operationId: 'listApiKeys',
        summary: "The caller's active API keys in the organisation acted for (never their secrets)",
        tags: ['account'],
        security: USER_SECURITY,
        response: { 200: Type.Object({ success: Type.Boolean(), keys: Type.Array(ApiKeySchema) }), ...errors },
      },
      config: { auth: 'user' },
    },
    async (request) => ({ success: true, keys: await keys.list(requireUser(request)) }),
  );

  app.post(
    '/account/keys',
    {
      schema: {
        operationId: 'createApiKey',
        summary: 'Create an API key; the secret is in this response only',
        description:
          'Needs a web session and the plan set by API_KEY_MIN_PLAN or higher. The key acts as the caller, with their role, in the organisation the session acts for, and stops working when they leave it.',
        tags: ['account'],
        security: SESSION_SECURITY,
        body: Type.Optional(
          Type.Object({ name: Type.Optional(Type.String({ maxLength: 100, pattern: PLAIN_TEXT_PATTERN })) }, { additionalProperties: false }),
        ),
        response: {
          201: Type.Object({
            success: Type.Boolean(),
            key: ApiKeySchema,
            secret: Type.String({ description: 'The API key itself; store it now, it is not shown again' }),
          }),
          ...errors,
        },
      },
      config: { auth: 'session' },
    },
    async (request, reply) => {
      const { key, secret } = await keys.create(requireUser(request), request.body?.name);
      reply.code(201).header('cache-control', 'no-store');
      return { success: true, key, secret };
    },
  );

  app.delete(
    '/account/keys/:id',
    {
      schema: {
        operationId: 'revokeApiKey',
        summary: 'Revoke an API key',
        tags: ['account'],
        security: SESSION_SECURITY,
        params: Type.Object({ id: IdParam('Id of the key (`id` in GET /api/v1/account/keys)') }),
        response: { 200: Type.Object({ success: Type.Boolean() }), ...errors },
      },
      config: { auth: 'session' },
    },
    async (request) => {
      await keys.revoke(requireUser(request), request.params.id);
      return { success: true };
    },
  );
}
