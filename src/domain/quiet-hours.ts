import { addDays, localTime, parseClock, zonedInstant } from './time-zones.ts';

// Quiet hours (docs/alerts.md "Quiet hours"): a daily local time range, e.g.
// 22:00–07:00, during which chat and e-mail alerts are held and then sent as
// one summary when the range ends. Paging channels are never held. Pure.

export interface QuietHours {
  enabled: boolean;
  /** "HH:MM", local time of the user's `timezone`. */
  start: string;
  end: string;
}

/** Channels whose alerts quiet hours hold (people reading chat or mail). */
export const QUIET_CHANNELS = ['slack', 'teams', 'google_chat', 'email'] as const;

/**
 * When the quiet period containing `at` ends, or null when `at` is outside quiet
 * hours (or they are off, or start equals end: an empty range).
 */
export function quietUntil(at: Date, tz: string, q: QuietHours): Date | null {
  if (!q.enabled) return null;
  const start = parseClock(q.start);
  const end = parseClock(q.end);
  if (start === null || end === null || start === end) return null;
  const l = localTime(at, tz);
  const now = l.hour * 60 + l.minute;
  const today = { year: l.year, month: l.month, day: l.day };
  let endDay: { year: number; month: number; day: number };
  if (start < end) {
    if (now < start || now >= end) return null;
    endDay = today;
  } else if (now >= start) endDay = addDays(today, 1);
  else if (now < end) endDay = today;
  else return null;
  const until = zonedInstant({ ...endDay, hour: Math.floor(end / 60), minute: end % 60 }, tz);
  // A skipped wall time (DST) can land before `at`; never end in the past.
  return until.getTime() > at.getTime() ? until : new Date(at.getTime() + 60_000);
}
