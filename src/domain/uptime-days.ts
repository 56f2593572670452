import type { Impact, IncidentRecord } from './records.ts';
import { uptimePercent } from './stats.ts';

// Per-day uptime for the bar public status pages show (one cell per UTC day).
// Same rules as the statistics (docs/statistics.md): major/critical minutes are
// down, minor minutes count half; a day's `worst` is the highest impact of the
// incidents that overlap it.

export interface UptimeDay {
  /** UTC date, YYYY-MM-DD. */
  date: string;
  uptimePercent: number;
  incidentCount: number;
  worst: Impact | null;
}

const DAY = 86_400_000;
const RANK: Record<Impact, number> = { none: 0, minor: 1, major: 2, critical: 3 };

export function uptimeDays(incidents: IncidentRecord[], days: number, now: Date): UptimeDay[] {
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
      uptimePercent: uptimePercent(overlapping, new Date(from), new Date(to)),
      incidentCount: overlapping.length,
      worst,
    });
  }
  return out;
}
