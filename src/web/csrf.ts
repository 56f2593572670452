import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { DomainError } from '../domain/errors.ts';
import { ACCOUNT_PREFIX, type CsrfCookie, csrfTokenMatches, ensureCsrfCookie, hasAllowedOrigin, isUnsafeMethod } from '../http/index.ts';

// CSRF protection, two independent checks on every state-changing request a
// browser makes with our web session:
// 1. Origin: the request's Origin must be this service's own origin or one of
//    WEB_ORIGINS (the authentication hook enforces it for session requests and
//    the auth routes check it on login/signup).
// 2. Token (double submit): a random value in an HttpOnly, SameSite=Strict
//    cookie that our pages echo in the `X-CSRF-Token` header (fetch) or the
//    `_csrf` form field. A foreign page can read neither the cookie nor our
//    pages, and cannot send the custom header cross-origin without CORS.
// Requests authenticated by API key carry no ambient credential and are exempt;
// login and signup are checked when they come from a browser (Origin present). Our
// forms that act without a session (the e-mail confirmation page: its token is the
// credential) are checked always, so another site cannot post them for a visitor.

const CSRF_COOKIE: CsrfCookie = { name: 'vis_csrf', attributes: 'Path=/; HttpOnly; SameSite=Strict' };
const CSRF_HEADER = 'x-csrf-token';
const CSRF_FIELD = '_csrf';
const BROWSER_AUTH_ROUTES = new Set([`${ACCOUNT_PREFIX}/auth/login`, `${ACCOUNT_PREFIX}/auth/signup`]);
const SESSIONLESS_FORMS = new Set(['/confirm-email', '/auth/sso']);

/** The request's token, issuing a new cookie when it has none (or a malformed one). */
export function ensureCsrfToken(request: FastifyRequest, reply: FastifyReply): string {
  return ensureCsrfCookie(request, reply, CSRF_COOKIE, request.protocol === 'https');
}

/** True when the request echoes the token of its cookie, in the header or else the form field. */
function tokenMatches(request: FastifyRequest): boolean {
  const header = request.headers[CSRF_HEADER];
  const body = request.body as Record<string, unknown> | null | undefined;
  const field = body && typeof body === 'object' ? body[CSRF_FIELD] : undefined;
  const sent = typeof header === 'string' ? header : typeof field === 'string' ? field : null;
  return csrfTokenMatches(request, CSRF_COOKIE.name, sent);
}

const CSRF_MESSAGE = 'The CSRF token is missing or does not match; reload the page and try again';

/**
 * Global guard. preValidation: after authentication (route onRequest hooks) and
 * body parsing, before schema validation strips or rejects the `_csrf` field.
 */
export const csrfPlugin = fp(
  async (app: FastifyInstance) => {
    const webOrigins = app.config.webOrigins;
    app.addHook('preValidation', async (request) => {
      if (!isUnsafeMethod(request.method)) return;
      const route = request.routeOptions.url ?? '';
      const authRoute = BROWSER_AUTH_ROUTES.has(route);
      const bySession = request.viewer?.authKind === 'session';
      if (!bySession && !SESSIONLESS_FORMS.has(route) && !(authRoute && request.headers.origin !== undefined)) return;
      if (!hasAllowedOrigin(request, webOrigins)) {
        throw new DomainError('origin_not_allowed', 'State-changing requests of a web session must come from an allowed Origin');
      }
      if (!tokenMatches(request)) throw new DomainError('csrf_token_invalid', CSRF_MESSAGE);
      // The form field belongs to the page, not to any API body.
      const body = request.body as Record<string, unknown> | null | undefined;
      if (body && typeof body === 'object' && CSRF_FIELD in body) delete body[CSRF_FIELD];
    });
    // Clients that log in without our pages (scripts) get their token with the session.
    app.addHook('onSend', async (request, reply) => {
      if (reply.statusCode < 300 && BROWSER_AUTH_ROUTES.has(request.routeOptions.url ?? '')) ensureCsrfToken(request, reply);
    });
  },
  { name: 'csrf' },
);
