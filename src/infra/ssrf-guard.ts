import dns from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { Agent, buildConnector } from 'undici';
import { bareHost, isAllowListed, isNonPublicAddress } from '../domain/outbound-url.ts';

// Connect-time SSRF guard for user-supplied URLs (webhooks). The save-time check
// (domain/outbound-url.ts) cannot see what a name resolves to when we connect:
// DNS can change after saving, or answer differently per query (rebinding). So
// every connection of the delivery agent resolves the name itself and refuses
// when any address is loopback, private, link-local (cloud metadata
// 169.254.169.254, fd00:ec2::254), CGNAT, multicast or otherwise not public —
// unless the host or the address is in OUTBOUND_ALLOW_PRIVATE. Address literals
// never reach a lookup, so the agent's connector checks them itself before
// connecting (and the webhook channel before building the request). Redirects are
// never followed (undici's request() does not), so a public URL cannot bounce
// the request to a private one; were a redirect followed, its new connection
// would still pass through the same connector.

// The message reaches the user (a test send, a delivery's last error): it never names
// the address a name resolved to, which would map the inside of our network for them.
export class BlockedDestinationError extends Error {
  readonly code = 'ERR_BLOCKED_DESTINATION';
  constructor() {
    super('destination refused (not a public address)');
    this.name = 'BlockedDestinationError';
  }
}

type LookupAll = (hostname: string, cb: (err: Error | null, addresses: dns.LookupAddress[]) => void) => void;

const systemLookupAll: LookupAll = (hostname, cb) => dns.lookup(hostname, { all: true, verbatim: true }, cb);

/** Why a destination address is refused, or null. */
function refusedAddress(host: string, address: string, allowList: readonly string[]): boolean {
  if (!isNonPublicAddress(address)) return false;
  return !(isAllowListed(host, allowList) || isAllowListed(address, allowList));
}

/**
 * Names under `.invalid` never exist (RFC 6761, section 6.4: resolver libraries should answer
 * them negatively at once). They are answered here instead of asking the system resolver,
 * whose answer can take its full retry timeout when a query is lost (docs/security.md, "Controls and their tests", SSRF).
 */
const isInvalidName = (hostname: string) => /(^|\.)invalid\.?$/i.test(hostname);

const notFound = (hostname: string) =>
  Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', errno: -3008, syscall: 'getaddrinfo', hostname });

/** A `lookup` for net/tls.connect that resolves, then refuses non-public answers. */
export function guardedLookup(allowList: readonly string[], resolveAll: LookupAll = systemLookupAll): LookupFunction {
  return ((hostname: string, options: dns.LookupOptions, callback: (...args: unknown[]) => void) => {
    if (isInvalidName(hostname)) {
      process.nextTick(callback, notFound(hostname));
      return;
    }
    resolveAll(hostname, (err, addresses) => {
      if (err) return callback(err);
      const family = typeof options?.family === 'number' ? options.family : 0;
      const usable = family ? addresses.filter((a) => a.family === family) : addresses;
      if (!usable.length) return callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }));
      // Any refused answer refuses the name: connecting would pick among them.
      const bad = usable.find((a) => refusedAddress(hostname, a.address, allowList));
      if (bad) return callback(new BlockedDestinationError());
      if (options?.all) return callback(null, usable);
      return callback(null, usable[0]!.address, usable[0]!.family);
    });
  }) as LookupFunction;
}

/** Checks a URL before connecting: literal addresses do not go through a lookup. */
export function assertAllowedUrl(url: URL, allowList: readonly string[]): void {
  const host = bareHost(url.hostname);
  if (isIP(host) && refusedAddress(host, host, allowList)) throw new BlockedDestinationError();
}

export interface GuardedAgentOptions {
  allowList: readonly string[];
  timeoutMs: number;
  /** Connections per origin (receivers); many users may share one receiver. */
  connections?: number;
  /** Injected resolver (tests: a name that resolves to a private address). */
  resolveAll?: LookupAll;
}

/** The undici dispatcher every user-supplied URL is called through. */
export function guardedAgent(o: GuardedAgentOptions): Agent {
  const connector = buildConnector({ lookup: guardedLookup(o.allowList, o.resolveAll), timeout: o.timeoutMs });
  const connect: buildConnector.connector = (opts, callback) => {
    const host = bareHost(opts.hostname);
    if (isIP(host) && refusedAddress(host, host, o.allowList)) return callback(new BlockedDestinationError(), null);
    return connector(opts, callback);
  };
  return new Agent({
    connect,
    connections: o.connections ?? 64,
    headersTimeout: o.timeoutMs,
    bodyTimeout: o.timeoutMs,
    keepAliveTimeout: 10_000,
  });
}
