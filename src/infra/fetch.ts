import { pipeline, type Readable } from 'node:stream';
import zlib from 'node:zlib';
import { Agent, request } from 'undici';
import { assertAllowedUrl, BlockedDestinationError, guardedAgent } from './ssrf-guard.ts';

// HTTP GET with the limits a poller of third-party pages needs: one deadline for
// the whole exchange (connect, headers, body), a byte cap applied while streaming
// (after decompression, so a small gzip bomb cannot expand past it), a bounded
// number of redirects, conditional requests, and a User-Agent that names us.
//
// The catalog URL is the operator's own choice, so its origin is reached directly
// (a self-hosted page may live on a private address). A redirect to any other
// origin is untrusted input: it goes through the same connect-time SSRF guard as
// alert deliveries (src/infra/ssrf-guard.ts, OUTBOUND_ALLOW_PRIVATE), and a refused
// one fails the poll with "redirect refused" (docs/security.md). A page a user added
// (docs/per-user.md "Custom status pages") is not the operator's choice: `untrusted`
// sends even its first request through the guard ("destination refused").

export const USER_AGENT = 'vendor-infrastructure-status-api/0.1 (status page aggregator)';

export type FetchErrorCode = 'timeout' | 'too_large' | 'http_status' | 'network' | 'redirect' | 'aborted';

export class FetchError extends Error {
  override name = 'FetchError';
  readonly code: FetchErrorCode;
  readonly status: number | null;
  /** Seconds the server asked us to wait (429/503 Retry-After). */
  readonly retryAfterSeconds: number | null;

  constructor(
    code: FetchErrorCode,
    message: string,
    status: number | null = null,
    /** Seconds the server asked us to wait (429/503 Retry-After). */
    retryAfterSeconds: number | null = null,
  ) {
    super(message);
    this.code = code;
    this.status = status;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

interface FetchOptions {
  etag?: string | null;
  lastModified?: string | null;
  timeoutMs: number;
  maxBytes: number;
  maxRedirects?: number;
  accept?: string;
  /** Aborts the request (scheduler shutdown). */
  signal?: AbortSignal;
  /** A URL a user gave: its own origin is guarded too, not only redirects. */
  untrusted?: boolean;
  /**
   * A body that is complete before the connection ends (a server-sent event stream, which
   * never ends): reading stops, and the connection is closed, once this says what arrived is enough.
   */
  complete?: (received: Buffer) => boolean;
}

type FetchResult =
  | {
      notModified: false;
      status: number;
      url: string;
      body: Buffer;
      contentType: string | null;
      etag: string | null;
      lastModified: string | null;
    }
  | { notModified: true; status: 304; url: string; etag: string | null; lastModified: string | null };

export type Fetcher = (url: string, opts: FetchOptions) => Promise<FetchResult>;

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

const header = (h: Record<string, string | string[] | undefined>, name: string): string | null => {
  const v = h[name];
  return Array.isArray(v) ? (v[0] ?? null) : (v ?? null);
};

export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, Math.round((at - now) / 1000));
}

/** Reads a (possibly compressed) body, failing as soon as it grows past `maxBytes`. */
async function readCapped(body: Readable, encoding: string | null, maxBytes: number, complete?: (received: Buffer) => boolean): Promise<Buffer> {
  let stream: Readable = body;
  const enc = (encoding ?? '').trim().toLowerCase();
  if (enc === 'gzip' || enc === 'x-gzip') stream = pipeline(body, zlib.createGunzip(), () => {});
  else if (enc === 'br') stream = pipeline(body, zlib.createBrotliDecompress(), () => {});
  else if (enc === 'deflate') stream = pipeline(body, zlib.createInflate(), () => {});
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) {
      body.destroy();
      stream.destroy();
      throw new FetchError('too_large', `payload larger than ${maxBytes} bytes`);
    }
    chunks.push(chunk as Buffer);
    if (complete) {
      const received = Buffer.concat(chunks, size);
      if (complete(received)) {
        body.destroy();
        stream.destroy();
        return received;
      }
    }
  }
  return Buffer.concat(chunks, size);
}

export interface HttpFetcherOptions {
  /** Connections kept per origin by the shared agent. */
  connectionsPerOrigin?: number;
  /** OUTBOUND_ALLOW_PRIVATE: hosts/CIDRs a redirect may still lead to. */
  allowList?: readonly string[];
  /** Connect timeout of the guarded agent. */
  connectTimeoutMs?: number;
}

const REFUSED = 'redirect refused (destination is not a public address)';
const REFUSED_FIRST = 'destination refused (not a public address)';
const isBlocked = (err: unknown): boolean => {
  for (let e = err as { cause?: unknown; code?: string } | undefined, i = 0; e && i < 5; e = e.cause as typeof e, i++) {
    if (e instanceof BlockedDestinationError || e.code === 'ERR_BLOCKED_DESTINATION') return true;
  }
  return false;
};

