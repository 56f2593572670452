import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { Metrics } from '../../domain/metrics.ts';
import type { RateLimitOverrides } from '../../domain/plans.ts';
import type { RateLimiter } from '../../infra/rate-limiter.ts';
import type { CachedResponse, ResponseCacheStore } from '../../infra/response-cache.ts';
import type { Authenticator, KeyIdentity, SessionIdentity } from '../../services/access/authenticator.ts';
import type { PrivateReaders } from '../../services/access/private-readers.ts';
import { planWindowsTable } from '../../services/access/limits.ts';
import type { Clock } from '../../domain/clock.ts';
import { answerCacheHit, type HeaderList, isSuperseded } from './cache-hit.ts';
import { identify } from './identify.ts';
import type { HitIndex, IndexedRoute } from './hit-index.ts';
import { andThen, type MaybePromise } from '../../domain/maybe-promise.ts';
import { rateLimitHeaderList } from './rate-limit-headers.ts';
import { hotHeaders, type HotHeaders } from './raw-headers.ts';

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
  /** The request id Fastify would assign, from the request's X-Request-Id. */
  requestId: (incoming: string | undefined) => string;
  /** Answers given here never reach Fastify's hooks, so they are counted here. */
  metrics: Metrics;
  /** The data version now: an entry it supersedes falls through and is computed again (cache-hit.ts `isSuperseded`). */
  dataVersion: () => number;
  /** Leave requests with an Origin to Fastify, which adds the CORS headers (CORS_ORIGINS set). */
  crossOriginFallThrough?: boolean;
}

/** Whether the request was answered here: at once when everything it needs is in-process. */
export type HotPath = (req: IncomingMessage, res: ServerResponse) => MaybePromise<boolean>;

export function createHotPath(d: HotPathDeps): HotPath {
  const windowsByPlan = planWindowsTable(d.rateLimits);
  // As the Fastify path says on CORS routes (plugins/cors.ts): the answer differs by Origin.
  const vary: HeaderList = d.crossOriginFallThrough ? ['vary', 'Origin'] : [];

  // Each step goes on at once when its answer is in-process (docs/access.md "Hot path for
  // cache hits"): a remembered key, organisation and entry, and a count kept here.
  function answer(
    res: ServerResponse,
    headers: HotHeaders,
    identity: KeyIdentity | SessionIdentity,
    route: IndexedRoute,
    entry: CachedResponse | undefined,
    started: number,
  ) {
    const nowMs = d.clock.now().getTime();
    if (!entry || isSuperseded(entry, d.dataVersion(), nowMs)) return false;
    const subject = identity.subject;
    const windows = windowsByPlan[identity.plan];
    const outcome = answerCacheHit(
      entry,
      {
        ifNoneMatch: headers['if-none-match'],
        acceptEncoding: headers['accept-encoding'],
        // A full window falls through: Fastify refuses it again, with the 429 body, without counting.
        meter: route.metered ? () => andThen(d.limiter.consume(subject, windows), (r) => (r.allowed ? rateLimitHeaderList(windows, r) : null)) : null,
        nowMs,
        lead: ['x-request-id', d.requestId(headers['x-request-id']), ...vary],
      },
      (status, headers, body) => {
        res.writeHead(status, headers);
        if (body) res.end(body);
        else res.end();
      },
    );
    return andThen(outcome, (o) => {
      if (o === 'refused') return false;
      // Counted after the answer is on its way (metrics stay off the critical section).
      d.metrics.httpRequest('GET', route.route, o === 'sent' ? 200 : 304, (performance.now() - started) / 1000);
      d.metrics.cache(route.route, 'hit', 'server');
      return true;
    });
  }

  return function hotPath(req, res) {
    if (req.method !== 'GET' || !req.url) return false;
    const headers = hotHeaders(req.rawHeaders);
    if (!headers) return false;
    if (d.crossOriginFallThrough && headers.origin !== undefined) return false;
    const started = performance.now();
    const url = req.url;
    // The same identification as the route's chain (identify.ts); anyone else falls through.
    return andThen(identify(d.auth, headers), (who) => {
      const identity = who.kind === 'key' ? who.key : who.kind === 'session' ? who.session : null;
      if (!identity) return false;
      return andThen(d.readers.orgOf(identity.orgId), (owner) => {
        const route = d.index.find(url, identity.plan, owner);
        if (!route || route.anonymousOnly) return false;
        return andThen(d.store.get(route.key), (entry) => answer(res, headers, identity, route, entry, started));
      });
    });
  };
}
