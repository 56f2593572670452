import type { FastifyReply, FastifyRequest } from 'fastify';
import { DomainError, roleRequired } from '../../domain/errors.ts';
import { type OrgRole, roleAtLeast } from '../../domain/org-roles.ts';
import type { Authenticator } from '../../services/access/authenticator.ts';
import type { Viewer } from '../../services/context.ts';
import { identify } from './identify.ts';
import { hasAllowedOrigin, isOwnBrowserTraffic, isUnsafeMethod } from './origin.ts';

// The authentication step of a route's chain (docs/access.md "Authentication rules"),
// made once per route from what it declares:
//
//   public    key, session or anonymous; VENDOR_API_REQUIRE_API_KEY applies
//   user      key or session required (watchlist, preferences, account reads)
//   session   web session required (key management)
//   optional  key or session when presented, else anonymous; no direct-API check
//   none      no authentication (health, docs, MCP with its own OAuth): no step at all
//
// A presented key that is wrong is always 401, even when a session would do. Session
// requests that change state must carry an allowed Origin (CSRF). `role` names the least
// role in the caller's organisation the route needs (docs/teams.md, "Roles"): below it the
// answer is 403 `role_required`, before the handler.

export type AuthRule = 'public' | 'user' | 'session' | 'optional' | 'none';

export const USER_REQUIRED_MESSAGE = 'A valid API key or a logged-in web session is required';
const KEY_REQUIRED_MESSAGE = 'A valid API key is required: send it in the X-API-Key header or as Authorization: Bearer <key>';
const DIRECT_API_HINT =
  'Create an account (POST /api/v1/auth/signup), create an API key in the account area (POST /api/v1/account/keys), then send it in the X-API-Key header or as Authorization: Bearer <key>.';

export interface AuthenticateDeps {
  auth: Pick<Authenticator, 'verifyKey' | 'verifySession'>;
  webOrigins: readonly string[];
  requireApiKey: boolean;
}

export type OnRequestStep = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

export function authenticateStep(d: AuthenticateDeps, rule: AuthRule, needed: OrgRole | undefined): OnRequestStep | null {
  if (rule === 'none') return null;
  const checkRole = (v: Viewer) => {
    if (needed && !roleAtLeast(v.role, needed)) throw roleRequired(v.role, needed);
  };
  return async function authenticate(request) {
    const who = await identify(d.auth, request.headers);
    switch (who.kind) {
      case 'bad-key':
        throw new DomainError('unauthorized', KEY_REQUIRED_MESSAGE);
      case 'key': {
        if (rule === 'session') throw new DomainError('session_required', 'This endpoint needs a logged-in web session; API keys cannot manage keys');
        const id = who.key;
        request.viewer = { plan: id.plan, userId: id.userId, orgId: id.orgId, role: id.role, authKind: 'key', keyId: id.keyId, address: request.ip };
        return checkRole(request.viewer);
      }
      case 'session': {
        if (isUnsafeMethod(request.method) && !hasAllowedOrigin(request, d.webOrigins)) {
          throw new DomainError('origin_not_allowed', 'State-changing requests of a web session must come from an allowed Origin');
        }
        const s = who.session;
        request.session = s;
        request.viewer = { plan: s.plan, userId: s.userId, orgId: s.orgId, role: s.role, authKind: 'session', keyId: null, address: request.ip };
        return checkRole(request.viewer);
      }
      case 'anonymous':
        if (rule === 'user' || rule === 'session') throw new DomainError('unauthorized', USER_REQUIRED_MESSAGE);
        if (rule === 'public' && d.requireApiKey && !isOwnBrowserTraffic(request, d.webOrigins)) {
          throw new DomainError('direct_api_not_allowed', 'Direct API calls are not allowed without an API key', { hint: DIRECT_API_HINT });
        }
    }
  };
}
