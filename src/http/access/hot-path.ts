import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { Metrics } from '../../domain/metrics.ts';
import type { RateLimitOverrides } from '../../domain/plans.ts';
import type { RateLimiter } from '../../infra/rate-limiter.ts';
import type { ResponseCacheStore } from '../../infra/response-cache.ts';
import type { Authenticator } from '../../services/access/authenticator.ts';
import type { PrivateReaders } from '../../services/access/private-readers.ts';
import { planWindowsTable } from '../../services/access/limits.ts';
import type { Clock } from '../../domain/clock.ts';
import { answerCacheHit, type HeaderList, isSuperseded } from './cache-hit.ts';
import { identify } from './identify.ts';
import type { HitIndex } from './hit-index.ts';
import { rateLimitHeaderList } from './rate-limit-headers.ts';
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
  /** Whose entries are their own (accounts with private pages); the others share the public ones. */
  readers: PrivateReaders;
  clock: Clock;
  rateLimits: RateLimitOverrides;
  requestId: (req: IncomingMessage) => string;
  /** Answers given here never reach Fastify's hooks, so they are counted here. */
  metrics: Metrics;
  /** The data version now: an entry it supersedes falls through and is computed again (cache-hit.ts `isSuperseded`). */
  dataVersion: () => number;
  /** Leave requests with an Origin to Fastify, which adds the CORS headers (CORS_ORIGINS set). */
  crossOriginFallThrough?: boolean;
}

export type HotPath = (req: IncomingMessage, res: ServerResponse) => Promise<boolean>;

export function createHotPath(d: HotPathDeps): HotPath {
  const windowsByPlan = planWindowsTable(d.rateLimits);
  // As the Fastify path says on CORS routes (plugins/cors.ts): the answer differs by Origin.
  const vary: HeaderList = d.crossOriginFallThrough ? ['vary', 'Origin'] : [];
  return async function hotPath(req, res) {
    if (req.method !== 'GET' || !req.url || hasAmbiguousHost(req)) return false;
    if (d.crossOriginFallThrough && req.headers.origin !== undefined) return false;
    const started = performance.now();
    // The same identification as the route's chain (identify.ts); anyone else falls through.
    const who = await identify(d.auth, req.headers);
    const identity = who.kind === 'key' ? who.key : who.kind === 'session' ? who.session : null;
    if (!identity) return false;
    const route = d.index.find(req.url, identity.plan, await d.readers.orgOf(identity.orgId));
    if (!route || route.anonymousOnly) return false;
    const entry = await d.store.get(route.key);
    if (!entry || isSuperseded(entry, d.dataVersion(), d.clock.now().getTime())) return false;
    const subject = identity.subject;
    const windows = windowsByPlan[identity.plan];
    const outcome = await answerCacheHit(
      entry,
      {
        ifNoneMatch: req.headers['if-none-match'],
        acceptEncoding: req.headers['accept-encoding'],
        // A full window falls through: Fastify refuses it again, with the 429 body, without counting.
        meter: route.metered
          ? async () => {
              const r = await d.limiter.consume(subject, windows);
              return r.allowed ? rateLimitHeaderList(windows, r) : null;
            }
          : null,
        nowMs: d.clock.now().getTime(),
        lead: ['x-request-id', d.requestId(req), ...vary],
      },
      (status, headers, body) => {
        res.writeHead(status, headers);
        if (body) res.end(body);
        else res.end();
      },
    );
    if (outcome === 'refused') return false;
    // Counted after the answer is on its way (metrics stay off the critical section).
    d.metrics.httpRequest('GET', route.route, outcome === 'sent' ? 200 : 304, (performance.now() - started) / 1000);
    d.metrics.cache(route.route, 'hit', 'server');
    return true;
  };
}
