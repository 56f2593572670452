import type { FastifyReply } from 'fastify';
import { DomainError } from '../../domain/errors.ts';
import type { RefusalKind } from '../../domain/metrics.ts';
import type { Plan } from '../../domain/plans.ts';
import type { LimitResult, LimitWindow, WindowState } from '../../infra/rate-limiter.ts';

// Headers of a metered response: the IETF draft pair (draft-ietf-httpapi-ratelimit-headers)
// for every window, plus the common X-RateLimit-* trio for the window closest to
// running out. X-RateLimit-Reset is in seconds from now, like the draft's `t`.

const policyHeaders = new WeakMap<readonly LimitWindow[], string>();

export function policyHeader(windows: readonly LimitWindow[]): string {
  let h = policyHeaders.get(windows);
  if (h === undefined) {
    h = windows.map((w) => `"${w.name}";q=${w.limit};w=${w.windowSeconds}`).join(', ');
    policyHeaders.set(windows, h);
  }
  return h;
}

/** The window that binds first: fewest remaining, then the longest wait. */
function binding(states: WindowState[]): WindowState {
  let b = states[0];
  for (const s of states) {
    if (s.remaining < b.remaining || (s.remaining === b.remaining && s.resetSeconds > b.resetSeconds)) b = s;
  }
  return b;
}

/** The headers as a name/value list (what the cache-hit answer appends to its rendered block). */
export function rateLimitHeaderList(windows: readonly LimitWindow[], r: LimitResult): (string | number)[] {
  const shown = r.violated.length ? binding(r.violated) : binding(r.windows);
  let state = '';
  for (const s of r.windows) state += `${state ? ', ' : ''}"${s.name}";r=${s.remaining};t=${s.resetSeconds}`;
  return [
    'ratelimit-policy',
    policyHeader(windows),
    'ratelimit',
    state,
    'x-ratelimit-limit',
    shown.limit,
    'x-ratelimit-remaining',
    shown.remaining,
    'x-ratelimit-reset',
    shown.resetSeconds,
  ];
}

export function rateLimitHeaders(windows: readonly LimitWindow[], r: LimitResult): Record<string, string | number> {
  const list = rateLimitHeaderList(windows, r);
  const out: Record<string, string | number> = {};
  for (let i = 0; i < list.length; i += 2) out[list[i] as string] = list[i + 1];
  return out;
}

export function setRateLimitHeaders(reply: FastifyReply, windows: readonly LimitWindow[], r: LimitResult) {
  reply.headers(rateLimitHeaders(windows, r));
}

/** When several windows are full, the caller must wait for the last of them. */
const lastToReset = (r: LimitResult) => r.violated.reduce((a, b) => (b.resetSeconds > a.resetSeconds ? b : a));

/** Which window refused the request, as the metrics label it. */
export function refusalKind(r: LimitResult): RefusalKind {
  return lastToReset(r).windowSeconds >= 86_400 ? 'day' : 'minute';
}

/** The contract's 429: the exceeded limit, what was used, when to retry, the plan. */
export function rateLimitError(r: LimitResult, plan: Plan): DomainError {
  const v = lastToReset(r);
  const per = v.windowSeconds === 60 ? 'minute' : v.windowSeconds === 86_400 ? 'day' : `${v.windowSeconds} s`;
  return new DomainError('rate_limit_exceeded', `Rate limit exceeded: ${v.limit} requests per ${per} on the ${plan} plan. Retry after ${v.resetSeconds} s.`, {
    limit: v.limit,
    used: v.used,
    retryAfter: v.resetSeconds,
    currentPlan: plan,
  });
}
