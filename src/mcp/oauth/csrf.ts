import type { FastifyReply, FastifyRequest } from 'fastify';
import { type CsrfCookie, csrfTokenMatches, ensureCsrfCookie } from '../../http/index.ts';

// The forms of the authorization flow (log in, allow/deny) are protected twice:
// the Origin of the post must be ours (or an allowed web origin), and the form
// must carry the token of a cookie set with the page (double submit). The cookie
// is HttpOnly and scoped to /oauth, so nothing else can read or overwrite it
// from script. Browsers send the real Origin because the pages' referrer policy
// is same-origin; `Origin: null` (what a no-referrer page, a sandboxed frame or a
// data: URL sends) is refused even with a valid token (docs/security.md,
// "OAuth forms refused in Chromium").

const COOKIE: CsrfCookie = { name: 'oauth_csrf', attributes: 'Path=/oauth; HttpOnly; SameSite=Lax; Max-Age=3600' };

/** The token to embed in a form; sets the cookie when the browser has none yet. */
export function csrfToken(req: FastifyRequest, reply: FastifyReply, secure: boolean): string {
  return ensureCsrfCookie(req, reply, COOKIE, secure);
}

/** Why a form post is refused, or null when it passes both checks. */
export function formPostProblem(req: FastifyRequest, allowedOrigins: string[]): string | null {
  const origin = req.headers.origin;
  if (!origin || !allowedOrigins.includes(origin)) return 'This form must be submitted from this site.';
  const body = (req.body ?? {}) as Record<string, unknown>;
  if (!csrfTokenMatches(req, COOKIE.name, body.csrf_token)) {
    return 'The form has expired or was not sent from this page. Start again from the application.';
  }
  return null;
}
