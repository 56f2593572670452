import { PLANS, type Plan, type PlanPolicy, planPolicy, type RateLimitOverrides } from '../../domain/plans.ts';
import type { LimitWindow } from '../../infra/rate-limiter.ts';

// Who a request is counted against, and the windows of a plan. Every request made for
// an organisation (all its keys, its members' web sessions, MCP through OAuth or a key)
// is counted against the organisation, so the plan's figures hold per organisation
// whatever the number of keys and members, and revoking a key does not reset anything
// (docs/access.md, "Rate limits"); anonymous calls per client IP. REST, the hot path,
// MCP and the stream all ask here.

export const orgSubject = (orgId: string) => `o:${orgId}`;
export const ipSubject = (ip: string) => `ip:${ip}`;

/** The subject a request is counted against: its organisation, else its client address. */
export const requestSubject = (viewer: { orgId: string | null }, ip: string) => (viewer.orgId ? orgSubject(viewer.orgId) : ipSubject(ip));

export const MINUTE = 60;
export const DAY = 86_400;

const windowsCache = new Map<string, LimitWindow[]>();

/** The plan's per-minute and per-day windows (shared arrays; do not mutate). */
export function planWindows(policy: Pick<PlanPolicy, 'perMinute' | 'perDay'>): LimitWindow[] {
  const id = `${policy.perMinute}/${policy.perDay}`;
  let w = windowsCache.get(id);
  if (!w) {
    w = [
      { name: 'minute', limit: policy.perMinute, windowSeconds: MINUTE },
      { name: 'day', limit: policy.perDay, windowSeconds: DAY },
    ];
    windowsCache.set(id, w);
  }
  return w;
}

/** Every plan's windows with the overrides applied, computed once (looked up per request). */
export function planWindowsTable(overrides: RateLimitOverrides): Record<Plan, LimitWindow[]> {
  return Object.fromEntries(PLANS.map((p) => [p, planWindows(planPolicy(p, overrides))])) as Record<Plan, LimitWindow[]>;
}
