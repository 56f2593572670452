import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '../../domain/errors.ts';
import { SESSION_COOKIE } from '../access/credentials.ts';
import { hasAllowedOrigin } from '../access/origin.ts';
import { AuthResponse, Credentials } from '../schemas/account.ts';
import { errorResponses } from '../schemas/common.ts';
import { clientKey } from '../client-key.ts';

// Web authentication: JSON or form bodies; success sets the session cookie
// (HttpOnly, SameSite=Lax, Secure when the request came over TLS).

const authErrors = {
  400: errorResponses[400],
  401: errorResponses[401],
  403: errorResponses[403],
  409: Type.Ref('ErrorBody', { description: 'Email already registered' }),
  429: errorResponses[429],
  500: errorResponses[500],
  503: errorResponses[503],
};

export async function authRoutes(fastify: FastifyInstance) {
  // Request types come from the route schemas through the type provider.
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const accounts = app.services.accounts;
  const webOrigins = app.config.webOrigins;

  // A browser posting from a foreign page must not log anyone in (login CSRF);
  // clients that send no Origin (curl, scripts) are not browsers and may.
  function checkOrigin(request: FastifyRequest) {
    if (request.headers.origin !== undefined && !hasAllowedOrigin(request, webOrigins)) {
      throw new DomainError('origin_not_allowed', 'Requests from this Origin are not allowed');
    }
  }

  function setSession(request: FastifyRequest, reply: FastifyReply, token: string, expiresAt: Date) {
    reply.setCookie(SESSION_COOKIE, token, {
      httpOnly: true,
      sameSite: 'lax',
      secure: request.protocol === 'https',
      path: '/',
      expires: expiresAt,
    });
  }

  app.post(
    '/auth/signup',
    {
      schema: {
        operationId: 'signup',
        summary: 'Create a Free account and log in',
        tags: ['auth'],
        security: [],
        body: Credentials,
        response: { 201: AuthResponse, ...authErrors },
      },
      config: { auth: 'none' },
    },
    async (request, reply) => {
      checkOrigin(request);
      const { user, session } = await accounts.signup({ ...request.body, ip: clientKey(request) });
      setSession(request, reply, session.token, session.expiresAt);
      reply.code(201);
      return { success: true, account: user, sessionExpiresAt: session.expiresAt.toISOString() };
    },
  );

  app.post(
    '/auth/login',
    {
      schema: {
        operationId: 'login',
        summary: 'Log in with email and password',
        description: 'Failed attempts are throttled per account and per client address (429 with retryAfter).',
        tags: ['auth'],
        security: [],
        body: Credentials,
        response: { 200: AuthResponse, ...authErrors },
      },
      config: { auth: 'none' },
    },
    async (request, reply) => {
      checkOrigin(request);
      const { user, session } = await accounts.login({ ...request.body, ip: clientKey(request) });
      setSession(request, reply, session.token, session.expiresAt);
      return { success: true, account: user, sessionExpiresAt: session.expiresAt.toISOString() };
    },
  );

  app.post(
    '/auth/logout',
    {
      schema: {
        operationId: 'logout',
        summary: 'End the web session',
        tags: ['auth'],
        response: {
          200: Type.Object({ success: Type.Boolean() }),
          401: errorResponses[401],
          403: errorResponses[403],
          500: errorResponses[500],
          503: errorResponses[503],
        },
      },
      config: { auth: 'optional' },
    },
    async (request, reply) => {
      if (request.session) await accounts.logout(request.session.sessionHash);
      reply.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax', secure: request.protocol === 'https' });
      return { success: true };
    },
  );
}
