import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { OAuthError } from '../../domain/oauth-errors.ts';
import type { OAuthService } from '../../services/oauth/oauth-service.ts';
import { SUPPORTED_SCOPES } from '../context.ts';
import { AS_METADATA_PATH, type Origins } from '../origins.ts';
import { AUTHORIZE_PATH, authorizeRoutes, type WebLogin } from './authorize.ts';
import { AUTH_METHODS, authenticateClient, GRANT_TYPES, registerClient, registrationResponse } from './clients.ts';
import { sendOAuthError } from './errors.ts';
import type { OAuthPages } from './pages.ts';
import { readParams } from './params.ts';

// The OAuth 2.1 authorization server for MCP clients: RFC 8414 metadata, RFC 7591
// registration, the authorization endpoint (authorize.ts), the token endpoint
// (authorization_code + PKCE, refresh_token with rotation) and RFC 7009 revocation.

const REGISTER_PATH = '/oauth/register';
const TOKEN_PATH = '/oauth/token';
const REVOKE_PATH = '/oauth/revoke';

export interface AuthorizationServerDeps {
  /** Clients, codes and tokens (services/oauth/oauth-service.ts). */
  tokens: OAuthService;
  origins: Origins;
  login: WebLogin;
  /** The sign-in, consent and error pages (pages.ts). */
  pages: OAuthPages;
  clock: { now(): Date };
  /**
   * Counts an unauthenticated call (registration) against the caller's IP quota;
   * resolves false when the quota is exhausted. Absent: not counted.
   */
  meterAnonymous?(req: FastifyRequest, reply: FastifyReply): Promise<boolean>;
}

export async function authorizationServer(app: FastifyInstance, deps: AuthorizationServerDeps) {
  const { tokens, origins } = deps;

  app.get(AS_METADATA_PATH, { schema: { hide: true } }, async (req, reply) => {
    const issuer = origins.issuer(req);
    reply.header('Cache-Control', 'public, max-age=3600');
    return {
      issuer,
      authorization_endpoint: `${issuer}${AUTHORIZE_PATH}`,
      token_endpoint: `${issuer}${TOKEN_PATH}`,
      registration_endpoint: `${issuer}${REGISTER_PATH}`,
      revocation_endpoint: `${issuer}${REVOKE_PATH}`,
      scopes_supported: [...SUPPORTED_SCOPES],
      response_types_supported: ['code'],
      response_modes_supported: ['query'],
      grant_types_supported: [...GRANT_TYPES],
      token_endpoint_auth_methods_supported: [...AUTH_METHODS],
      revocation_endpoint_auth_methods_supported: [...AUTH_METHODS],
      code_challenge_methods_supported: ['S256'],
      authorization_response_iss_parameter_supported: true,
      service_documentation: `${issuer}/docs`,
    };
  });

  const run = async (req: FastifyRequest, reply: FastifyReply, fn: () => Promise<unknown>) => {
    try {
      return await fn();
    } catch (err) {
      if (err instanceof OAuthError) return sendOAuthError(req, reply, err);
      throw err;
    }
  };

  app.post(REGISTER_PATH, { schema: { hide: true }, bodyLimit: 16_384 }, async (req, reply) =>
    run(req, reply, async () => {
      if (deps.meterAnonymous && !(await deps.meterAnonymous(req, reply))) {
        throw new OAuthError('slow_down', 'Too many requests from this address; retry later');
      }
      const registration = registerClient(req.body, deps.clock.now());
      await tokens.registerClient(registration.client);
      req.log.info({ clientId: registration.client.clientId, name: registration.client.name }, 'oauth client registered');
      return reply.code(201).header('Cache-Control', 'no-store').header('Pragma', 'no-cache').send(registrationResponse(registration));
    }),
  );

  app.post(TOKEN_PATH, { schema: { hide: true }, bodyLimit: 16_384 }, async (req, reply) =>
    run(req, reply, async () => {
      const p = readParams(req.body, [
        'grant_type',
        'code',
        'redirect_uri',
        'code_verifier',
        'refresh_token',
        'scope',
        'resource',
        'client_id',
        'client_secret',
      ]);
      const client = await authenticateClient(req, p, tokens);
      if (p.resource !== undefined && !origins.isOurResource(p.resource, req)) {
        throw new OAuthError('invalid_target', "resource must be this service's MCP endpoint");
      }
      let body;
      if (p.grant_type === 'authorization_code') {
        body = await tokens.exchangeCode({
          client,
          code: p.code ?? '',
          redirectUri: p.redirect_uri,
          codeVerifier: p.code_verifier,
          resource: p.resource,
        });
      } else if (p.grant_type === 'refresh_token') {
        if (!client.grantTypes.includes('refresh_token')) {
          throw new OAuthError('unauthorized_client', 'This client did not register the refresh_token grant');
        }
        body = await tokens.refresh({ client, refreshToken: p.refresh_token ?? '', scope: p.scope, resource: p.resource });
      } else if (!p.grant_type) {
        throw new OAuthError('invalid_request', 'grant_type is required');
      } else {
        throw new OAuthError('unsupported_grant_type', 'Supported grant types: authorization_code, refresh_token');
      }
      return reply.header('Cache-Control', 'no-store').header('Pragma', 'no-cache').send(body);
    }),
  );

  app.post(REVOKE_PATH, { schema: { hide: true }, bodyLimit: 16_384 }, async (req, reply) =>
    run(req, reply, async () => {
      const p = readParams(req.body, ['token', 'token_type_hint', 'client_id', 'client_secret']);
      const client = await authenticateClient(req, p, tokens);
      if (!p.token) throw new OAuthError('invalid_request', 'token is required');
      await tokens.revoke(client, p.token);
      return reply.header('Cache-Control', 'no-store').code(200).send({});
    }),
  );

  await authorizeRoutes(app, { tokens, origins, login: deps.login, pages: deps.pages });
}
