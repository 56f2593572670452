import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { DomainError } from '../../domain/errors.ts';
import type { OrgRole } from '../../domain/org-roles.ts';
import type { SessionIdentity } from '../../services/access/authenticator.ts';
import { anonymousViewer, type OrgViewer, type UserViewer, type Viewer } from '../../services/context.ts';
import { type AuthRule, USER_REQUIRED_MESSAGE } from '../access/authenticate.ts';
import { API_PREFIX } from '../paths.ts';

// Who is calling (docs/access.md): every request starts anonymous (on ANONYMOUS_PLAN,
// docs/teams.md "Operator"); the authentication step of its route's chain
// (src/http/access/authenticate.ts, put in place by src/http/access/pipeline.ts) says who
// it is. Each route declares who may call it with `config.auth` (default 'public' under
// the data API, 'none' elsewhere) and the least role it needs with `config.role`.

export type { AuthRule };

declare module 'fastify' {
  interface FastifyRequest {
    /** Who is calling; set by the authentication step (anonymous on 'none' routes). */
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

export const viewerPlugin = fp(
  async (app: FastifyInstance) => {
    app.decorateRequest('viewer', null as unknown as Viewer);
    app.decorateRequest('session', null);
    // Every request has a viewer, whatever route (or 404) it reaches.
    const anonymous: Viewer = { ...anonymousViewer, plan: app.config.anonymousPlan };
    app.addHook('onRequest', (request, _reply, done) => {
      request.viewer = anonymous;
      done();
    });
  },
  { name: 'viewer' },
);
