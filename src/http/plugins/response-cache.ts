import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { LRUCache } from 'lru-cache';
import type { CachedResponse, ResponseCacheStore } from '../../infra/response-cache.ts';
import { answerCacheHit, type HitWriter, isSuperseded, type Meter } from '../access/cache-hit.ts';
import { cacheKey, etagMatches, etagOf } from '../access/cache-key.ts';
import { HitIndex } from '../access/hit-index.ts';
import { createHotPath, type HotPath } from '../access/hot-path.ts';
import type { RouteAccess } from '../access/route-access.ts';

// The response cache (docs/decisions.md "Caching", docs/access.md "Response cache"), attached to GET
// routes with `config.cacheTtlSeconds` that are not per-user, and to routes that name their
// key from the validated request (`config.cacheKeyOf`: the dashboard bundle, a POST;
// docs/per-user.md "Dashboard bundle"). Order for a cached route:
// a cached entry matching If-None-Match answers 304 before counting (a 304 is free);
// otherwise the request is counted (429 when a window is full, plugins/rate-limit.ts),
// then served from the cache (HIT, access/cache-hit.ts), computed once for all
// concurrent callers (MISS), or computed without the cache (BYPASS, skipCache=true).

/** The cache steps of a route's chain, put in place by src/http/access/pipeline.ts. */
export interface CacheSteps {
  /** preHandler: answers a hit (a matching If-None-Match before counting), counts, or makes this request compute the entry. */
  lookup(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined>;
  /** onSend: stores a computed 200, answers 304 for a matching If-None-Match. */
  store(request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown>;
  /** onResponse, onRequestAbort: a request that ends without a response must not leave waiters hanging. */
  release(request: FastifyRequest): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Answers plain cache hits of authenticated callers at the HTTP server (see access/hot-path.ts). */
    cacheHotPath: HotPath;
    responseCache: { stepsFor(route: RouteOptions, access: RouteAccess): CacheSteps | null };
  }
}

type CacheState = 'MISS' | 'BYPASS';

interface Fill {
  key: string;
  /** The data version when the computation started (what the entry is stamped with). */
  dataVersion: number;
  settle(entry: CachedResponse | undefined): void;
  settled: boolean;
}

interface CacheCtx {
  state: CacheState;
  fill: Fill | null;
}

const cacheCtx = new WeakMap<FastifyRequest, CacheCtx>();

export interface ResponseCachePluginOptions {
  cache: ResponseCacheStore;
  /** The request id Fastify would assign, from the request's X-Request-Id (the hot path answers without Fastify). */
  requestId: (incoming: string | undefined) => string;
}

/** The Fastify side of a cache-hit answer (access/cache-hit.ts writes through it). */
function replyWriter(reply: FastifyReply): HitWriter {
  return (status, headers, body) => {
    for (let i = 0; i < headers.length; i += 2) reply.header(headers[i] as string, headers[i + 1]);
    reply.code(status);
    if (body) reply.send(body);
    else reply.send();
  };
}

export const responseCachePlugin = fp(
  async (app: FastifyInstance, opts: ResponseCachePluginOptions) => {
    const { limiter } = app.access;
    const { clock } = app;
    const { privateReaders: readers } = app.services;
    const store = opts.cache;
    const { metrics } = app;
    /** Misses being computed, by cache key: concurrent callers wait for the first. */
    const inflight = new Map<string, Promise<CachedResponse | undefined>>();
    /** Entries computed here lately, readable without waiting (closes the gap above). */
    // Bounded in bytes too: a whole-catalog dashboard bundle is ~7 MB.
    const filled = new LRUCache<string, CachedResponse>({ max: 1000, maxSize: 64 * 1024 * 1024, sizeCalculation: (e) => e.body.length + 64 });
    const { meter, refund } = app.rateLimit;

    /** Counting on the Fastify path: the 429 is thrown, the RateLimit headers are on the reply already. */
    const meterFor =
      (request: FastifyRequest, reply: FastifyReply): Meter =>
      async () => {
        await meter(request, reply);
        return [];
      };

    const index = new HitIndex();

    // The data version of keyed entries (the dashboard bundle): the sequence of the last
    // committed incident or maintenance change seen on the event bus. The sequence is
    // global (the event log), so instances sharing Redis agree on it; a change makes a
    // new key, and the entries of older versions are never read again (they expire).
    let dataVersion = 0;
    const unsubscribe = app.bus.subscribe((events) => {
      for (const e of events) if (e.seq > dataVersion) dataVersion = e.seq;
    });
    app.addHook('onClose', async () => unsubscribe());

    app.decorate(
      'cacheHotPath',
      createHotPath({
        auth: app.access.auth,
        dataVersion: () => dataVersion,
        limiter,
        store,
        index,
        readers,
        clock,
        rateLimits: app.config.rateLimits,
        requestId: opts.requestId,
        metrics,
        // Cross-origin answers need the CORS headers of the Fastify path (plugins/cors.ts).
        crossOriginFallThrough: app.config.corsOrigins === '*' || app.config.corsOrigins.length > 0,
      }),
    );

    /** Makes this request the one that computes `key`; the others wait for its answer. */
    function lead(request: FastifyRequest, key: string) {
      let settle!: (e: CachedResponse | undefined) => void;
      const promise = new Promise<CachedResponse | undefined>((resolve) => (settle = resolve));
      inflight.set(key, promise);
      const fill: Fill = {
        key,
        dataVersion,
        settled: false,
        settle(e) {
          if (fill.settled) return;
          fill.settled = true;
          settle(e);
          if (!e) inflight.delete(key);
        },
      };
      cacheCtx.set(request, { state: 'MISS', fill });
    }

    function cachedPreHandler(windowed: boolean, metered: boolean, anonymousOnly: boolean, keyOf: ((r: FastifyRequest) => string) | null) {
      return async function cached(request: FastifyRequest, reply: FastifyReply) {
        const skip = !keyOf && (request.query as { skipCache?: boolean } | undefined)?.skipCache === true;
        // One decision for the key and for what is computed under it: a caller whose
        // account owns no private page shares the public entry, so it reads as the
        // public does (a page added meanwhile is never stored under a shared key).
        const account = skip ? null : await readers.orgOf(request.viewer.orgId);
        if (!skip && request.viewer.orgId && account === null) request.viewer = { ...request.viewer, readsPublic: true };
        const route = request.routeOptions.url!;
        const key = skip
          ? null
          : keyOf
            ? `${request.method} ${route}|${keyOf(request)}|d=${dataVersion}${account ? `|u=${account}` : ''}`
            : cacheKey(request, windowed, account);
        // A keyed route's URL says nothing of its key (the body does): never indexed.
        if (key && !keyOf) index.learn(request.url, request.viewer.plan, account, { key, metered, route, anonymousOnly });
        // A POST is not a conditional read.
        const ifNoneMatch = keyOf ? undefined : request.headers['if-none-match'];
        let entry = key ? await store.get(key) : undefined;
        // Keyed entries carry the version in their key; the others are computed again once superseded.
        if (entry && !keyOf && isSuperseded(entry, dataVersion, clock.now().getTime())) entry = undefined;
        if (entry) {
          await answerCacheHit(
            entry,
            { ifNoneMatch, acceptEncoding: request.headers['accept-encoding'], meter: metered ? meterFor(request, reply) : null, nowMs: clock.now().getTime() },
            replyWriter(reply),
          );
          metrics.cache(route, 'hit', 'app');
          return reply;
        }
        // Decide who computes a miss right after the lookup, with no wait in between,
        // so concurrent misses always find the first one's computation in flight. (A
        // leader refused by the limit below settles empty and its waiters compute.)
        let pending: Promise<CachedResponse | undefined> | undefined;
        if (key) {
          pending = inflight.get(key);
          // A computation may have finished while the lookup waited (a slow Redis):
          // its result is in `filled` before it leaves `inflight`.
          const done = pending ? undefined : filled.get(key);
          if (done && done.expiresAt > clock.now().getTime() && (keyOf || !isSuperseded(done, dataVersion, clock.now().getTime()))) entry = done;
          else if (!pending) lead(request, key);
        }
        if (metered) await meter(request, reply);
        if (!key) {
          cacheCtx.set(request, { state: 'BYPASS', fill: null });
          return;
        }
        if (pending) {
          entry = await pending;
          if (!entry) lead(request, key);
        }
        if (entry) {
          metrics.cache(route, pending ? 'coalesced' : 'hit', 'app');
          // Counted already: a 304 gives the count back.
          const outcome = await answerCacheHit(
            entry,
            { ifNoneMatch, acceptEncoding: request.headers['accept-encoding'], nowMs: clock.now().getTime() },
            replyWriter(reply),
          );
          if (outcome === 'not-modified') refund(request);
          return reply;
        }
      };
    }

    /** `keyed`: the route keeps its own Cache-Control (the bundle's `no-store`) and answers no 304. */
    function cacheOnSend(ttlSeconds: number, keyed: boolean) {
      return async function onSend(request: FastifyRequest, reply: FastifyReply, payload: unknown) {
        const ctx = cacheCtx.get(request);
        if (!ctx) return payload;
        const { fill } = ctx;
        if (reply.statusCode !== 200 || typeof payload !== 'string') {
          fill?.settle(undefined);
          return payload;
        }
        metrics.cache(request.routeOptions.url!, ctx.state === 'MISS' ? 'miss' : 'bypass', 'app');
        const etag = etagOf(payload);
        reply.headers({ etag, 'x-cache': ctx.state });
        if (fill) {
          const entry: CachedResponse = {
            body: Buffer.from(payload),
            etag,
            contentType: String(reply.getHeader('content-type') ?? 'application/json; charset=utf-8'),
            expiresAt: clock.now().getTime() + ttlSeconds * 1000,
            dataVersion: fill.dataVersion,
            storedAt: clock.now().getTime(),
          };
          if (!keyed) reply.header('cache-control', `private, max-age=${ttlSeconds}`);
          filled.set(fill.key, entry);
          fill.settle(entry);
          // Waiters already have the entry; the in-flight marker stays until the store has it.
          store
            .set(fill.key, entry)
            .catch((err) => request.log.warn({ err }, 'response cache write failed'))
            .finally(() => inflight.delete(fill.key));
        } else if (!keyed) {
          reply.header('cache-control', 'private, no-cache');
        }
        if (!keyed && etagMatches(request.headers['if-none-match'], etag)) {
          refund(request);
          reply.code(304);
          return '';
        }
        return payload;
      };
    }

    // A request that ends without a response (client gone, error before onSend) must not leave waiters hanging.
    const releaseFill = async (request: FastifyRequest) => {
      cacheCtx.get(request)?.fill?.settle(undefined);
    };

    app.decorate('responseCache', {
      stepsFor(route: RouteOptions, access: RouteAccess): CacheSteps | null {
        if (access.perUser && !access.cacheKeyOf && (route.config as { cacheTtlSeconds?: number } | undefined)?.cacheTtlSeconds) {
          app.log.warn({ url: route.url }, 'cacheTtlSeconds ignored on a per-user route');
        }
        if (access.cacheTtlSeconds === null) return null;
        const querystring = (route.schema as { querystring?: { properties?: Record<string, unknown> } } | undefined)?.querystring;
        const windowed = !!querystring?.properties && 'timePeriod' in querystring.properties;
        const keyOf = access.cacheKeyOf;
        return {
          lookup: cachedPreHandler(windowed, access.metered, access.anonymousOnly, keyOf),
          store: cacheOnSend(access.cacheTtlSeconds, keyOf !== null),
          release: releaseFill,
        };
      },
    });
  },
  { name: 'response-cache', dependencies: ['viewer', 'rate-limit'] },
);
