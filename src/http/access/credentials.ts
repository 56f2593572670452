import type { FastifyRequest } from 'fastify';
import { cookieValue } from '../cookies.ts';

export const SESSION_COOKIE = 'vis_session';

/**
 * The API key a request presents: undefined when it presents none, '' when a
 * credential header is there but unusable (empty, repeated, not Bearer).
 */
export function presentedKey(headers: FastifyRequest['headers']): string | undefined {
  const x = headers['x-api-key'];
  if (x !== undefined) return typeof x === 'string' ? x.trim() : '';
  const a = headers.authorization;
  if (a === undefined) return undefined;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(a);
  return m ? m[1] : '';
}

/** The session cookie value, read without parsing every cookie of every request. */
export function sessionToken(headers: FastifyRequest['headers']): string | undefined {
  return cookieValue(headers, SESSION_COOKIE);
}
