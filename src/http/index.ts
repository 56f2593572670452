// What the HTTP adapter shares with the other adapters mounted on the same server (MCP,
// web pages): request ids, proxy trust, hygiene, errors, metrics, rate-limit headers,
// origins, credentials, paths. Other folders import these from here, never from the
// files behind them (docs/architecture.md, "Layers and what each folder may import").
export { hasAllowedOrigin, isUnsafeMethod } from './access/origin.ts';
export { SESSION_COOKIE, sessionToken } from './access/credentials.ts';
export { cookieValue } from './cookies.ts';
export { csrfTokenMatches, ensureCsrfCookie, type CsrfCookie } from './csrf-token.ts';
export { rateLimitError, refusalKind, setRateLimitHeaders } from './access/rate-limit-headers.ts';
export { ACCOUNT_PREFIX, API_PREFIX } from './paths.ts';
export { SLUG_PATTERN } from './schemas/common.ts';
export { errorsPlugin } from './plugins/errors.ts';
export { httpMetricsPlugin } from './plugins/metrics.ts';
export { API_VERSION } from './plugins/openapi.ts';
export { requestHygienePlugin } from './request-hygiene.ts';
export { requestIdFor } from './request-id.ts';
export { fastifyTrustProxy } from './trust-proxy.ts';
export { clientKey } from './client-key.ts';
