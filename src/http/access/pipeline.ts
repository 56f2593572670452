import type { FastifyInstance, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { queryCheckFor } from '../plugins/known-query.ts';
import { authenticateStep } from './authenticate.ts';
import { hooksOf, routeAccess } from './route-access.ts';

// One chain per route (docs/access.md "Pipeline"). A route declares what access it needs
// (`config.auth`, `config.role`, `config.rateLimit`, `config.cacheTtlSeconds`,
// `config.cacheKeyOf`: route-access.ts reads them in one place); this hook turns the
// declaration into the route's hooks, in this order and nowhere else:
//
//   onRequest   check the query (400 for an undocumented parameter)
//               → CORS headers (so every later refusal carries them)
//               → authenticate (401/403, role) → the route's own onRequest hooks
//   preHandler  cache lookup, which counts (a matching If-None-Match first: a 304 is free)
//               | count (429) → the route's own preHandlers → handler
//   onSend      store a computed answer in the cache → the route's own
//   onResponse  give back the count of a handler's 400 → release cache waiters → own
//
// A cache hit of an authenticated caller on a URL seen before is answered before Fastify
// by the server (hot-path.ts), with the same identification (identify.ts) and the same
// answer (cache-hit.ts); anything else comes here.

/** Marks a chain already built: Fastify's generated HEAD route copies the GET route's hooks. */
const BUILT = Symbol('vis-access-chain');

export const accessPipelinePlugin = fp(
  async (app: FastifyInstance) => {
    const authDeps = { auth: app.access.auth, webOrigins: app.config.webOrigins, requireApiKey: app.config.requireApiKey };
    const { rateLimit, responseCache } = app;

    app.addHook('onRoute', (route: RouteOptions) => {
      const pre = hooksOf(route.preHandler);
      if ((pre as { [BUILT]?: true })[BUILT]) return;
      const access = routeAccess(route);
      const cache = responseCache.stepsFor(route, access);
      const meter = access.metered && !cache ? (access.firstParty ? rateLimit.meterUnlessFirstParty : rateLimit.meter) : null;
      // Hooks of different signatures side by side (Fastify types each hook list on its own).
      const steps = (...xs: unknown[]) => xs.filter(Boolean);

      route.onRequest = [
        ...steps(queryCheckFor(route), app.corsStepFor(route), authenticateStep(authDeps, access.auth, access.role)),
        ...hooksOf(route.onRequest),
      ] as RouteOptions['onRequest'];
      const preHandler = [...steps(cache?.lookup, meter), ...pre] as unknown[];
      Object.defineProperty(preHandler, BUILT, { value: true });
      route.preHandler = preHandler as RouteOptions['preHandler'];
      if (cache) route.onSend = [cache.store, ...hooksOf(route.onSend)] as RouteOptions['onSend'];
      route.onResponse = [...steps(access.metered && rateLimit.refundBadRequest, cache?.release), ...hooksOf(route.onResponse)] as RouteOptions['onResponse'];
      if (cache) route.onRequestAbort = [cache.release, ...hooksOf(route.onRequestAbort)] as RouteOptions['onRequestAbort'];
    });
  },
  { name: 'access-pipeline', dependencies: ['viewer', 'rate-limit', 'response-cache', 'cors'] },
);