/** A fetcher with its own connection pool; `close()` it when done. */
export function createHttpFetcher(o: HttpFetcherOptions = {}): Fetcher & { close(): Promise<void> } {
  const agent = new Agent({
    connections: o.connectionsPerOrigin ?? 4,
    keepAliveTimeout: 30_000,
    keepAliveMaxTimeout: 120_000,
  });
  const allowList = o.allowList ?? [];
  const guarded = guardedAgent({ allowList, timeoutMs: o.connectTimeoutMs ?? 10_000, connections: o.connectionsPerOrigin ?? 4 });

  const fetcher = async (url: string, opts: FetchOptions): Promise<FetchResult> => {
    const deadline = AbortSignal.timeout(opts.timeoutMs);
    const signal = opts.signal ? AbortSignal.any([deadline, opts.signal]) : deadline;
    const maxRedirects = opts.maxRedirects ?? 3;
    let current = url;
    const trustedOrigin = opts.untrusted ? null : new URL(url).origin;
    const refused = () => (current === url ? REFUSED_FIRST : REFUSED);
    try {
      for (let hop = 0; ; hop++) {
        const target = new URL(current);
        if (target.protocol !== 'http:' && target.protocol !== 'https:') {
          throw new FetchError('redirect', `unsupported protocol ${target.protocol}`);
        }
        const headers: Record<string, string> = {
          'user-agent': USER_AGENT,
          accept: opts.accept ?? 'application/json, application/rss+xml, application/atom+xml, application/xml;q=0.9, */*;q=0.5',
          'accept-encoding': 'gzip, br',
        };
        // Validators belong to the URL they came from, so only the first hop sends them.
        if (hop === 0 && opts.etag) headers['if-none-match'] = opts.etag;
        if (hop === 0 && opts.lastModified) headers['if-modified-since'] = opts.lastModified;
        const trusted = target.origin === trustedOrigin;
        if (!trusted) {
          try {
            assertAllowedUrl(target, allowList);
          } catch {
            throw new FetchError('redirect', refused());
          }
        }
        const res = await request(target, {
          method: 'GET',
          headers,
          signal,
          dispatcher: trusted ? agent : guarded,
          headersTimeout: opts.timeoutMs,
          bodyTimeout: opts.timeoutMs,
        });
        // Discarding a body (redirect, 304, error status, over the cap) destroys it, which
        // emits an abort error on it: expected, and not to surface as an uncaught error.
        res.body.on('error', () => {});
        const h = res.headers;
        // A small body is read to the end so the keep-alive connection can be reused.
        const discard = () => res.body.dump({ limit: 64 * 1024, signal }).catch(() => {});
        if (REDIRECTS.has(res.statusCode)) {
          await discard();
          const location = header(h, 'location');
          if (!location) throw new FetchError('redirect', `HTTP ${res.statusCode} without Location`, res.statusCode);
          if (hop >= maxRedirects) throw new FetchError('redirect', `more than ${maxRedirects} redirects`, res.statusCode);
          current = new URL(location, target).toString();
          continue;
        }
        const etag = header(h, 'etag');
        const lastModified = header(h, 'last-modified');
        if (res.statusCode === 304) {
          await discard();
          return { notModified: true, status: 304, url: current, etag, lastModified };
        }
        if (res.statusCode < 200 || res.statusCode > 299) {
          await discard();
          const retryAfter = res.statusCode === 429 || res.statusCode === 503 ? parseRetryAfter(header(h, 'retry-after')) : null;
          throw new FetchError('http_status', `HTTP ${res.statusCode}`, res.statusCode, retryAfter);
        }
        const declared = Number(header(h, 'content-length') ?? NaN);
        if (Number.isFinite(declared) && declared > opts.maxBytes && !header(h, 'content-encoding')) {
          res.body.destroy();
          throw new FetchError('too_large', `payload larger than ${opts.maxBytes} bytes (Content-Length ${declared})`, res.statusCode);
        }
        const body = await readCapped(res.body, header(h, 'content-encoding'), opts.maxBytes, opts.complete);
        return {
          notModified: false,
          status: res.statusCode,
          url: current,
          body,
          contentType: header(h, 'content-type'),
          etag,
          lastModified,
        };
      }
    } catch (err) {
      if (err instanceof FetchError) throw err;
      if (isBlocked(err)) throw new FetchError('redirect', refused());
      if (deadline.aborted) throw new FetchError('timeout', `timed out after ${opts.timeoutMs} ms`);
      if (opts.signal?.aborted) throw new FetchError('aborted', 'poll aborted (shutting down)');
      const e = err as Error & { code?: string; cause?: { code?: string } };
      const code = e.code ?? e.cause?.code;
      if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT') {
        throw new FetchError('timeout', `timed out after ${opts.timeoutMs} ms`);
      }
      if (e instanceof Error && /incorrect header check|unexpected end of file|Decompression/i.test(e.message)) {
        throw new FetchError('network', `could not decompress the body (${e.message})`);
      }
      throw new FetchError('network', code ? `${code}: ${e.message}` : e.message || 'network error');
    }
  };

  return Object.assign(fetcher, {
    close: async () => {
      await Promise.all([agent.close(), guarded.close()]);
    },
  });
}
