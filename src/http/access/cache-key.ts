import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { DEFAULT_PLAN_POLICIES } from '../../domain/plans.ts';
import { parseTimePeriod } from '../../domain/time-window.ts';

// A cached public response is identified by the route pattern, its path
// parameters, the validated query (defaults applied, `skipCache` dropped, vendor
// lists in a canonical order) and the history window the caller's plan applies.
// An account that owns private status pages reads answers nobody else may see
// (docs/per-user.md "Custom status pages"): its user id (`account`) is part of the
// key, and such answers are never served to anyone else. Every other caller, signed
// in or not, reads what the public reads and shares its entries; the request is then
// computed for the public audience too (services/access/private-readers.ts, docs/access.md
// "Response cache"). Per-user routes are never cached by this key.

function canonicalList(v: string): string {
  return [...new Set(v.split(','))].sort().join(',');
}

/** `account`: the caller's account when its answers are its own (PrivateReaders.accountOf), else null. */
export function cacheKey(request: FastifyRequest, windowed: boolean, account: string | null): string {
  const q = { ...(request.query as Record<string, unknown>) };
  delete q.skipCache;
  // `vendors` is an alias of `vendor`; the handlers read vendor ?? vendors.
  const vendor = q.vendor ?? q.vendors;
  delete q.vendors;
  if (typeof vendor === 'string') q.vendor = canonicalList(vendor);
  else delete q.vendor;
  let key = `${request.routeOptions.url}?`;
  for (const k of Object.keys(q).sort()) if (q[k] !== undefined) key += `${k}=${String(q[k])}&`;
  const params = request.params as Record<string, string> | undefined;
  if (params) for (const k of Object.keys(params).sort()) key += `:${k}=${params[k]}`;
  if (account) key += `|u=${account}`;
  if (windowed) {
    const cap = DEFAULT_PLAN_POLICIES[request.viewer.plan].windowDays;
    const requested = q.timePeriod;
    if (typeof requested === 'string') {
      const hours = parseTimePeriod(requested);
      key += `|w=${cap === null ? hours : Math.min(hours, cap * 24)}h`;
    } else {
      key += `|cap=${cap ?? 'all'}`;
    }
  }
  return key;
}

export const etagOf = (body: string) => `"${createHash('sha1').update(body).digest('base64url')}"`;

/** If-None-Match (weak comparison, lists and `*`) against the current ETag. */
export function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  const bare = etag.replace(/^W\//, '');
  return header.split(',').some((t) => t.trim().replace(/^W\//, '') === bare);
}
