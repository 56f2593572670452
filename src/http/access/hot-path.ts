import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { Metrics } from '../../domain/metrics.ts';
import type { Plan, RateLimitOverrides } from '../../domain/plans.ts';
import type { RateLimiter } from '../../infra/rate-limiter.ts';
import type { ResponseCacheStore } from '../../infra/response-cache.ts';
import type { Authenticator } from '../../services/access/authenticator.ts';
import { planWindowsTable } from '../../services/access/limits.ts';
import type { Clock } from '../../domain/clock.ts';
import { etagMatches } from './cache-key.ts';
import { presentedKey, sessionToken } from './credentials.ts';
import type { HitIndex } from './hit-index.ts';
import { rateLimitHeaders } from './rate-limit-headers.ts';
import { hasAmbiguousHost } from '../request-hygiene.ts';

// Cache hits of authenticated callers answered at the HTTP server, before Fastify:
// a client polling a list with its key costs a credential-cache lookup, a counter
// increment and one write. Everything that is not a plain hit (anonymous callers,
// which are few and slow by their limits; unknown keys; misses; refusals) returns
// false and goes through the full Fastify pipeline, which answers with the same
// rules and error bodies. Nothing is written before the decision is final, so a
// fall-through never leaves a half-sent response; a refused request is not counted
// here, and the Fastify path refuses it again without counting.

export interface HotPathDeps {
  auth: Authenticator;
  limiter: RateLimiter;
  store: ResponseCacheStore;
  index: HitIndex;
  clock: Clock;
  rateLimits: RateLimitOverrides;
  requestId: (req: IncomingMessage) => string;
  /** Answers given here never reach Fastify's hooks, so they are counted here. */
  metrics: Metrics;
  /** Leave requests with an Origin to Fastify, which adds the CORS headers (CORS_ORIGINS set). */
  crossOriginFallThrough?: boolean;
}

export type HotPath = (req: IncomingMessage, res: ServerResponse) => Promise<boolean>;

export function createHotPath(d: HotPathDeps): HotPath {
  const windowsByPlan = planWindowsTable(d.rateLimits);
  return async function hotPath(req, res) {
    if (req.method !== 'GET' || !req.url || hasAmbiguousHost(req)) return false;
    if (d.crossOriginFallThrough && req.headers.origin !== undefined) return false;
    const started = performance.now();
    const key = presentedKey(req.headers);
    let identity: { plan: Plan; subject: string; userId: string } | null;
    if (key !== undefined) {
      identity = key ? await d.auth.verifyKey(key) : null;
    } else {
      const token = sessionToken(req.headers);
      identity = token ? await d.auth.verifySession(token) : null;
    }
    if (!identity) return false;
    const route = d.index.find(req.url, identity.plan, identity.userId);
    if (!route || route.anonymousOnly) return false;
    const entry = await d.store.get(route.key);
    if (!entry) return false;
    const headers: Record<string, string | number> = {
      'x-request-id': d.requestId(req),
      etag: entry.etag,
      'x-cache': 'HIT',
    };
    if (etagMatches(req.headers['if-none-match'], entry.etag)) {
      res.writeHead(304, headers);
      res.end();
      answered(route.route, 304, started);
      return true;
    }
    if (route.metered) {
      const windows = windowsByPlan[identity.plan];
      const r = await d.limiter.consume(identity.subject, windows);
      if (!r.allowed) return false;
      Object.assign(headers, rateLimitHeaders(windows, r));
    }
    const maxAge = Math.max(0, Math.floor((entry.expiresAt - d.clock.now().getTime()) / 1000));
    headers['cache-control'] = `private, max-age=${maxAge}`;
    // As the Fastify path says on CORS routes (plugins/cors.ts): the answer differs by Origin.
    if (d.crossOriginFallThrough) headers.vary = 'Origin';
    headers['content-type'] = entry.contentType;
    headers['content-length'] = entry.body.length;
    res.writeHead(200, headers);
    res.end(entry.body);
    answered(route.route, 200, started);
    return true;
  };

  function answered(route: string, status: number, started: number) {
    d.metrics.httpRequest('GET', route, status, (performance.now() - started) / 1000);
    d.metrics.cache(route, 'hit', 'server');
  }
}
