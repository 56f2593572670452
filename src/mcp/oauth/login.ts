import type { FastifyInstance, FastifyRequest } from 'fastify';
import { DomainError } from '../../domain/errors.ts';
import { clientKey, SESSION_COOKIE, sessionToken } from '../../http/index.ts';
import type { Access, Services } from '../../services/index.ts';
import type { Origins } from '../origins.ts';
import { AUTHORIZE_PATH, type LoggedInUser, type WebLogin } from './authorize.ts';
import { csrfToken, formPostProblem } from './csrf.ts';
import type { OAuthPages } from './pages.ts';

// The consent page needs the user's web session (the account login of the
// access area: same service, same throttling, same session cookie). A user who
// arrives from an MCP client without one logs in here first and comes back to
// the authorization request; nothing else is reachable through `return_to`.

const LOGIN_PATH = '/oauth/login';

const safeReturn = (v: unknown): string | null =>
  typeof v === 'string' && v.startsWith(`${AUTHORIZE_PATH}?`) && v.length <= 8192 && !/[\r\n]/.test(v) ? v : null;

export function webLogin(auth: Access['auth'], services: Pick<Services, 'accounts'>, allowedOrigins: string[]): WebLogin {
  return {
    allowedOrigins,
    async user(req: FastifyRequest): Promise<LoggedInUser | null> {
      const token = sessionToken(req.headers);
      const session = token ? await auth.verifySession(token) : null;
      if (!session) return null;
      const user = await services.accounts.findById(session.userId);
      return user ? { id: user.id, email: user.email, plan: session.plan, orgId: session.orgId } : null;
    },
    loginUrl: (returnTo) => `${LOGIN_PATH}?${new URLSearchParams({ return_to: returnTo })}`,
  };
}

export async function loginRoutes(
  app: FastifyInstance,
  deps: { services: Services; origins: Origins; allowedOrigins: string[]; login: WebLogin; pages: OAuthPages },
) {
  const { services, origins, pages } = deps;
  const secure = (req: FastifyRequest) => origins.requestOrigin(req).startsWith('https:');

  app.get<{ Querystring: { return_to?: string } }>(LOGIN_PATH, { schema: { hide: true } }, async (req, reply) => {
    const returnTo = safeReturn(req.query.return_to);
    if (!returnTo) return pages.error(req, reply, 400, 'Nothing to continue to: start again from the application.');
    // Already logged in (another tab, or the web app): straight on to the consent page.
    if (await deps.login.user(req)) return reply.header('Cache-Control', 'no-store').redirect(returnTo, 303);
    return pages.login(req, reply, 200, { action: LOGIN_PATH, returnTo, csrfToken: csrfToken(req, reply, secure(req)) });
  });

  app.post(LOGIN_PATH, { schema: { hide: true }, bodyLimit: 16_384 }, async (req, reply) => {
    const problem = formPostProblem(req, [origins.requestOrigin(req), origins.issuer(req), ...deps.allowedOrigins]);
    if (problem) return pages.error(req, reply, 403, problem);
    const body = (req.body ?? {}) as Record<string, unknown>;
    const returnTo = safeReturn(body.return_to);
    if (!returnTo) return pages.error(req, reply, 400, 'Nothing to continue to: start again from the application.');
    const email = typeof body.email === 'string' ? body.email : '';
    const password = typeof body.password === 'string' ? body.password : '';
    const again = (status: number, error: string) =>
      pages.login(req, reply, status, { action: LOGIN_PATH, returnTo, csrfToken: csrfToken(req, reply, secure(req)), email, error });
    try {
      const { session } = await services.accounts.login({ email, password, ip: clientKey(req) });
      reply.setCookie(SESSION_COOKIE, session.token, {
        httpOnly: true,
        sameSite: 'lax',
        secure: secure(req),
        path: '/',
        expires: session.expiresAt,
      });
      return reply.header('Cache-Control', 'no-store').redirect(returnTo, 303);
    } catch (err) {
      if (err instanceof DomainError) {
        if (err.code === 'rate_limit_exceeded') {
          const after = typeof err.details.retryAfter === 'number' ? err.details.retryAfter : 60;
          reply.header('Retry-After', String(after));
          return again(429, `Too many attempts. Try again in ${Math.ceil(after / 60)} minute(s).`);
        }
        if (err.code === 'invalid_parameter') return again(400, 'Enter a valid email address and password.');
        if (err.code === 'sso_required') return again(403, `${err.message} on this site's log-in page, then come back here.`);
        return again(401, 'Wrong email or password.');
      }
      throw err;
    }
  });
}
