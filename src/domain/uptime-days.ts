import type { Impact, IncidentRecord } from './records.ts';
import type { ObservedSpan } from './source-health.ts';
import { observedUptimePercent } from './stats.ts';

// Per-day uptime for the bar public status pages show (one cell per UTC day).
// Same rules as the statistics (docs/statistics.md): major/critical minutes are
// down, minor minutes count half, only observed time counts; a day we did not
// observe at all has no uptime (`null`, shown as "no data"). A day's `worst` is
// the highest impact of the incidents that overlap it.

export interface UptimeDay {
  /** UTC date, YYYY-MM-DD. */
  date: string;
  /** null: the vendor was not observed on that day. */
  uptimePercent: number | null;
  incidentCount: number;
  worst: Impact | null;
}

const DAY = 86_400_000;
const RANK: Record<Impact, number> = { none: 0, minor: 1, major: 2, critical: 3 };

export function uptimeDays(incidents: IncidentRecord[], days: number, now: Date, observed: ObservedSpan): UptimeDay[] {
  const todayStart = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const out: UptimeDay[] = [];
  for (let k = days - 1; k >= 0; k--) {
    const from = todayStart - k * DAY;
    const to = Math.min(from + DAY, now.getTime());
    const overlapping = incidents.filter((i) => {
      const start = Date.parse(i.startedAt);
      const end = i.resolvedAt ? Date.parse(i.resolvedAt) : now.getTime();
      return start < to && end > from;
    });
    let worst: Impact | null = null;
    for (const i of overlapping) if (worst === null || RANK[i.impact] > RANK[worst]) worst = i.impact;
    out.push({
      date: new Date(from).toISOString().slice(0, 10),
      uptimePercent: observedUptimePercent(overlapping, new Date(from), new Date(to), observed),
      incidentCount: overlapping.length,
      worst,
    });
  }
  return out;
}
