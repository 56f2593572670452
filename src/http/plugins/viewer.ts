import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { DomainError, roleRequired } from '../../domain/errors.ts';
import { type OrgRole, roleAtLeast } from '../../domain/org-roles.ts';
import type { SessionIdentity } from '../../services/access/authenticator.ts';
import { anonymousViewer, type OrgViewer, type UserViewer, type Viewer } from '../../services/context.ts';
import { presentedKey, sessionToken } from '../access/credentials.ts';
import { hasAllowedOrigin, isOwnBrowserTraffic, isUnsafeMethod } from '../access/origin.ts';
import { API_PREFIX } from '../paths.ts';

// Authentication (docs/access.md). Each route declares who may call it with
// `config.auth`; routes under the data API default to 'public', everything else
// to 'none'. The hook is attached per route, so unauthenticated routes pay nothing.
//
//   public    key, session or anonymous; VENDOR_API_REQUIRE_API_KEY applies
//   user      key or session required (watchlist, preferences, account reads)
//   session   web session required (key management)
//   optional  key or session when presented, else anonymous; no direct-API check
//   none      no authentication (health, docs, MCP with its own OAuth)
//
// A presented key that is wrong is always 401, even when a session would do.
// Session requests that change state must carry an allowed Origin (CSRF).
//
// `config.role` names the least role in the caller's organisation the route needs
// (docs/teams.md, "Roles"); below it the answer is 403 `role_required`, before the handler.

export type AuthRule = 'public' | 'user' | 'session' | 'optional' | 'none';

declare module 'fastify' {
  interface FastifyRequest {
    /** Who is calling; set by the authentication hook (anonymous on 'none' routes). */
    viewer: Viewer;
    /** The web session behind the request, when it was authenticated by cookie. */
    session: SessionIdentity | null;
  }
  interface FastifyContextConfig {
    /** Who may call the route; default 'public' under the data API, 'none' elsewhere. */
    auth?: AuthRule;
    /** The least role in the caller's organisation the route needs (implies auth 'user' or 'session'). */
    role?: OrgRole;
  }
}

const KEY_REQUIRED_MESSAGE =
  'A valid API key is required: send it in the X-API-Key header or as Authorization: Bearer <key>';
const USER_REQUIRED_MESSAGE = 'A valid API key or a logged-in web session is required';
const DIRECT_API_HINT =
  'Create an account (POST /api/v1/auth/signup), create an API key in the account area (POST /api/v1/account/keys), then send it in the X-API-Key header or as Authorization: Bearer <key>.';

export function authRuleOf(route: Pick<RouteOptions, 'url' | 'config'>): AuthRule {
  const config = route.config as { auth?: AuthRule; role?: OrgRole } | undefined;
  if (config?.auth) return config.auth;
  if (config?.role) return 'user';
  return route.url.startsWith(API_PREFIX) ? 'public' : 'none';
}

/** For handlers: the caller acting for an organisation, or 401. Use on routes with `config.auth` 'user' or 'session'. */
export function requireOrg(request: FastifyRequest): OrgViewer {
  const v = request.viewer;
  if (!v?.orgId) throw new DomainError('unauthorized', USER_REQUIRED_MESSAGE);
  return v as OrgViewer;
}

/** For handlers: a person acting for an organisation; an organisation key is refused (it is no one). */
export function requireUser(request: FastifyRequest): UserViewer {
  const v = requireOrg(request);
  if (!v.userId) {
    throw new DomainError('session_required', 'This needs a person: a web session or a member API key, not an organisation key');
  }
  return v as UserViewer;
}

const marker = Symbol('vis-auth');

export const viewerPlugin = fp(
  async (app: FastifyInstance) => {
    const { webOrigins, requireApiKey } = app.config;
    const auth = app.services.auth;
    app.decorateRequest('viewer', null as unknown as Viewer);
    app.decorateRequest('session', null);

    // Every request has a viewer, whatever route (or 404) it reaches. Anonymous callers are
    // served on ANONYMOUS_PLAN (docs/teams.md, "Operator").
    const anonymous: Viewer = { ...anonymousViewer, plan: app.config.anonymousPlan };
    app.addHook('onRequest', (request, _reply, done) => {
      request.viewer = anonymous;
      done();
    });

    function authenticateWith(rule: AuthRule, needed: OrgRole | undefined) {
      const checkRole = (v: Viewer) => {
        if (needed && !roleAtLeast(v.role, needed)) throw roleRequired(v.role, needed);
      };
      return async function authenticate(request: FastifyRequest, _reply: FastifyReply) {
        const key = presentedKey(request.headers);
        if (key !== undefined) {
          const id = key ? await auth.verifyKey(key) : null;
          if (!id) throw new DomainError('unauthorized', KEY_REQUIRED_MESSAGE);
          if (rule === 'session') {
            throw new DomainError('session_required', 'This endpoint needs a logged-in web session; API keys cannot manage keys');
          }
          request.viewer = { plan: id.plan, userId: id.userId, orgId: id.orgId, role: id.role, authKind: 'key', keyId: id.keyId, address: request.ip };
          checkRole(request.viewer);
          return;
        }
        const token = sessionToken(request.headers);
        const session = token ? await auth.verifySession(token) : null;
        if (session) {
          if (isUnsafeMethod(request.method) && !hasAllowedOrigin(request, webOrigins)) {
            throw new DomainError('origin_not_allowed', 'State-changing requests of a web session must come from an allowed Origin');
          }
          request.session = session;
          request.viewer = {
            plan: session.plan,
            userId: session.userId,
            orgId: session.orgId,
            role: session.role,
            authKind: 'session',
            keyId: null,
            address: request.ip,
          };
          checkRole(request.viewer);
          return;
        }
        if (rule === 'user' || rule === 'session') throw new DomainError('unauthorized', USER_REQUIRED_MESSAGE);
        if (rule === 'public' && requireApiKey && !isOwnBrowserTraffic(request, webOrigins)) {
          throw new DomainError('direct_api_not_allowed', 'Direct API calls are not allowed without an API key', {
            hint: DIRECT_API_HINT,
          });
        }
      };
    }

    app.addHook('onRoute', (route) => {
      const rule = authRuleOf(route);
      if (rule === 'none') return;
      const existing = route.onRequest ? (Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest]) : [];
      if (existing.some((h) => (h as { [marker]?: boolean })[marker])) return;
      const needed = (route.config as { role?: OrgRole } | undefined)?.role;
      const hook = Object.assign(authenticateWith(rule, needed), { [marker]: true });
      route.onRequest = [hook, ...existing];
    });
  },
  { name: 'viewer' },
);
