import { BlockList, isIP } from 'node:net';

// Save-time policy for URLs we will later call (webhooks): https only, no
// credentials in the URL, and no private, loopback, link-local or otherwise
// non-public address literals, unless the host is in the OUTBOUND_ALLOW_PRIVATE
// allow-list (self-hosting, tests). Host names are not resolved here: the
// connect-time guard checks the addresses a name resolves to when delivering.

const PRIVATE = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  PRIVATE.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  // IPv4-compatible (deprecated) addresses, `::` and `::1` among them.
  ['::', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
  ['2001:db8::', 32],
] as const) {
  PRIVATE.addSubnet(net, prefix, 'ipv6');
}

/** `[::1]` -> `::1`; lower case. */
export function bareHost(hostname: string): string {
  return hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
}

/** IPv4 embedded in an IPv4-mapped IPv6 address (`::ffff:7f00:1` or `::ffff:127.0.0.1`). */
function mappedV4(ip: string): string | null {
  const m = /^::ffff:(?:(\d+\.\d+\.\d+\.\d+)|([0-9a-f]{1,4}):([0-9a-f]{1,4}))$/i.exec(ip);
  if (!m) return null;
  if (m[1]) return m[1];
  const hi = Number.parseInt(m[2]!, 16);
  const lo = Number.parseInt(m[3]!, 16);
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

/** The 16 bytes of an IPv6 literal. */
function v6Bytes(ip: string): number[] {
  const [head, tail = null] = ip.toLowerCase().split('::') as [string, string | null];
  const groups = (part: string) => (part ? part.split(':') : []);
  const expand = (gs: string[]) =>
    gs.flatMap((g) => {
      if (g.includes('.')) return g.split('.').map(Number);
      const n = Number.parseInt(g, 16);
      return [n >> 8, n & 255];
    });
  const h = expand(groups(head));
  const t = tail === null ? [] : expand(groups(tail));
  return [...h, ...new Array(16 - h.length - t.length).fill(0), ...t];
}

/**
 * IPv6 forms that carry an IPv4 address a gateway or the host may reach: NAT64
 * (64:ff9b::/96), 6to4 (2002::/16) and IPv4-translated (::ffff:0:a.b.c.d).
 */
function embeddedV4(ip: string): string | null {
  const mapped = mappedV4(ip);
  if (mapped) return mapped;
  const b = v6Bytes(ip);
  const word = (i: number) => (b[i]! << 8) | b[i + 1]!;
  const allZero = (from: number, to: number) => b.slice(from, to).every((x) => x === 0);
  const at = (i: number) => `${b[i]}.${b[i + 1]}.${b[i + 2]}.${b[i + 3]}`;
  if (word(0) === 0x64 && word(2) === 0xff9b && allZero(4, 12)) return at(12);
  if (word(0) === 0x2002) return at(2);
  if (allZero(0, 8) && word(8) === 0xffff && word(10) === 0) return at(12);
  return null;
}

/** True for address literals that are not on the public internet. */
export function isNonPublicAddress(ip: string): boolean {
  const v = isIP(ip);
  if (v === 4) return PRIVATE.check(ip, 'ipv4');
  if (v === 6) {
    const v4 = embeddedV4(ip);
    return v4 ? PRIVATE.check(v4, 'ipv4') : PRIVATE.check(ip, 'ipv6');
  }
  return false;
}

/**
 * Names that always mean "this machine or its local network": localhost and the
 * reserved local suffixes (also with the trailing dot of a fully qualified name),
 * and single-label names, which only /etc/hosts or a local search domain can
 * resolve (`vm`, `metadata`, `kubernetes`), never public DNS.
 */
function isLocalName(host: string): boolean {
  const name = host.endsWith('.') ? host.slice(0, -1) : host;
  if (isIP(name)) return false;
  return !name.includes('.') || name.endsWith('.localhost') || name.endsWith('.local') || name.endsWith('.internal');
}

/**
 * Whether a host is in the allow-list: entries are host names (exact, case-insensitive),
 * address literals, or CIDR ranges (`10.0.0.0/8`, `fd00::/8`).
 */
export function isAllowListed(hostname: string, allowList: readonly string[]): boolean {
  const host = bareHost(hostname);
  const ipVersion = isIP(host);
  for (const raw of allowList) {
    const entry = bareHost(raw.trim());
    if (!entry) continue;
    const slash = entry.indexOf('/');
    if (slash > 0 && ipVersion) {
      const net = entry.slice(0, slash);
      const prefix = Number(entry.slice(slash + 1));
      const netVersion = isIP(net);
      if (!netVersion || !Number.isInteger(prefix)) continue;
      const list = new BlockList();
      try {
        list.addSubnet(net, prefix, netVersion === 4 ? 'ipv4' : 'ipv6');
      } catch {
        continue;
      }
      const candidate = ipVersion === 6 && netVersion === 4 ? mappedV4(host) : host;
      if (candidate && list.check(candidate, netVersion === 4 ? 'ipv4' : 'ipv6')) return true;
    } else if (entry === host) {
      return true;
    }
  }
  return false;
}

export const MAX_URL_LENGTH = 2048;

/** Why a webhook URL is refused, or null when it may be saved. */
export function webhookUrlProblem(value: string, allowList: readonly string[]): string | null {
  if (value.length > MAX_URL_LENGTH) return `must be at most ${MAX_URL_LENGTH} characters`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'is not a valid absolute URL';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'must use https';
  if (url.username || url.password) return 'must not contain credentials';
  if (!url.hostname) return 'must name a host';
  const host = bareHost(url.hostname);
  const allowed = isAllowListed(host, allowList);
  if (url.protocol === 'http:' && !allowed) {
    return 'must use https (http is accepted only for hosts in OUTBOUND_ALLOW_PRIVATE)';
  }
  if (!allowed && (isNonPublicAddress(host) || isLocalName(host))) {
    return `must not point to a private, loopback or link-local host ('${host}')`;
  }
  return null;
}
