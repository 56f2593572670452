// Request URLs go into every request log line, and some URLs carry a credential:
// the personal feed URL is its own token (/api/v1/feeds/{token}.rss), so is a public
// board's (/b/{token}), and a caller
// may put an API key or token in the query string by mistake (it is not accepted
// there, but it would still be logged). Header credentials are redacted by the
// logger's `redact` paths; this does the same for the URL.

const REDACTED = '[redacted]';
/** Personal feed path: the file name is the token. */
const FEED_PATH = /(\/api\/v1\/feeds\/)[^/?#.]+/;
/** Public board path (/b/{token}, /b/{token}/stream): the token is the credential (docs/boards.md). */
const BOARD_PATH = /^(\/b\/)[^/?#]+/;
/** Query parameters whose names say they hold a credential. */
const SECRET_PARAM = /(?:key|token|secret|password|passwd|session|auth|code|signature|sig)$/i;
/** An API key wherever it appears (`vis_` + base62, see services/access/secrets.ts). */
const API_KEY = /vis_[0-9A-Za-z]{32,128}/g;

/** The URL with feed tokens, credential-named query values and API keys replaced. */
export function redactUrl(url: string): string {
  let out = url.replace(FEED_PATH, `$1${REDACTED}`).replace(BOARD_PATH, `$1${REDACTED}`);
  const q = out.indexOf('?');
  if (q >= 0) {
    const query = out
      .slice(q + 1)
      .split('&')
      .map((pair) => {
        const eq = pair.indexOf('=');
        if (eq < 0) return pair;
        let name = pair.slice(0, eq);
        try {
          name = decodeURIComponent(name.replace(/\+/g, ' '));
        } catch {
          /* keep the raw name */
        }
        return SECRET_PARAM.test(name.replace(/[^A-Za-z]/g, '')) ? `${pair.slice(0, eq)}=${REDACTED}` : pair;
      })
      .join('&');
    out = `${out.slice(0, q)}?${query}`;
  }
  return out.replace(API_KEY, `vis_${REDACTED}`);
}

/** pino serializer for `req` (Fastify's default fields, with the URL redacted). */
export function serializeRequest(req: {
  method?: string;
  url?: string;
  headers?: Record<string, string | string[] | undefined>;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}) {
  return {
    method: req.method,
    url: redactUrl(req.url ?? ''),
    version: req.headers?.['accept-version'] as string | undefined,
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  };
}
