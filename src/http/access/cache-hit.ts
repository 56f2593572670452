import type { CachedResponse } from '../../infra/response-cache.ts';
import { etagMatches } from './cache-key.ts';

// The one answer to a cache hit (docs/access.md, "Hot path for cache hits"), whoever
// finds the entry: the server before Fastify (hot-path.ts), the response-cache plugin
// right after authentication, or its preHandler once the key is computed. In order:
// a matching If-None-Match is 304 before counting (a 304 is free); otherwise the
// request is counted, and the entry's bytes go out with `X-Cache: HIT`, its ETag and
// `Cache-Control: private, max-age=<seconds left>`.
//
// The headers that belong to the entry are rendered once per entry, not per request.

/** Header names and values, alternating (what `ServerResponse.writeHead` takes as a list). */
export type HeaderList = (string | number)[];

interface Rendered {
  /** etag, x-cache, content-type, content-length. */
  ok: HeaderList;
  /** etag, x-cache. */
  notModified: HeaderList;
  /** `private, max-age=N` for the last N asked for. */
  maxAge: number;
  cacheControl: string;
}

const rendered = new WeakMap<CachedResponse, Rendered>();

/** The header block of an entry, rendered on its first hit and kept as long as the entry. */
export function renderedHeaders(entry: CachedResponse): Rendered {
  let r = rendered.get(entry);
  if (r === undefined) {
    r = {
      ok: ['etag', entry.etag, 'x-cache', 'HIT', 'content-type', entry.contentType, 'content-length', entry.body.length],
      notModified: ['etag', entry.etag, 'x-cache', 'HIT'],
      maxAge: -1,
      cacheControl: '',
    };
    rendered.set(entry, r);
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
export type Meter = () => Promise<HeaderList | null>;

/** Writes the answer: status, the full header list, the body (null for a 304). */
export type HitWriter = (status: 200 | 304, headers: HeaderList, body: Buffer | null) => void;

export type HitOutcome = 'not-modified' | 'sent' | 'refused';

export interface HitRequest {
  ifNoneMatch: string | undefined;
  /** Absent when the route is not metered or the request was counted already. */
  meter?: Meter | null;
  nowMs: number;
  /** Headers the caller's layer adds to every answer (request id, Vary). */
  lead?: HeaderList;
}

export async function answerCacheHit(entry: CachedResponse, req: HitRequest, write: HitWriter): Promise<HitOutcome> {
  const r = renderedHeaders(entry);
  if (req.ifNoneMatch !== undefined && etagMatches(req.ifNoneMatch, entry.etag)) {
    write(304, req.lead ? req.lead.concat(r.notModified) : r.notModified, null);
    return 'not-modified';
  }
  let limits: HeaderList | null = null;
  if (req.meter) {
    limits = await req.meter();
    if (limits === null) return 'refused';
  }
  const headers = req.lead ? req.lead.concat(r.ok) : r.ok.slice();
  headers.push('cache-control', cacheControl(r, entry, req.nowMs));
  if (limits) for (let i = 0; i < limits.length; i++) headers.push(limits[i]);
  write(200, headers, entry.body);
  return 'sent';
}
