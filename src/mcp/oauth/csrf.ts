import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sameSecret } from '../../services/oauth/secrets.ts';

// The forms of the authorization flow (log in, allow/deny) are protected twice:
// the Origin of the post must be ours (or an allowed web origin), and the form
// must carry the token of a cookie set with the page (double submit). The cookie
// is HttpOnly and scoped to /oauth, so nothing else can read or overwrite it
// from script. Browsers send the real Origin because the pages' referrer policy
// is same-origin; `Origin: null` (what a no-referrer page, a sandboxed frame or a
// data: URL sends) is refused even with a valid token (docs/security.md,
// "OAuth forms refused in Chromium").

const COOKIE = 'oauth_csrf';
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

function readCookie(req: FastifyRequest, name: string): string | undefined {
  const header = req.headers.cookie ?? '';
  for (const part of header.split(';')) {
    const i = part.indexOf('=');
    if (i > 0 && part.slice(0, i).trim() === name) return part.slice(i + 1).trim();
  }
  return undefined;
}

/** The token to embed in a form; sets the cookie when the browser has none yet. */
export function csrfToken(req: FastifyRequest, reply: FastifyReply, secure: boolean): string {
  const existing = readCookie(req, COOKIE);
  if (existing && TOKEN.test(existing)) return existing;
  const token = randomBytes(32).toString('base64url');
  reply.header('Set-Cookie', `${COOKIE}=${token}; Path=/oauth; HttpOnly; SameSite=Lax; Max-Age=3600${secure ? '; Secure' : ''}`);
  return token;
}

/** Why a form post is refused, or null when it passes both checks. */
export function formPostProblem(req: FastifyRequest, allowedOrigins: string[]): string | null {
  const origin = req.headers.origin;
  if (!origin || !allowedOrigins.includes(origin)) return 'This form must be submitted from this site.';
  const body = (req.body ?? {}) as Record<string, unknown>;
  const sent = typeof body.csrf_token === 'string' ? body.csrf_token : '';
  const expected = readCookie(req, COOKIE) ?? '';
  if (!sent || !expected || !sameSecret(sent, expected)) {
    return 'The form has expired or was not sent from this page. Start again from the application.';
  }
  return null;
}
