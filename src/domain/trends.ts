import type { Impact } from './records.ts';
import type { ObservedSpan } from './source-health.ts';
import { durationMinutes, observedUptimePercent } from './stats.ts';

// Figures the vendor page draws as charts (docs/statistics.md, "Trends"). Same
// rules as the statistics: MTTR is the mean duration of resolved incidents,
// uptime counts major/critical minutes as down and minor as half, only over
// observed time. What was not observed has no figure (null), never zero or 100.

/** Only what the trends need of an incident (the query reads no text or updates). */
export interface IncidentTiming {
  vendor: string;
  impact: Impact;
  startedAt: string;
  resolvedAt: string | null;
  /** Component names the incident lists; empty unless asked for. */
  components: string[];
}

export interface WeekPoint {
  /** Monday 00:00 UTC of the week, YYYY-MM-DD. */
  weekStart: string;
  /** Incidents that started this week; null when the vendor was not observed at all that week. */
  incidentCount: number | null;
  /** Mean time to resolve of the incidents that started this week and are resolved; null when none. */
  mttrMinutes: number | null;
  /** The week starts before the viewer's plan window: its MTTR is not shown. */
  mttrLocked: boolean;
}

const DAY = 86_400_000;
const WEEK = 7 * DAY;

/** Monday 00:00 UTC of the week holding `t`. */
export function weekStartOf(t: number): number {
  const d = new Date(t);
  const midnight = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
  return midnight - ((d.getUTCDay() + 6) % 7) * DAY;
}

/** True when `span` observed some of [from, to). */
function observedIn(span: ObservedSpan, from: number, to: number): boolean {
  if (!span.from) return false;
  return Date.parse(span.from) < to && Date.parse(span.until) > from;
}

/**
 * `weeks` calendar weeks (Monday to Sunday, UTC), oldest first, the current
 * week last (so far). `mttrSince`: start of the plan window, null when unlimited.
 */
export function weeklyTrend(rows: IncidentTiming[], weeks: number, now: Date, span: ObservedSpan, mttrSince: Date | null): WeekPoint[] {
  const current = weekStartOf(now.getTime());
  const out: WeekPoint[] = [];
  for (let k = weeks - 1; k >= 0; k--) {
    const from = current - k * WEEK;
    const to = Math.min(from + WEEK, now.getTime());
    const started = rows.filter((r) => {
      const t = Date.parse(r.startedAt);
      return t >= from && t < from + WEEK;
    });
    const resolved = started.filter((r) => r.resolvedAt).map((r) => durationMinutes(r.startedAt, r.resolvedAt, now));
    const seen = observedIn(span, from, to) || started.length > 0;
    out.push({
      weekStart: new Date(from).toISOString().slice(0, 10),
      incidentCount: seen ? started.length : null,
      mttrMinutes: resolved.length ? Math.round(resolved.reduce((a, b) => a + b, 0) / resolved.length) : null,
      mttrLocked: mttrSince !== null && from < mttrSince.getTime(),
    });
  }
  return out.map((p) => (p.mttrLocked ? { ...p, mttrMinutes: null } : p));
}

export interface ComponentUptime {
  component: string;
  /** null: not observed in the window. */
  uptimePercent: number | null;
  incidentCount: number;
}

/**
 * Uptime of each component over [since, now]: the vendor's incidents that name
 * the component (an incident naming none is not charged to any component).
 */
export function componentUptime(rows: IncidentTiming[], components: string[], since: Date, now: Date, span: ObservedSpan): ComponentUptime[] {
  return components.map((component) => {
    const own = rows.filter((r) => r.components.includes(component));
    return { component, uptimePercent: observedUptimePercent(own, since, now, span), incidentCount: own.length };
  });
}
