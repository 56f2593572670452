import type { CachedResponse } from '../../infra/response-cache.ts';
import { etagMatches } from './cache-key.ts';
import { andThen, type MaybePromise } from '../../domain/maybe-promise.ts';
import { type Coding, codedEtag, COMPRESS_THRESHOLD, COMPRESSIBLE, compress, preferredCoding } from './content-coding.ts';

// The one answer to a cache hit (docs/access.md, "Hot path for cache hits"), whoever
// finds the entry: the server before Fastify (hot-path.ts), or the route's cache lookup
// step (plugins/response-cache.ts) once the key is computed. In order:
// a matching If-None-Match is 304 before counting (a 304 is free); otherwise the
// request is counted, and the entry's bytes go out with `X-Cache: HIT`, its ETag and
// `Cache-Control: private, max-age=<seconds left>`.
//
// The headers that belong to the entry are rendered once per entry, not per request, and a
// compressed variant (br or gzip, as the request accepts) is made once per entry and coding
// on its first hit (docs/access.md, "Compression").

/**
 * An entry older than this is computed again once a newer change was committed; a younger one
 * is still served, so a burst of changes (a polling round) does not empty the cache.
 */
export const SUPERSEDED_AFTER_MS = 1_000;

/**
 * Whether a newer change than the one an entry was computed at has been seen, and the entry
 * is older than SUPERSEDED_AFTER_MS (docs/access.md "Response cache"): a client polling a list
 * sees a new incident within about a second, not at the end of the entry's 60 s.
 */
export const isSuperseded = (entry: CachedResponse, dataVersion: number, nowMs: number): boolean =>
  entry.dataVersion !== undefined && entry.dataVersion < dataVersion && nowMs - (entry.storedAt ?? 0) >= SUPERSEDED_AFTER_MS;

/** Header names and values, alternating (what `ServerResponse.writeHead` takes as a list). */
export type HeaderList = (string | number)[];

interface Rendered {
  /** etag, x-cache, content-type, content-length (content-encoding, vary). */
  ok: HeaderList;
  /** etag, x-cache (vary). */
  notModified: HeaderList;
  /** The bytes this variant sends. */
  body: Buffer;
  /** `private, max-age=N` for the last N asked for. */
  maxAge: number;
  cacheControl: string;
}

const rendered = new WeakMap<CachedResponse, Map<Coding | 'identity', Rendered>>();

const compressible = (entry: CachedResponse) => entry.body.length >= COMPRESS_THRESHOLD && COMPRESSIBLE.test(entry.contentType);

/** The header block (and bytes) of an entry in one coding, made on its first hit and kept as long as the entry. */
export function renderedHeaders(entry: CachedResponse, coding: Coding | null = null): Rendered {
  let variants = rendered.get(entry);
  if (variants === undefined) {
    variants = new Map();
    rendered.set(entry, variants);
  }
  const varies = compressible(entry);
  const use = varies ? coding : null;
  let r = variants.get(use ?? 'identity');
  if (r === undefined) {
    const body = use ? compress(entry.body, use) : entry.body;
    const etag = use ? codedEtag(entry.etag, use) : entry.etag;
    const vary: HeaderList = varies ? ['vary', 'Accept-Encoding'] : [];
    r = {
      ok: [
        'etag',
        etag,
        'x-cache',
        'HIT',
        'content-type',
        entry.contentType,
        'content-length',
        body.length,
        ...(use ? ['content-encoding', use] : []),
        ...vary,
      ],
      notModified: ['etag', etag, 'x-cache', 'HIT', ...vary],
      body,
      maxAge: -1,
      cacheControl: '',
    };
    variants.set(use ?? 'identity', r);
  }
  return r;
}

function cacheControl(r: Rendered, entry: CachedResponse, nowMs: number): string {
  const maxAge = Math.max(0, Math.floor((entry.expiresAt - nowMs) / 1000));
  if (maxAge !== r.maxAge) {
    r.maxAge = maxAge;
    r.cacheControl = `private, max-age=${maxAge}`;
  }
  return r.cacheControl;
}

/**
 * Counts a request that is about to be served: the rate-limit headers to add, or null
 * when a window is full (the caller answers the refusal; nothing was written or counted).
 */
export type Meter = () => MaybePromise<HeaderList | null>;

/** Writes the answer: status, the full header list, the body (null for a 304). */
export type HitWriter = (status: 200 | 304, headers: HeaderList, body: Buffer | null) => void;

export type HitOutcome = 'not-modified' | 'sent' | 'refused';

export interface HitRequest {
  ifNoneMatch: string | undefined;
  /** The request's Accept-Encoding: the body goes out compressed when it allows. */
  acceptEncoding?: string | undefined;
  /** Absent when the route is not metered or the request was counted already. */
  meter?: Meter | null;
  nowMs: number;
  /** Headers the caller's layer adds to every answer (request id, Vary). */
  lead?: HeaderList;
}

/** Without a promise when the request is counted in-process (or not at all). */
export function answerCacheHit(entry: CachedResponse, req: HitRequest, write: HitWriter): MaybePromise<HitOutcome> {
  const r = renderedHeaders(entry, preferredCoding(req.acceptEncoding));
  // Any coding's validator names the same content: a 304 for each.
  if (req.ifNoneMatch !== undefined && [entry.etag, codedEtag(entry.etag, 'br'), codedEtag(entry.etag, 'gzip')].some((e) => etagMatches(req.ifNoneMatch, e))) {
    write(304, req.lead ? req.lead.concat(r.notModified) : r.notModified, null);
    return 'not-modified';
  }
  const send = (limits: HeaderList | null): HitOutcome => {
    const headers = req.lead ? req.lead.concat(r.ok) : r.ok.slice();
    headers.push('cache-control', cacheControl(r, entry, req.nowMs));
    if (limits) for (let i = 0; i < limits.length; i++) headers.push(limits[i]);
    write(200, headers, r.body);
    return 'sent';
  };
  if (!req.meter) return send(null);
  return andThen(req.meter(), (limits) => (limits === null ? 'refused' : send(limits)));
}
