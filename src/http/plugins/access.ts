import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { LRUCache } from 'lru-cache';
import type { IncomingMessage } from 'node:http';
import type { CachedResponse, ResponseCacheStore } from '../../infra/response-cache.ts';
import type { LimitWindow } from '../../infra/rate-limiter.ts';
import { planWindowsTable, requestSubject } from '../../services/access/limits.ts';
import { cacheKey, etagMatches, etagOf } from '../access/cache-key.ts';
import { isFirstPartyCall } from '../access/first-party.ts';
import { HitIndex } from '../access/hit-index.ts';
import { createHotPath, type HotPath } from '../access/hot-path.ts';
import { rateLimitError, refusalKind, setRateLimitHeaders } from '../access/rate-limit-headers.ts';
import { API_PREFIX } from '../paths.ts';
import { authRuleOf } from './viewer.ts';

// Rate limits and the response cache (DESIGN.md §4, §5), attached per route:
//   - metered: every route under the data API unless `config.rateLimit: false`;
//   - cached: GET routes with `config.cacheTtlSeconds` that are not per-user.
// Order for a cached route: a cached entry matching If-None-Match answers 304
// before counting (a 304 is free); otherwise the request is counted (429 when a
// window is full), then served from the cache (HIT), computed once for all
// concurrent callers (MISS), or computed without the cache (BYPASS, skipCache=true).

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Count the route against the plan's limits; default: true under the data API. */
    rateLimit?: boolean;
    /** A per-user route whose calls from our own pages are not counted (access/first-party.ts); default true. */
    firstParty?: boolean;
  }
  interface FastifyInstance {
    /** Answers plain cache hits of authenticated callers at the HTTP server (see access/hot-path.ts). */
    cacheHotPath: HotPath;
  }
  interface FastifyRequest {
    /** What this request was counted against (refunded when it ends in a 304). */
    metered: { subject: string; windows: readonly LimitWindow[] } | null;
  }
}

type CacheState = 'HIT' | 'MISS' | 'BYPASS';

interface Fill {
  key: string;
  settle(entry: CachedResponse | undefined): void;
  settled: boolean;
}

interface CacheCtx {
  state: CacheState;
  fill: Fill | null;
}

const cacheCtx = new WeakMap<FastifyRequest, CacheCtx>();

export interface AccessPluginOptions {
  cache: ResponseCacheStore;
  /** The request id Fastify would assign (the hot path answers without Fastify). */
  requestId: (req: IncomingMessage) => string;
}

const marker = Symbol('vis-access');

