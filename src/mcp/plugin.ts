import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Metrics } from '../domain/metrics.ts';
import type { Config } from '../infra/config.ts';
import { planPolicy } from '../domain/plans.ts';
import {
  rateLimitError,
  refusalKind,
  setRateLimitHeaders,
  errorsPlugin,
  httpMetricsPlugin,
  requestHygienePlugin,
  requestIdFor,
  fastifyTrustProxy,
} from '../http/index.ts';
import { planWindows, requestSubject } from '../services/access/limits.ts';
import { anonymousViewer } from '../services/context.ts';
import type { Access } from '../services/index.ts';
import type { McpCaller, QuotaOutcome } from './context.ts';
import { type BearerResult, mcpEndpoint } from './endpoint.ts';
import { loginRoutes, webLogin } from './oauth/login.ts';
import { oauthPages } from './oauth/pages.ts';
import { ACCESS_TOKEN_PREFIX } from '../services/oauth/secrets.ts';
import type { OAuthService } from '../services/oauth/oauth-service.ts';
import { authorizationServer } from './oauth/server.ts';
import { createOrigins, type Origins } from './origins.ts';
import { standalonePages } from '../web/index.ts';
import { clientGroup } from '../domain/client-address.ts';

// Mounts MCP on the main app: /mcp, the protected-resource metadata and the
// OAuth authorization server. `app.mcp.listenOnOwnPort()` (called by the process
// shell when MCP_PORT is set) serves /mcp and its metadata on a second port too,
// with the same services, tokens and quotas; the authorization server stays on
// the main listener, where the web session lives.

declare module 'fastify' {
  interface FastifyInstance {
    mcp: {
      /** Starts the separate MCP listener on config.mcpPort; resolves with the bound port. */
      listenOnOwnPort(): Promise<number>;
      /** The separate listener's port, when it runs. */
      ownPort(): number | null;
    };
  }
}

const portOf = (app: FastifyInstance | null): number | null => {
  const a = app?.server.address() as AddressInfo | string | null | undefined;
  return a && typeof a === 'object' ? a.port : null;
};

function bearerAuthenticator(auth: Access['auth'], tokens: OAuthService, origins: Origins) {
  return async (token: string, req: FastifyRequest): Promise<BearerResult> => {
    if (token.startsWith(ACCESS_TOKEN_PREFIX)) {
      const t = await tokens.verifyAccess(token);
      if (!t) return { ok: false, description: 'The access token is invalid, expired or revoked' };
      // Audience check (RFC 8707): the token must have been issued for this MCP endpoint.
      if (!origins.isOurResource(t.resource, req)) return { ok: false, description: 'The access token was issued for another resource' };
      return {
        ok: true,
        caller: {
          viewer: { plan: t.plan, userId: t.userId, orgId: t.orgId, role: t.role, authKind: 'oauth', keyId: null },
          auth: { kind: 'oauth', clientId: t.clientId, scopes: t.scopes, expiresAt: t.expiresAt },
        },
      };
    }
    // Anything else must be an API key of the account area.
    const key = await auth.verifyKey(token);
    if (!key) return { ok: false, description: 'The bearer token is neither a valid access token nor a valid API key' };
    return {
      ok: true,
      caller: {
        viewer: { plan: key.plan, userId: key.userId, orgId: key.orgId, role: key.role, authKind: 'key', keyId: key.keyId },
        auth: { kind: 'api_key', keyId: key.keyId },
      },
    };
  };
}

/** MCP tool calls count like REST calls: per account (key or OAuth), or per IP when anonymous. */
function quotaMeter(limiter: Access['limiter'], metrics: Metrics, config: Pick<Config, 'rateLimits' | 'ipv6ClientPrefix'>) {
  return async (req: FastifyRequest, reply: FastifyReply, caller: McpCaller, calls: number): Promise<QuotaOutcome> => {
    const v = caller.viewer;
    const windows = planWindows(planPolicy(v.plan, config.rateLimits));
    // Not clientKey(): this meter also serves the MCP port's own Fastify instance, which has no `config`.
    const subject = requestSubject(v, clientGroup(req.ip, config.ipv6ClientPrefix));
    let result = await limiter.consume(subject, windows);
    for (let i = 1; i < calls && result.allowed; i++) result = await limiter.consume(subject, windows);
    setRateLimitHeaders(reply, windows, result);
    if (result.allowed) return { allowed: true };
    metrics.rateLimited(v.plan, refusalKind(result));
    const err = rateLimitError(result, v.plan);
    reply.header('Retry-After', String(err.details.retryAfter));
    return { allowed: false, message: err.message };
  };
}

export const mcpPlugin = fp(
  async (app: FastifyInstance) => {
    const { services, config } = app;
    // Anonymous callers are served on ANONYMOUS_PLAN (docs/teams.md, "Operator").
    const anonymousCaller: McpCaller = { viewer: { ...anonymousViewer, plan: config.anonymousPlan }, auth: { kind: 'anonymous' } };
    const anonymous = () => anonymousCaller;
    const tokens = services.oauth;
    let own: FastifyInstance | null = null;
    const mainOrigins = createOrigins({
      publicUrl: config.publicUrl,
      mainPort: () => portOf(app),
      mcpPort: () => portOf(own),
      onMcpListener: false,
    });
    const meter = quotaMeter(app.access.limiter, app.metrics, config);
    const endpointDeps = (origins: Origins) => ({
      services,
      now: () => app.clock.now(),
      origins,
      authenticate: bearerAuthenticator(app.access.auth, tokens, origins),
      anonymous,
      meter,
      allowedOrigins: [...config.webOrigins, ...(config.publicUrl ? [config.publicUrl] : [])],
    });
    const login = webLogin(app.access.auth, services, config.webOrigins);
    const pages = oauthPages(standalonePages({ demo: config.demo, clock: app.clock }), async (req) => {
      const user = await login.user(req);
      return user ? { plan: user.plan } : null;
    });

    await app.register(async (scope) => {
      await mcpEndpoint(scope, endpointDeps(mainOrigins));
      await authorizationServer(scope, {
        tokens,
        origins: mainOrigins,
        login,
        pages,
        clock: app.clock,
        async meterAnonymous(req, reply) {
          return (await meter(req, reply, anonymous(), 1)).allowed;
        },
      });
      await loginRoutes(scope, { services, origins: mainOrigins, allowedOrigins: config.webOrigins, login, pages });
    });

    app.decorate('mcp', {
      ownPort: () => portOf(own),
      async listenOnOwnPort() {
        if (config.mcpPort === null) throw new Error('MCP_PORT is not set');
        if (own) return portOf(own)!;
        const server: FastifyInstance = Fastify({
          loggerInstance: app.log.child({ listener: 'mcp' }),
          trustProxy: fastifyTrustProxy(config.trustProxy),
          genReqId: requestIdFor,
          requestIdHeader: false,
          bodyLimit: 262_144,
        });
        const origins = createOrigins({
          publicUrl: config.publicUrl,
          mainPort: () => portOf(app),
          mcpPort: () => portOf(server),
          onMcpListener: true,
        });
        await server.register(errorsPlugin);
        await server.register(httpMetricsPlugin, { metrics: app.metrics });
        await server.register(requestHygienePlugin);
        await server.register(async (scope) => mcpEndpoint(scope, endpointDeps(origins)));
        await server.listen({ port: config.mcpPort, host: config.host });
        own = server;
        return portOf(server)!;
      },
    });
    app.addHook('onClose', async () => {
      await own?.close();
      own = null;
    });
  },
  { name: 'mcp', dependencies: ['viewer', 'rate-limit'] },
);
