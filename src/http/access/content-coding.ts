import zlib from 'node:zlib';

// HTTP compression (docs/access.md, "Compression"): which coding a request accepts, and the
// settings both layers use, so a cache hit answered before Fastify and an answer compressed by
// @fastify/compress come out alike.

export type Coding = 'br' | 'gzip';

/** Bodies smaller than this go out as they are: the coding would cost more than it saves. */
export const COMPRESS_THRESHOLD = 1024;

/** Text-like bodies; never the event stream (it must reach the client event by event). */
export const COMPRESSIBLE = /^(?:text\/(?!event-stream)|application\/(?:[\w.+-]*\+)?(?:json|xml)|application\/javascript|image\/svg\+xml)/i;

/** Brotli at quality 5: about gzip's speed at a smaller size, for bodies compressed per request. */
export const BROTLI_OPTIONS = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } };
export const GZIP_OPTIONS = { level: 6 };

/** Clients send a handful of distinct Accept-Encoding values: each is read once (bounded, cleared when full). */
const KNOWN_CODINGS = new Map<string, Coding | null>();
const MAX_KNOWN_CODINGS = 256;
const MAX_KNOWN_LENGTH = 200;

/**
 * The coding to answer with for an `Accept-Encoding` header (RFC 9110, 12.5.3): the one with
 * the highest q-value among br and gzip (br on a tie), none when absent, `identity` or q=0.
 */
export function preferredCoding(acceptEncoding: string | undefined): Coding | null {
  if (!acceptEncoding) return null;
  const known = KNOWN_CODINGS.get(acceptEncoding);
  if (known !== undefined) return known;
  const coding = readCoding(acceptEncoding);
  if (acceptEncoding.length <= MAX_KNOWN_LENGTH) {
    if (KNOWN_CODINGS.size >= MAX_KNOWN_CODINGS) KNOWN_CODINGS.clear();
    KNOWN_CODINGS.set(acceptEncoding, coding);
  }
  return coding;
}

function readCoding(acceptEncoding: string): Coding | null {
  let best: Coding | null = null;
  let bestQ = 0;
  let star: number | null = null;
  const seen = new Set<string>();
  for (const part of acceptEncoding.split(',')) {
    const [rawName, ...params] = part.trim().toLowerCase().split(';');
    const name = rawName!.trim();
    if (!name) continue;
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    if (!Number.isFinite(q)) continue;
    if (name === '*') {
      star = q;
      continue;
    }
    if (name !== 'br' && name !== 'gzip') continue;
    seen.add(name);
    if (q > bestQ || (q === bestQ && q > 0 && name === 'br')) {
      best = name;
      bestQ = q;
    }
  }
  // `*` stands for every coding not named.
  if (star !== null && star > bestQ) {
    if (!seen.has('br')) return 'br';
    if (!seen.has('gzip')) return 'gzip';
  }
  return bestQ > 0 ? best : null;
}

export function compress(body: Buffer, coding: Coding): Buffer {
  return coding === 'br' ? zlib.brotliCompressSync(body, BROTLI_OPTIONS) : zlib.gzipSync(body, GZIP_OPTIONS);
}

/** The ETag of a coded variant: its own validator (RFC 9110, 8.8.3), told apart by a suffix. */
export function codedEtag(etag: string, coding: Coding): string {
  return etag.endsWith('"') ? `${etag.slice(0, -1)}-${coding}"` : `${etag}-${coding}`;
}
