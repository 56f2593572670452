import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { cookieValue } from './cookies.ts';

// Double-submit CSRF tokens, the one implementation behind the web pages' `vis_csrf`
// (docs/web.md, "CSRF") and the OAuth forms' `oauth_csrf` (docs/mcp.md, "Rules and decisions"): 256 random bits
// in an HttpOnly cookie that the page echoes in a header or form field. A foreign page
// can read neither the cookie nor our pages. Each caller adds its own Origin rule.

const TOKEN = /^[A-Za-z0-9_-]{43}$/;

export interface CsrfCookie {
  name: string;
  /** Set-Cookie attributes after the value (`Secure` is added over TLS). */
  attributes: string;
}

/** The request's token, issuing a new cookie when it has none (or a malformed one). */
export function ensureCsrfCookie(request: FastifyRequest, reply: FastifyReply, cookie: CsrfCookie, secure: boolean): string {
  const existing = cookieValue(request.headers, cookie.name);
  if (existing && TOKEN.test(existing)) return existing;
  const token = randomBytes(32).toString('base64url');
  reply.header('set-cookie', `${cookie.name}=${token}; ${cookie.attributes}${secure ? '; Secure' : ''}`);
  return token;
}

/** True when `sent` is the token of the request's cookie (constant-time compare). */
export function csrfTokenMatches(request: FastifyRequest, cookieName: string, sent: unknown): boolean {
  const cookie = cookieValue(request.headers, cookieName);
  if (typeof sent !== 'string' || !sent || !cookie || !TOKEN.test(cookie)) return false;
  const a = Buffer.from(sent);
  const b = Buffer.from(cookie);
  return a.length === b.length && timingSafeEqual(a, b);
}
