import type { FastifyRequest } from 'fastify';
import { isOwnBrowserTraffic } from './origin.ts';

// First-party calls (docs/access.md "First-party calls"): the service's own pages
// reading and saving the signed-in user's own settings (watchlist, notification
// preferences, notifications, deliveries) are not counted against the REST quota,
// so setting up alerts in the browser never ends in a 429.
//
// Only routes whose answer is the caller's own settings qualify (auth rule `user` or
// `session`, not marked `firstParty: false`), and only with a web session from the
// service's own origin. Public data routes are metered whoever calls, so a script
// that forges the browser headers with a session cookie gains unmetered access to
// nothing but its own settings, which it could not turn into vendor data.

export function isFirstPartyCall(request: FastifyRequest, webOrigins: readonly string[]): boolean {
  return request.viewer?.authKind === 'session' && isOwnBrowserTraffic(request, webOrigins);
}
