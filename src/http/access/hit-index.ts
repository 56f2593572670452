import { LRUCache } from 'lru-cache';
import { DEFAULT_PLAN_POLICIES, type Plan } from '../../domain/plans.ts';

// Raw request URL (plus the caller plan's window cap) -> the normalised cache key,
// learnt whenever a key is computed from a validated request. The same raw URL
// validates and normalises the same way every time, so a later request for it can
// be answered from the cache on arrival, before parsing and validation.

export const MAX_INDEXED_URL = 2048;

export interface IndexedRoute {
  key: string;
  metered: boolean;
  /** The route template (metrics label). */
  route: string;
  /**
   * Served to every caller as anonymous (routes without authentication, e.g. badges):
   * the server hot path, which counts against the presented key, leaves it alone.
   */
  anonymousOnly: boolean;
}

export class HitIndex {
  private readonly lru = new LRUCache<string, IndexedRoute>({ max: 20_000 });

  /** `account`: the caller's account when its answers are its own, else null (cache-key.ts). */
  private static id(url: string, plan: Plan, account: string | null) {
    return `${url}|${DEFAULT_PLAN_POLICIES[plan].windowDays}|${account ?? ''}`;
  }

  learn(url: string, plan: Plan, account: string | null, route: IndexedRoute) {
    if (url.length <= MAX_INDEXED_URL) this.lru.set(HitIndex.id(url, plan, account), route);
  }

  find(url: string, plan: Plan, account: string | null): IndexedRoute | undefined {
    return url.length <= MAX_INDEXED_URL ? this.lru.get(HitIndex.id(url, plan, account)) : undefined;
  }
}
