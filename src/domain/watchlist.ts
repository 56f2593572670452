import { DomainError } from './errors.ts';
import { DEFAULT_PLAN_POLICIES, type Plan } from './plans.ts';

// Watchlist quota (docs/per-user.md): free plans hold 10 vendors, paid plans are unlimited.

export interface WatchlistView {
  vendors: string[];
  count: number;
  /** Absent when unlimited. */
  limit?: number;
  /** Slots left (never negative, also after a downgrade); absent when unlimited. */
  remaining?: number;
  isUnlimited: boolean;
}

export const watchlistLimit = (plan: Plan): number | null => DEFAULT_PLAN_POLICIES[plan].watchlistLimit;

export function watchlistView(vendors: string[], plan: Plan): WatchlistView {
  const limit = watchlistLimit(plan);
  if (limit === null) return { vendors, count: vendors.length, isUnlimited: true };
  return { vendors, count: vendors.length, limit, remaining: Math.max(0, limit - vendors.length), isUnlimited: false };
}

export function watchlistLimitError(plan: Plan, limit: number, wanted: number): DomainError {
  return new DomainError('limit_exceeded', `The ${plan} plan allows ${limit} vendors in the watchlist; this change would make ${wanted}`, {
    currentPlan: plan,
    limit,
    hint: 'Remove vendors from the watchlist, or upgrade to Standard or above for an unlimited watchlist.',
  });
}

/** De-duplicated, first occurrence keeps its place. */
export const uniqueSlugs = (slugs: string[]) => [...new Set(slugs)];
