import type { TrustProxy } from '../infra/config.ts';

// TRUST_PROXY as Fastify's `trustProxy` option (docs/security.md, "Client address
// behind proxies"). A hop count becomes a function trusting the socket peer and the
// next n - 1 addresses of X-Forwarded-For from the right: the client is the address
// the outermost of our proxies saw, whatever a client wrote further left. A list is
// handed over as it is (proxy-addr matches addresses and CIDRs).

export type FastifyTrustProxy = false | string[] | ((address: string, hop: number) => boolean);

export function fastifyTrustProxy(t: TrustProxy): FastifyTrustProxy {
  if (typeof t !== 'number') return t;
  return (_address, hop) => hop < t;
}
