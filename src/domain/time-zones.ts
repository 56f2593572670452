// Wall-clock arithmetic in IANA time zones with the runtime's Intl data, no
// I/O: what the alert rules need for digests, quiet hours and reminders
// (docs/alerts.md "Time zone").

export interface LocalTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(tz: string): Intl.DateTimeFormat {
  let f = formatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(tz, f);
  }
  return f;
}

/** Whether `tz` is an IANA zone name this runtime knows ("Europe/Berlin", "UTC"). */
export function isTimeZone(tz: string): boolean {
  if (typeof tz !== 'string' || !tz || tz.length > 64 || !/^[A-Za-z0-9_+\-/]+$/.test(tz)) return false;
  try {
    formatter(tz);
    return true;
  } catch {
    return false;
  }
}

/** The wall-clock time in `tz` at `at`. */
export function localTime(at: Date, tz: string): LocalTime {
  const parts: Record<string, number> = {};
  for (const p of formatter(tz).formatToParts(at)) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  return { year: parts.year!, month: parts.month!, day: parts.day!, hour: parts.hour! % 24, minute: parts.minute!, second: parts.second! };
}

/** Offset of `tz` from UTC at `at`, in ms (east positive). */
export function offsetMs(at: Date, tz: string): number {
  const l = localTime(at, tz);
  const asUtc = Date.UTC(l.year, l.month - 1, l.day, l.hour, l.minute, l.second);
  return asUtc - Math.floor(at.getTime() / 1000) * 1000;
}

/**
 * The instant a wall-clock time in `tz` happens. A time skipped by a DST jump
 * gives the instant the same number of minutes after the jump; a time that
 * happens twice gives the earlier one.
 */
export function zonedInstant(l: Omit<LocalTime, 'second'> & { second?: number }, tz: string): Date {
  const naive = Date.UTC(l.year, l.month - 1, l.day, l.hour, l.minute, l.second ?? 0);
  const first = naive - offsetMs(new Date(naive), tz);
  const second = naive - offsetMs(new Date(first), tz);
  if (first === second) return new Date(first);
  // Two candidates (around a change): the earlier one that shows this wall time, else the later.
  const [a, b] = first < second ? [first, second] : [second, first];
  const shows = (t: number) => {
    const x = localTime(new Date(t), tz);
    return x.hour === l.hour && x.minute === l.minute && x.day === l.day;
  };
  return new Date(shows(a) ? a : shows(b) ? b : Math.max(a, b));
}

/** The calendar day `days` after the given one (any month lengths). */
export function addDays(l: { year: number; month: number; day: number }, days: number): { year: number; month: number; day: number } {
  const d = new Date(Date.UTC(l.year, l.month - 1, l.day + days));
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

/** "HH:MM" (24 h) → minutes after midnight, or null. */
export function parseClock(v: string): number | null {
  const m = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(v);
  return m ? Number(m[1]) * 60 + Number(m[2]) : null;
}
