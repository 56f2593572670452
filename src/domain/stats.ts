import type { Impact, IncidentRecord } from './records.ts';
import type { ObservedSpan } from './source-health.ts';

// Reliability statistics computed from stored incidents. Rules (docs/statistics.md):
// - uptime: minutes covered by a major/critical incident count as down, minutes
//   covered only by minor incidents count half; overlapping incidents are merged
//   so a minute is never counted twice. `none` impact does not reduce uptime.
// - MTTR: mean start→resolve time of incidents resolved in the window.
// - badge: excellent >= 99.95 % and no critical incident, good >= 99.5 %,
//   fair >= 99 %, else poor.
// - only observed time counts: from the first successful poll onwards, without
//   the current outage of our polling. No observed time = no uptime (`null`) and
//   badge `unknown`: a vendor we never watched is not rated (docs/statistics.md).
// - not enough data: uptime and badge are withheld too while the observed part of the
//   window is below MIN_OBSERVED_SHARE of it, so a fresh install does not rate a vendor on
//   its first minutes (docs/statistics.md "Minimum observed share").

export const BADGES = ['excellent', 'good', 'fair', 'poor', 'unknown'] as const;

/**
 * The share of a window that must have been observed before an uptime (and so a badge) is
 * given for it: a quarter. Below it the figure is withheld as "not enough data" (`null`).
 */
export const MIN_OBSERVED_SHARE = 0.25;
export type Badge = (typeof BADGES)[number];

export interface VendorStats {
  vendor: string;
  timePeriod: string;
  incidentCount: number;
  byImpact: Record<Impact, number>;
  mttrMinutes: number | null;
  longestIncidentMinutes: number | null;
  /** null when less than MIN_OBSERVED_SHARE of the window was observed ("not enough data"). */
  uptimePercent: number | null;
  /** How much of the window was observed, 0–100 (one decimal). */
  observedPercent: number;
  maintenanceCount: number;
  lastIncidentAt: string | null;
  badge: Badge;
}

type Interval = [number, number];

const MINUTE = 60_000;

export function durationMinutes(startedAt: string, resolvedAt: string | null, now: Date): number {
  const end = resolvedAt ? Date.parse(resolvedAt) : now.getTime();
  return Math.max(0, Math.round((end - Date.parse(startedAt)) / MINUTE));
}

/** Total length of the union of intervals, in ms. */
function unionLength(intervals: Interval[]): number {
  const sorted = intervals.filter(([a, b]) => b > a).sort((x, y) => x[0] - y[0]);
  let total = 0;
  let cur: Interval | null = null;
  for (const iv of sorted) {
    if (!cur || iv[0] > cur[1]) {
      if (cur) total += cur[1] - cur[0];
      cur = [iv[0], iv[1]];
    } else if (iv[1] > cur[1]) {
      cur[1] = iv[1];
    }
  }
  if (cur) total += cur[1] - cur[0];
  return total;
}

/** What uptime reads of an incident (the trends pass narrow rows). */
export type Timed = Pick<IncidentRecord, 'impact' | 'startedAt' | 'resolvedAt'>;

function uptimePercent(incidents: Timed[], since: Date, now: Date): number {
  const from = since.getTime();
  const to = now.getTime();
  const windowMs = to - from;
  if (windowMs <= 0) return 100;
  const clip = (i: Timed): Interval => [Math.max(from, Date.parse(i.startedAt)), Math.min(to, i.resolvedAt ? Date.parse(i.resolvedAt) : to)];
  const down = incidents.filter((i) => i.impact === 'major' || i.impact === 'critical').map(clip);
  const degradedOrDown = incidents.filter((i) => i.impact !== 'none').map(clip);
  const downMs = unionLength(down);
  // Minutes under a minor incident that are not already down.
  const degradedMs = unionLength(degradedOrDown) - downMs;
  const lost = downMs + degradedMs / 2;
  return Math.round((1 - lost / windowMs) * 100_000) / 1000;
}

/** The part of [since, now] that `span` observed, or null when none of it was. */
function observedPart(since: Date, now: Date, span: ObservedSpan): Interval | null {
  if (!span.from) return null;
  const from = Math.max(since.getTime(), Date.parse(span.from));
  const to = Math.min(now.getTime(), Date.parse(span.until));
  return to > from ? [from, to] : null;
}

/** How much of [since, now] `span` observed, as a share 0–1. */
export function observedShare(since: Date, now: Date, span: ObservedSpan): number {
  const windowMs = now.getTime() - since.getTime();
  const part = observedPart(since, now, span);
  if (!part || windowMs <= 0) return 0;
  return Math.min(1, (part[1] - part[0]) / windowMs);
}

/**
 * Uptime over the part of [since, now] that `span` observed; null ("not enough data") when
 * that part is under MIN_OBSERVED_SHARE of the window.
 */
export function observedUptimePercent(incidents: Timed[], since: Date, now: Date, span: ObservedSpan): number | null {
  const part = observedPart(since, now, span);
  if (!part || observedShare(since, now, span) < MIN_OBSERVED_SHARE) return null;
  return uptimePercent(incidents, new Date(part[0]), new Date(part[1]));
}

function badgeFor(uptime: number | null, byImpact: Record<Impact, number>): Badge {
  if (uptime === null) return 'unknown';
  if (uptime >= 99.95 && byImpact.critical === 0) return 'excellent';
  if (uptime >= 99.5) return 'good';
  if (uptime >= 99) return 'fair';
  return 'poor';
}

/** The grade of an uptime figure alone, by the badge thresholds; `unknown` for a withheld one. */
export const uptimeGrade = (uptime: number | null): Badge => badgeFor(uptime, { none: 0, minor: 0, major: 0, critical: 0 });

export function computeVendorStats(
  vendor: string,
  timePeriod: string,
  incidents: Timed[],
  maintenanceCount: number,
  since: Date,
  now: Date,
  observed: ObservedSpan,
): VendorStats {
  const byImpact: Record<Impact, number> = { none: 0, minor: 0, major: 0, critical: 0 };
  let lastIncidentAt: string | null = null;
  let longest: number | null = null;
  const resolvedDurations: number[] = [];
  for (const i of incidents) {
    byImpact[i.impact] += 1;
    if (!lastIncidentAt || i.startedAt > lastIncidentAt) lastIncidentAt = i.startedAt;
    const d = durationMinutes(i.startedAt, i.resolvedAt, now);
    longest = longest === null ? d : Math.max(longest, d);
    if (i.resolvedAt) resolvedDurations.push(d);
  }
  const uptime = observedUptimePercent(incidents, since, now, observed);
  return {
    vendor,
    timePeriod,
    incidentCount: incidents.length,
    byImpact,
    mttrMinutes: resolvedDurations.length ? Math.round(resolvedDurations.reduce((a, b) => a + b, 0) / resolvedDurations.length) : null,
    longestIncidentMinutes: longest,
    uptimePercent: uptime,
    observedPercent: Math.round(observedShare(since, now, observed) * 1000) / 10,
    maintenanceCount,
    lastIncidentAt,
    badge: badgeFor(uptime, byImpact),
  };
}