export const accessPlugin = fp(
  async (app: FastifyInstance, opts: AccessPluginOptions) => {
    const { limiter, clock } = app.services;
    const overrides = app.config.rateLimits;
    const store = opts.cache;
    const windowsByPlan = planWindowsTable(overrides);
    const { metrics } = app;
    /** Misses being computed, by cache key: concurrent callers wait for the first. */
    const inflight = new Map<string, Promise<CachedResponse | undefined>>();
    /** Entries computed here lately, readable without waiting (closes the gap above). */
    const filled = new LRUCache<string, CachedResponse>({ max: 1000 });
    app.decorateRequest('metered', null);

    async function meter(request: FastifyRequest, reply: FastifyReply) {
      const v = request.viewer;
      const windows = windowsByPlan[v.plan];
      const subject = requestSubject(v, request.ip);
      const r = await limiter.consume(subject, windows);
      setRateLimitHeaders(reply, windows, r);
      if (!r.allowed) {
        metrics.rateLimited(v.plan, refusalKind(r));
        throw rateLimitError(r, v.plan);
      }
      request.metered = { subject, windows };
    }

    async function meterUnlessFirstParty(request: FastifyRequest, reply: FastifyReply) {
      if (!isFirstPartyCall(request, app.config.webOrigins)) await meter(request, reply);
    }

    function refund(request: FastifyRequest) {
      const m = request.metered;
      if (!m) return;
      request.metered = null;
      limiter.refund(m.subject, m.windows).catch((err) => request.log.warn({ err }, 'rate-limit refund failed'));
    }

    // A handler's own validation 400 (after metering) is not counted either (docs/access.md).
    async function refundBadRequest(request: FastifyRequest, reply: FastifyReply) {
      if (reply.statusCode === 400) refund(request);
    }

    function sendEntry(reply: FastifyReply, entry: CachedResponse) {
      const maxAge = Math.max(0, Math.floor((entry.expiresAt - clock.now().getTime()) / 1000));
      reply.headers({ etag: entry.etag, 'x-cache': 'HIT', 'cache-control': `private, max-age=${maxAge}` });
      return reply.type(entry.contentType).send(entry.body);
    }

    const index = new HitIndex();
    app.decorate(
      'cacheHotPath',
      createHotPath({
        auth: app.services.auth,
        limiter,
        store,
        index,
        clock,
        rateLimits: overrides,
        requestId: opts.requestId,
        metrics,
        // Cross-origin answers need the CORS headers of the Fastify path (plugins/cors.ts).
        crossOriginFallThrough: app.config.corsOrigins === '*' || app.config.corsOrigins.length > 0,
      }),
    );

    // The same shortcut inside Fastify for callers the server-level hot path leaves
    // alone (anonymous): a learnt URL is answered right after authentication.
    function fastPath(metered: boolean) {
      return async function cacheFastPath(request: FastifyRequest, reply: FastifyReply) {
        const route = index.find(request.url, request.viewer.plan, request.viewer.userId);
        const entry = route ? await store.get(route.key) : undefined;
        if (!entry) return;
        if (etagMatches(request.headers['if-none-match'], entry.etag)) {
          metrics.cache(route!.route, 'hit', 'app');
          reply.headers({ etag: entry.etag, 'x-cache': 'HIT' });
          return reply.code(304).send();
        }
        if (metered) await meter(request, reply);
        metrics.cache(route!.route, 'hit', 'app');
        return sendEntry(reply, entry);
      };
    }

    /** Makes this request the one that computes `key`; the others wait for its answer. */
    function lead(request: FastifyRequest, key: string) {
      let settle!: (e: CachedResponse | undefined) => void;
      const promise = new Promise<CachedResponse | undefined>((resolve) => (settle = resolve));
      inflight.set(key, promise);
      const fill: Fill = {
        key,
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

    function cachedPreHandler(windowed: boolean, metered: boolean, anonymousOnly: boolean) {
      return async function cached(request: FastifyRequest, reply: FastifyReply) {
        const skip = (request.query as { skipCache?: boolean } | undefined)?.skipCache === true;
        const key = skip ? null : cacheKey(request, windowed);
        const route = request.routeOptions.url!;
        if (key) index.learn(request.url, request.viewer.plan, request.viewer.userId, { key, metered, route, anonymousOnly });
        let entry = key ? await store.get(key) : undefined;
        if (entry && etagMatches(request.headers['if-none-match'], entry.etag)) {
          // Not counted: the client already has these bytes.
          metrics.cache(route, 'hit', 'app');
          reply.headers({ etag: entry.etag, 'x-cache': 'HIT' });
          return reply.code(304).send();
        }
        // Decide who computes a miss right after the lookup, with no wait in between,
        // so concurrent misses always find the first one's computation in flight. (A
        // leader refused by the limit below settles empty and its waiters compute.)
        let pending: Promise<CachedResponse | undefined> | undefined;
        if (key && !entry) {
          pending = inflight.get(key);
          // A computation may have finished while the lookup waited (a slow Redis):
          // its result is in `filled` before it leaves `inflight`.
          const done = pending ? undefined : filled.get(key);
          if (done && done.expiresAt > clock.now().getTime()) entry = done;
          else if (!pending) lead(request, key);
        }
        if (metered) await meter(request, reply);
        if (!key) {
          cacheCtx.set(request, { state: 'BYPASS', fill: null });
          return;
        }
        let result: 'hit' | 'coalesced' = 'hit';
        if (pending) {
          entry = await pending;
          if (!entry) lead(request, key);
          result = 'coalesced';
        }
        if (entry) {
          metrics.cache(route, result, 'app');
          if (etagMatches(request.headers['if-none-match'], entry.etag)) {
            refund(request);
            reply.headers({ etag: entry.etag, 'x-cache': 'HIT' });
            return reply.code(304).send();
          }
          return sendEntry(reply, entry);
        }
      };
    }

    function cacheOnSend(ttlSeconds: number) {
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
          };
          reply.header('cache-control', `private, max-age=${ttlSeconds}`);
          filled.set(fill.key, entry);
          fill.settle(entry);
          // Waiters already have the entry; the in-flight marker stays until the store has it.
          store
            .set(fill.key, entry)
            .catch((err) => request.log.warn({ err }, 'response cache write failed'))
            .finally(() => inflight.delete(fill.key));
        } else {
          reply.header('cache-control', 'private, no-cache');
        }
        if (etagMatches(request.headers['if-none-match'], etag)) {
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

    app.addHook('onRoute', (route: RouteOptions) => {
      const rule = authRuleOf(route);
      const config = (route.config ?? {}) as { rateLimit?: boolean; cacheTtlSeconds?: number; firstParty?: boolean };
      const metered = config.rateLimit ?? route.url.startsWith(API_PREFIX);
      const perUser = rule === 'user' || rule === 'session';
      if (config.cacheTtlSeconds && perUser) {
        app.log.warn({ url: route.url }, 'cacheTtlSeconds ignored on a per-user route');
      }
      const method = Array.isArray(route.method) ? route.method : [route.method];
      const cached = !!config.cacheTtlSeconds && !perUser && method.length === 1 && method[0] === 'GET';
      if (!metered && !cached) return;
      const list = <T>(h: T | T[] | undefined): T[] => (h ? (Array.isArray(h) ? h : [h]) : []);
      const pre = list(route.preHandler);
      if (pre.some((h) => (h as { [marker]?: boolean })[marker])) return;

      if (cached) {
        const ttl = config.cacheTtlSeconds!;
        const querystring = (route.schema as { querystring?: { properties?: Record<string, unknown> } } | undefined)?.querystring;
        const windowed = !!querystring?.properties && 'timePeriod' in querystring.properties;
        route.preHandler = [Object.assign(cachedPreHandler(windowed, metered, rule === 'none'), { [marker]: true }), ...pre];
        // After authentication (prepended by the viewer plugin), before anything else of the route.
        route.onRequest = [...list(route.onRequest), fastPath(metered)];
        route.onSend = [cacheOnSend(ttl), ...list(route.onSend)];
        route.onResponse = [releaseFill, ...(metered ? [refundBadRequest] : []), ...list(route.onResponse)];
        route.onRequestAbort = [releaseFill, ...list(route.onRequestAbort)];
      } else {
        const firstParty = perUser && config.firstParty !== false;
        route.preHandler = [Object.assign(firstParty ? meterUnlessFirstParty : meter, { [marker]: true }), ...pre];
        route.onResponse = [refundBadRequest, ...list(route.onResponse)];
      }
    });
  },
  { name: 'access', dependencies: ['viewer'] },
);
