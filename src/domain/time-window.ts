import { invalidParameter } from './errors.ts';

// `timePeriod` is a number followed by a unit: `d` (days) or `h` (hours), e.g. 7d, 30d, 90d, 24h.
const TIME_PERIOD = /^([1-9][0-9]{0,4})([dh])$/;
const MAX_HOURS = 24 * 3650;

export interface DataWindow {
  /** What the caller asked for (null: nothing, the default applied). */
  requested: string | null;
  /** The window used: a period such as `7d`, or `all` when unlimited. */
  applied: string;
  /** True when the request exceeded the plan's window and was clamped. */
  capped: boolean;
  /** Start of the applied window (inclusive), or null when unlimited. */
  since: string | null;
}

export function parseTimePeriod(value: string): number {
  const m = TIME_PERIOD.exec(value);
  if (!m) throw invalidParameter('timePeriod', 'expected a number followed by d or h, e.g. 7d');
  const hours = m[2] === 'd' ? Number(m[1]) * 24 : Number(m[1]);
  if (hours > MAX_HOURS) throw invalidParameter('timePeriod', 'at most 3650d');
  return hours;
}

/**
 * The window a query runs over: the requested period clamped to the plan cap
 * (capDays null = unlimited). Without a request, `fallback` is used (clamped
 * silently), or the whole plan window when fallback is null.
 */
export function resolveWindow(requested: string | undefined, capDays: number | null, now: Date, fallback: string | null = null): DataWindow {
  const capHours = capDays === null ? Infinity : capDays * 24;
  const wanted = requested ?? fallback;
  const hours = wanted === null ? Infinity : parseTimePeriod(wanted);
  const capped = hours > capHours;
  const appliedHours = Math.min(hours, capHours);
  if (appliedHours === Infinity) {
    return { requested: requested ?? null, applied: 'all', capped: false, since: null };
  }
  const applied = hours > capHours ? `${capDays}d` : (wanted as string);
  return {
    requested: requested ?? null,
    applied,
    capped: requested !== undefined && capped,
    since: new Date(now.getTime() - appliedHours * 3_600_000).toISOString(),
  };
}
