// Plan table (docs/access.md). Figures for rate limits can be overridden through
// the RATE_LIMITS setting; everything else is fixed product policy.

export const PLANS = ['anonymous', 'free', 'standard', 'pro', 'enterprise', 'vip'] as const;
export type Plan = (typeof PLANS)[number];
export const USER_PLANS = ['free', 'standard', 'pro', 'enterprise', 'vip'] as const;
export type UserPlan = (typeof USER_PLANS)[number];

export interface PlanPolicy {
  perMinute: number;
  perDay: number;
  /** Longest history window in days; null = unlimited. */
  windowDays: number | null;
  /** Watchlist cap; null = unlimited. */
  watchlistLimit: number | null;
  compliance: boolean;
  concurrentStreams: number;
}

export const DEFAULT_PLAN_POLICIES: Record<Plan, PlanPolicy> = {
  anonymous: { perMinute: 10, perDay: 100, windowDays: 7, watchlistLimit: 0, compliance: false, concurrentStreams: 1 },
  free: { perMinute: 10, perDay: 100, windowDays: 7, watchlistLimit: 10, compliance: false, concurrentStreams: 1 },
  standard: { perMinute: 60, perDay: 1000, windowDays: 30, watchlistLimit: null, compliance: true, concurrentStreams: 5 },
  pro: { perMinute: 120, perDay: 5000, windowDays: 90, watchlistLimit: null, compliance: true, concurrentStreams: 20 },
  enterprise: { perMinute: 120, perDay: 10000, windowDays: null, watchlistLimit: null, compliance: true, concurrentStreams: 100 },
  vip: { perMinute: 120, perDay: 10000, windowDays: null, watchlistLimit: null, compliance: true, concurrentStreams: 100 },
};

const PLAN_RANK: Record<Plan, number> = {
  anonymous: 0,
  free: 1,
  standard: 2,
  pro: 3,
  enterprise: 4,
  vip: 4,
};

export const isPlan = (v: string): v is Plan => (PLANS as readonly string[]).includes(v);
export const isUserPlan = (v: string): v is UserPlan => (USER_PLANS as readonly string[]).includes(v);
export const planAtLeast = (plan: Plan, min: Plan) => PLAN_RANK[plan] >= PLAN_RANK[min];

/** Operator overrides (RATE_LIMITS): request quotas and the concurrent-stream cap. */
export type RateLimitOverrides = Partial<Record<Plan, Partial<Pick<PlanPolicy, 'perMinute' | 'perDay' | 'concurrentStreams'>>>>;

/** A plan's policy with the RATE_LIMITS overrides applied. */
export function planPolicy(plan: Plan, overrides: RateLimitOverrides = {}): PlanPolicy {
  const o = overrides[plan];
  return o ? { ...DEFAULT_PLAN_POLICIES[plan], ...o } : DEFAULT_PLAN_POLICIES[plan];
}
