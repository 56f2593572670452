import { isIP } from 'node:net';

// Who an anonymous request is counted as (docs/security.md, "IPv6 clients"): an IPv4
// address stands for itself, an IPv6 address for its network of `v6Prefix` bits. One
// subscriber usually holds a whole /64 (often a /56 or /48), so counting each IPv6
// address apart gave anyone 2^64 fresh quotas. An IPv4 address written as IPv6
// (`::ffff:192.0.2.1`, as dual-stack sockets report it) is the IPv4 address.

const MAPPED_V4 = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i;

/** The eight 16-bit groups of a valid IPv6 address (no zone). */
function groupsOf(ip: string): number[] {
  let text = ip;
  const dotted = /(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, null];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const fill = tail === null ? [] : Array(8 - left.length - right.length).fill('0');
  return [...left, ...fill, ...right].map((g) => parseInt(g, 16));
}

/** The key a client address is counted under: the IPv4 address, or the IPv6 network of `v6Prefix` bits (`2001:db8:1:2::/64`). */
export function clientGroup(ip: string, v6Prefix: number): string {
  const bare = ip.replace(/%.*$/, '');
  const mapped = MAPPED_V4.exec(bare);
  if (mapped && isIP(mapped[1]!) === 4) return mapped[1]!;
  if (isIP(bare) !== 6 || v6Prefix >= 128) return bare.toLowerCase();
  const groups = groupsOf(bare).map((g, i) => {
    const bits = Math.min(16, Math.max(0, v6Prefix - i * 16));
    return bits === 0 ? 0 : g & (0xffff << (16 - bits)) & 0xffff;
  });
  // Shortened like an address (the zero groups after the prefix as `::`), for logs and keys alike.
  const kept = Math.ceil(v6Prefix / 16);
  const head = groups.slice(0, kept).map((g) => g.toString(16));
  return `${head.join(':')}${kept < 8 ? '::' : ''}/${v6Prefix}`;
}
