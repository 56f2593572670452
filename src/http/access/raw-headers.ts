// The few headers the cache-hit path reads, taken from the request's raw header lines in
// one pass. Reading `req.headers` makes Node build an object of every header of every
// request; the hot path needs a few (docs/access.md "Hot path for cache hits"). Anything
// unusual returns null and the request goes through Fastify, which reads `req.headers`
// with Node's own rules: a repeated Host (request-hygiene.ts refuses it), or any of those
// names twice (Node joins some repeats and drops others).

/** Lower-case names the hot path reads, by their length first (most lines are other headers). */
const HOT_HEADER_NAMES = ['host', 'cookie', 'origin', 'x-api-key', 'authorization', 'if-none-match', 'accept-encoding', 'x-request-id'] as const;
const WANTED = new Set<string>(HOT_HEADER_NAMES);
const LENGTHS = new Set(HOT_HEADER_NAMES.map((n) => n.length));

type HotHeaderName = (typeof HOT_HEADER_NAMES)[number];

/** Each at most once, so each a single string. */
export type HotHeaders = { [K in HotHeaderName]?: string };

export function hotHeaders(raw: readonly string[]): HotHeaders | null {
  const out: Record<string, string> = {};
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    if (!LENGTHS.has(name.length)) continue;
    const lower = name.toLowerCase();
    if (!WANTED.has(lower)) continue;
    if (out[lower] !== undefined) return null;
    out[lower] = raw[i + 1]!;
  }
  return out as HotHeaders;
}
