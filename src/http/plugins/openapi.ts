import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { X_WEBHOOKS } from '../schemas/outbound.ts';
import { addTransportResponses } from '../schemas/transport.ts';

// The OpenAPI document is generated from the route schemas; nothing is written by hand.
export const API_VERSION = '25.0.0';

export const openapiPlugin = fp(
  async (app: FastifyInstance) => {
    await app.register(swagger, {
      openapi: {
        openapi: '3.0.0',
        info: {
          title: 'Vendor Infrastructure Status API',
          version: API_VERSION,
          description:
            'Incidents, maintenance, advisories, release notes, statistics and compliance of infrastructure vendors, normalised from their public status pages. Besides the answers listed per operation, a request that matches no route (an unknown path or method, an empty path parameter) is answered 404 with the error body, and a known path asked with a method it does not take is answered 405 with the error body and an `Allow` header.',
          license: { name: 'MIT', url: 'https://opensource.org/licenses/MIT' },
        },
        servers: [{ url: '/', description: 'This service' }],
        // Public reads also answer anonymous callers (the anonymous tier), hence `{}`;
        // a web session works too. Per-user routes declare their own requirement.
        security: [{}, { apiKeyHeader: [] }, { bearer: [] }, { sessionCookie: [] }],
        tags: [
          { name: 'discovery', description: 'Vendors and their slugs' },
          { name: 'vendor', description: 'One vendor' },
          { name: 'lists', description: 'Cross-vendor lists' },
          { name: 'analytics', description: 'Statistics' },
          { name: 'watchlist', description: "The caller's vendor watchlist (authentication required)" },
          { name: 'notifications', description: 'Notification preferences (authentication required)' },
          { name: 'dashboard', description: 'Dashboard bundle for many vendors (authentication required)' },
          { name: 'badges', description: 'Status badges for READMEs and dashboards (no key needed)' },
          { name: 'feeds', description: 'RSS, Atom and iCalendar feeds' },
          { name: 'operations', description: 'Liveness, readiness, metrics and this document' },
          { name: 'auth', description: 'Web sessions: signup, login, logout' },
          { name: 'account', description: 'Plan, usage and API keys of the caller' },
          { name: 'boards', description: 'Public status boards: a watchlist published at an unguessable URL' },
          { name: 'scim', description: "SCIM 2.0 provisioning of an organisation's members by its identity provider (bearer: a SCIM token)" },
        ],
        components: {
          securitySchemes: {
            apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
            bearer: { type: 'http', scheme: 'bearer', description: 'The API key as a bearer token' },
            sessionCookie: { type: 'apiKey', in: 'cookie', name: 'vis_session', description: 'Web session from /api/v1/auth/login' },
            scimBearer: { type: 'http', scheme: 'bearer', description: 'A SCIM token of the organisation (scim_...), made by an admin' },
            signalSignature: {
              type: 'apiKey',
              in: 'header',
              name: 'webhook-signature',
              description: "Standard Webhooks signature with the organisation's signing secret, with webhook-id and webhook-timestamp (docs/early-warning.md)",
            },
            metricsToken: { type: 'http', scheme: 'bearer', description: 'METRICS_TOKEN of the operator (GET /metrics only, when set)' },
          },
        },
      },
      // Answers Node and Fastify give before routing (bad URL, body or headers) belong to every operation.
      // OpenAPI 3.0 has no `webhooks` object: the payloads alerts send are listed under `x-webhooks`.
      transformObject: (d) => ('openapiObject' in d ? { ...addTransportResponses(d.openapiObject), 'x-webhooks': X_WEBHOOKS } : d.swaggerObject),
      refResolver: {
        // Shared schemas appear under their own names in components.schemas.
        buildLocalReference: (json, _base, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`),
      },
    });
    await app.register(swaggerUi, { routePrefix: '/docs', staticCSP: true });

    const document = () => app.swagger();
    for (const url of ['/openapi.json', '/docs/api/openapi.json']) {
      app.get(url, { schema: { hide: true } }, async () => document());
    }
  },
  { name: 'openapi' },
);
