import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { errorResponses } from '../schemas/common.ts';
import { authRuleOf } from './viewer.ts';

// Opt-in CORS for public reads (docs/integrations.md, "CORS"). With CORS_ORIGINS set,
// pages of those origins (or of any, with `*`) may call the public GET routes from a
// browser: the data API's public reads (auth rule `public`) and routes that opt in with
// `config.cors` (badges, public feeds). Per-user routes never answer cross-origin.
// Credentials are never allowed: no Access-Control-Allow-Credentials, so a browser
// never exposes a response to a request sent with cookies; keys go in headers.
// Preflights (OPTIONS with Origin and Access-Control-Request-Method) are answered for
// exactly those routes. Without CORS_ORIGINS nothing here is installed.

declare module 'fastify' {
  interface FastifyInstance {
    /** The CORS headers step of a route, or null (not a public GET, or CORS_ORIGINS unset). */
    corsStepFor: (route: RouteOptions) => ((request: FastifyRequest, reply: FastifyReply) => Promise<void>) | null;
  }
  interface FastifyContextConfig {
    /** A route outside the data API that serves public data to any page (with CORS_ORIGINS). */
    cors?: boolean;
  }
}

/** What a page may send: a key, a conditional request, a stream resume. */
const ALLOW_HEADERS = 'X-API-Key, Authorization, If-None-Match, Last-Event-ID, X-Request-Id';
/** What a page may read besides the CORS-safelisted headers. */
const EXPOSE_HEADERS = [
  'ETag',
  'X-Cache',
  'X-Request-Id',
  'Retry-After',
  'RateLimit',
  'RateLimit-Policy',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
].join(', ');
const MAX_AGE_SECONDS = 600;

/** A Fastify route pattern (`/vendors/:vendor/:dataType`, `/badges/:vendor.svg`) as a whole-path RegExp. */
function routePatternRegExp(pattern: string): RegExp {
  const source = pattern
    .split(/(:[A-Za-z0-9_]+|\*)/)
    .map((part) => (part === '*' ? '.*' : part.startsWith(':') ? '[^/]+?' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source}$`);
}

function isCorsRoute(route: Pick<RouteOptions, 'url' | 'config' | 'method'>): boolean {
  if (route.method !== 'GET') return false;
  const rule = authRuleOf(route);
  return rule === 'public' || (rule === 'none' && (route.config as { cors?: boolean } | undefined)?.cors === true);
}

export const corsPlugin = fp(
  async (app: FastifyInstance) => {
    const allowed = app.config.corsOrigins;
    if (allowed !== '*' && !allowed.length) {
      app.decorate('corsStepFor', () => null);
      return;
    }
    const allows = (origin: string | undefined): origin is string => !!origin && origin !== 'null' && (allowed === '*' || allowed.includes(origin));
    const patterns: RegExp[] = [];

    function allowOrigin(reply: FastifyReply, origin: string) {
      if (allowed === '*') reply.header('access-control-allow-origin', '*');
      else reply.header('access-control-allow-origin', origin);
    }

    // First of the route's onRequest hooks, so that answers given by later hooks
    // (authentication errors, cache hits, 429) carry the headers too.
    async function corsHeaders(request: FastifyRequest, reply: FastifyReply) {
      if (allowed !== '*') reply.header('vary', 'Origin');
      const origin = request.headers.origin;
      if (!allows(origin)) return;
      allowOrigin(reply, origin);
      reply.header('access-control-expose-headers', EXPOSE_HEADERS);
    }

    // The CORS step of a route's chain (src/http/access/pipeline.ts); its path answers preflights.
    app.decorate('corsStepFor', (route: RouteOptions) => {
      if (!isCorsRoute(route)) return null;
      patterns.push(routePatternRegExp(route.url));
      return corsHeaders;
    });

    app.options(
      '/*',
      {
        // A transport answer for every public GET path (docs/integrations.md), not an operation of its own.
        schema: { hide: true, response: { 204: { type: 'null' }, 404: errorResponses[404] } },
        config: { rateLimit: false },
      },
      async (request, reply) => {
        const path = request.url.split('?')[0]!;
        if (!patterns.some((re) => re.test(path))) {
          return reply.code(404).send({ success: false, error: 'not_found', message: 'No public GET route at this path', requestId: request.id });
        }
        if (allowed !== '*') reply.header('vary', 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers');
        const origin = request.headers.origin;
        const method = String(request.headers['access-control-request-method'] ?? '').toUpperCase();
        // A refused preflight is a 204 without CORS headers: the browser reports the failure.
        if (allows(origin) && (method === 'GET' || method === 'HEAD')) {
          allowOrigin(reply, origin);
          reply.headers({
            'access-control-allow-methods': 'GET, HEAD',
            'access-control-allow-headers': ALLOW_HEADERS,
            'access-control-max-age': String(MAX_AGE_SECONDS),
          });
        }
        return reply.code(204).send();
      },
    );
  },
  { name: 'cors', dependencies: ['viewer'] },
);
