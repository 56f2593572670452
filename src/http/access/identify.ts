import type { IncomingHttpHeaders } from 'node:http';
import type { Authenticator, KeyIdentity, SessionIdentity } from '../../services/access/authenticator.ts';
import { presentedKey, sessionToken } from './credentials.ts';
import { andThen, type MaybePromise } from '../../domain/maybe-promise.ts';

// The one authentication path (docs/access.md "Authentication rules"): which credential a
// request presents and whose it is. The Fastify chain (authenticate.ts) and the server's
// cache-hit path (hot-path.ts) both start here, so they can never disagree on who calls.
// A presented key wins over a cookie; a key that is presented but unusable is `bad-key`
// (401 on every route with a rule), never a fall-back to the session.

export type Identified = { kind: 'key'; key: KeyIdentity } | { kind: 'bad-key' } | { kind: 'session'; session: SessionIdentity } | { kind: 'anonymous' };

const BAD_KEY: Identified = { kind: 'bad-key' };
const ANONYMOUS: Identified = { kind: 'anonymous' };

const asKey = (key: KeyIdentity | null): Identified => (key ? { kind: 'key', key } : BAD_KEY);
const asSession = (session: SessionIdentity | null): Identified => (session ? { kind: 'session', session } : ANONYMOUS);

/** Without a promise when the credential's answer is remembered (the authenticator's cache). */
export function identify(auth: Pick<Authenticator, 'verifyKey' | 'verifySession'>, headers: IncomingHttpHeaders): MaybePromise<Identified> {
  const secret = presentedKey(headers);
  if (secret !== undefined) return secret ? andThen(auth.verifyKey(secret), asKey) : BAD_KEY;
  const token = sessionToken(headers);
  return token ? andThen(auth.verifySession(token), asSession) : ANONYMOUS;
}
