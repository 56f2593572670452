import type { SourceHealth } from './records.ts';

// When a source counts as stale and which span of time a vendor was observed
// (docs/operations.md "Source health", docs/statistics.md "Observation window").

/** A failing source turns stale after this many of its poll intervals… */
const STALE_AFTER_INTERVALS = 3;
/** …and never sooner than this (a 10 s demo interval must not flap). */
const STALE_AFTER_MIN_MS = 15 * 60_000;

/** What the store keeps about one source that health and observation need. */
export interface SourcePollState {
  vendor: string;
  intervalSeconds: number | null;
  firstSuccessAt: string | null;
  lastSuccessAt: string | null;
  lastErrorAt: string | null;
  lastError: string | null;
  consecutiveFailures: number;
  /** First failure of the current run of failures; null while the source succeeds. */
  failingSince: string | null;
}

export function staleAfterMs(intervalSeconds: number | null, defaultIntervalSeconds: number): number {
  return Math.max(STALE_AFTER_MIN_MS, STALE_AFTER_INTERVALS * (intervalSeconds ?? defaultIntervalSeconds) * 1000);
}

/** Failing for longer than the threshold. A source never polled is not stale: nothing was attempted. */
export function isStale(s: SourcePollState, now: Date, defaultIntervalSeconds: number): boolean {
  if (s.consecutiveFailures <= 0) return false;
  const since = s.failingSince ?? s.lastErrorAt;
  if (!since) return false;
  return now.getTime() - Date.parse(since) > staleAfterMs(s.intervalSeconds, defaultIntervalSeconds);
}

/**
 * One vendor's sources folded into one: newest success, newest error, and
 * `stale` when any of them has been failing past the threshold (part of what
 * is shown may be out of date).
 */
export function foldHealth(sources: SourcePollState[], now: Date, defaultIntervalSeconds: number): SourceHealth {
  const health: SourceHealth = { lastSuccessAt: null, lastErrorAt: null, lastError: null, stale: false };
  for (const s of sources) {
    if (s.lastSuccessAt && (!health.lastSuccessAt || s.lastSuccessAt > health.lastSuccessAt)) health.lastSuccessAt = s.lastSuccessAt;
    if (s.lastErrorAt && (!health.lastErrorAt || s.lastErrorAt > health.lastErrorAt)) {
      health.lastErrorAt = s.lastErrorAt;
      health.lastError = s.lastError;
    }
    if (isStale(s, now, defaultIntervalSeconds)) health.stale = true;
  }
  return health;
}

/** The span over which a vendor was watched; `from` null = never polled successfully. */
export interface ObservedSpan {
  from: string | null;
  until: string;
}

/**
 * Observation starts at the first successful poll of any of the vendor's sources.
 * It ends now, unless every source that ever succeeded is stale: then it ends at
 * the last success (the current outage of our polling is not counted as uptime).
 * Earlier outages of our polling are not stored and so not subtracted.
 */
export function observedSpan(sources: SourcePollState[], now: Date, defaultIntervalSeconds: number): ObservedSpan {
  let from: string | null = null;
  let lastSuccess: string | null = null;
  let watching = false;
  for (const s of sources) {
    const first = s.firstSuccessAt ?? s.lastSuccessAt;
    if (!first) continue;
    if (!from || first < from) from = first;
    if (!lastSuccess || (s.lastSuccessAt && s.lastSuccessAt > lastSuccess)) lastSuccess = s.lastSuccessAt ?? first;
    if (!isStale(s, now, defaultIntervalSeconds)) watching = true;
  }
  const until = from && !watching && lastSuccess ? lastSuccess : now.toISOString();
  return { from, until };
}
