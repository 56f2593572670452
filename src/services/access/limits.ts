import { PLANS, type Plan, type PlanPolicy, planPolicy, type RateLimitOverrides } from '../../domain/plans.ts';
import type { LimitWindow } from '../../infra/rate-limiter.ts';

// Who a request is counted against, and the windows of a plan. Keys are counted
// per key, web sessions per user, anonymous calls per client IP.

export const keySubject = (keyId: string) => `k:${keyId}`;
export const userSubject = (userId: string) => `u:${userId}`;
export const ipSubject = (ip: string) => `ip:${ip}`;

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
