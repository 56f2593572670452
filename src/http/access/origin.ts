import type { FastifyRequest } from 'fastify';

// Browser traffic of the service's own web app is recognised by its Origin:
// one of WEB_ORIGINS or the origin the request was addressed to (scheme + Host,
// X-Forwarded-* honoured only with TRUST_PROXY).

export const ownOrigin = (request: FastifyRequest) => `${request.protocol}://${request.host}`;

/** The request carries an Origin header naming an allowed origin. */
export function hasAllowedOrigin(request: FastifyRequest, webOrigins: readonly string[]): boolean {
  const origin = request.headers.origin;
  if (!origin || origin === 'null') return false;
  return webOrigins.includes(origin) || origin === ownOrigin(request);
}

/**
 * Browser traffic from our own web app. Browsers omit Origin on same-origin GETs,
 * so `Sec-Fetch-Site: same-origin` (set by the browser, not by scripts) counts too.
 */
export function isOwnBrowserTraffic(request: FastifyRequest, webOrigins: readonly string[]): boolean {
  if (hasAllowedOrigin(request, webOrigins)) return true;
  return request.headers.origin === undefined && request.headers['sec-fetch-site'] === 'same-origin';
}

export const isUnsafeMethod = (method: string) => method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS';
