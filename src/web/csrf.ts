import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

// CSRF protection for the web application, two independent checks on every
// state-changing request a browser makes:
// 1. Origin: the request's Origin header must be this service's own origin or
//    one listed in WEB_ORIGINS (browsers always send it on POST/PUT/DELETE).
// 2. Token (double submit): a random value in an HttpOnly, SameSite=Strict
//    cookie, echoed by our pages in the `X-CSRF-Token` header (fetch) or the
//    `_csrf` form field. A foreign site can neither read the cookie nor the page.

export const CSRF_COOKIE = 'vis_csrf';
export const CSRF_HEADER = 'x-csrf-token';
export const CSRF_FIELD = '_csrf';
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

export function readCookie(request: FastifyRequest, name: string): string | null {
  const header = request.headers.cookie;
  if (!header) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) {
      try {
        return decodeURIComponent(part.slice(eq + 1).trim());
      } catch {
        return null;
      }
    }
  }
  return null;
}

const isHttps = (request: FastifyRequest) => request.protocol === 'https';

/** The request's token, issuing a new cookie when it has none (or a malformed one). */
export function ensureCsrfToken(request: FastifyRequest, reply: FastifyReply): string {
  const existing = readCookie(request, CSRF_COOKIE);
  if (existing && TOKEN.test(existing)) return existing;
  const token = randomBytes(32).toString('base64url');
  reply.header(
    'set-cookie',
    `${CSRF_COOKIE}=${token}; Path=/; HttpOnly; SameSite=Strict${isHttps(request) ? '; Secure' : ''}`,
  );
  return token;
}

/** This service's own origin as the browser sees it (Host header + protocol). */
export function ownOrigin(request: FastifyRequest): string | null {
  const host = request.headers.host;
  if (!host || !/^[A-Za-z0-9.:[\]-]+$/.test(host)) return null;
  return `${isHttps(request) ? 'https' : 'http'}://${host}`.toLowerCase();
}

export function originAllowed(request: FastifyRequest, webOrigins: string[]): boolean {
  const origin = request.headers.origin;
  if (typeof origin !== 'string' || origin === 'null') return false;
  const o = origin.toLowerCase();
  return o === ownOrigin(request) || webOrigins.includes(o);
}

export type CsrfFailure = 'origin' | 'token';

/** null when the request passes both checks. */
export function checkCsrf(request: FastifyRequest, webOrigins: string[]): CsrfFailure | null {
  if (!originAllowed(request, webOrigins)) return 'origin';
  const cookie = readCookie(request, CSRF_COOKIE);
  const header = request.headers[CSRF_HEADER];
  const body = request.body as Record<string, unknown> | undefined;
  const sent = typeof header === 'string' ? header : typeof body?.[CSRF_FIELD] === 'string' ? (body[CSRF_FIELD] as string) : null;
  if (!cookie || !sent || !TOKEN.test(cookie) || sent.length !== cookie.length) return 'token';
  return timingSafeEqual(Buffer.from(sent), Buffer.from(cookie)) ? null : 'token';
}

export const CSRF_MESSAGES: Record<CsrfFailure, string> = {
  origin: 'This request did not come from this site (Origin check failed).',
  token: 'The form has expired or was not sent by this site. Reload the page and try again.',
};
