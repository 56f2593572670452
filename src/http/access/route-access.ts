import type { FastifyRequest, RouteOptions } from 'fastify';
import { API_PREFIX } from '../paths.ts';
import type { OrgRole } from '../../domain/org-roles.ts';
import { type AuthRule, authRuleOf } from '../plugins/viewer.ts';

// What the rate-limit and response-cache plugins attach to a route, decided in one
// place (docs/access.md): metered = under the data API unless `config.rateLimit: false`;
// cached = a GET with `config.cacheTtlSeconds` that is not per-user, or a route that
// names its own key from the validated request (`config.cacheKeyOf`, the dashboard
// bundle: docs/per-user.md "Dashboard bundle"), per-user or not.

export interface RouteAccess {
  auth: AuthRule;
  /** The least role in the caller's organisation (docs/teams.md "Roles"). */
  role: OrgRole | undefined;
  metered: boolean;
  /** Response-cache TTL in seconds; null when the route is not cached. */
  cacheTtlSeconds: number | null;
  perUser: boolean;
  /** A per-user route whose calls from our own pages are not counted (first-party.ts). */
  firstParty: boolean;
  /** Served to every caller as anonymous (no authentication): the server hot path leaves it alone. */
  anonymousOnly: boolean;
  /**
   * The cache key's request part, from the validated request (body included); null: the
   * URL's (cache-key.ts). Such a route is found by its key only, never by its URL.
   */
  cacheKeyOf: ((request: FastifyRequest) => string) | null;
}

export function routeAccess(route: RouteOptions): RouteAccess {
  const rule = authRuleOf(route);
  const config = (route.config ?? {}) as {
    rateLimit?: boolean;
    cacheTtlSeconds?: number;
    firstParty?: boolean;
    cacheKeyOf?: (request: FastifyRequest) => string;
  };
  const perUser = rule === 'user' || rule === 'session';
  const method = Array.isArray(route.method) ? route.method : [route.method];
  // A keyed route is metered as its own (first-party calls are not exempt: `firstParty: false`).
  const keyed = typeof config.cacheKeyOf === 'function' && (!perUser || config.firstParty === false) ? config.cacheKeyOf : null;
  const cached = !!config.cacheTtlSeconds && method.length === 1 && (keyed !== null || (!perUser && method[0] === 'GET'));
  return {
    auth: rule,
    role: (route.config as { role?: OrgRole } | undefined)?.role,
    metered: config.rateLimit ?? route.url.startsWith(API_PREFIX),
    cacheTtlSeconds: cached ? config.cacheTtlSeconds! : null,
    perUser,
    firstParty: perUser && config.firstParty !== false,
    anonymousOnly: rule === 'none',
    cacheKeyOf: cached ? keyed : null,
  };
}

export const hooksOf = <T>(h: T | T[] | undefined): T[] => (h ? (Array.isArray(h) ? h : [h]) : []);
