import { addDays, localTime, zonedInstant } from './time-zones.ts';

// E-mail digest periods (docs/alerts.md "Digests"): hourly digests cover one
// local hour, daily digests the 24 hours from DIGEST_DAILY_HOUR local time to
// the next day's; each is sent when its period ends. Pure.

export type DigestFrequency = 'hourly' | 'daily';

/** Local hour at which daily digests are cut and sent. */
export const DIGEST_DAILY_HOUR = 8;

export interface Period {
  start: Date;
  end: Date;
}

/** The digest period that contains `at`, in the user's time zone. */
export function digestPeriod(at: Date, tz: string, frequency: DigestFrequency): Period {
  const l = localTime(at, tz);
  if (frequency === 'hourly') {
    // The start of the local hour: minutes and seconds back from `at`, which is a local
    // hour boundary in every zone (also those offset by 30 or 45 minutes).
    const start = Math.floor(at.getTime() / 1000) * 1000 - (l.minute * 60 + l.second) * 1000;
    return { start: new Date(start), end: new Date(start + 3_600_000) };
  }
  const day = l.hour < DIGEST_DAILY_HOUR ? addDays(l, -1) : { year: l.year, month: l.month, day: l.day };
  const start = zonedInstant({ ...day, hour: DIGEST_DAILY_HOUR, minute: 0 }, tz);
  const end = zonedInstant({ ...addDays(day, 1), hour: DIGEST_DAILY_HOUR, minute: 0 }, tz);
  return { start, end };
}
