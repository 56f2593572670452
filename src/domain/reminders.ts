// Maintenance reminders (docs/alerts.md "Maintenance reminders"): lead times
// before a window starts, e.g. ["24h", "1h"]. Pure.

/** Longest lead time accepted (how far ahead the reminder scan looks). */
export const MAX_LEAD_MS = 14 * 86_400_000;
export const MAX_LEAD_TIMES = 5;

const UNIT_MS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000 };

/** "90m", "1h", "2d" → ms, or null (zero, too long, malformed). */
export function parseLeadTime(v: string): number | null {
  const m = /^([1-9]\d{0,4})([mhd])$/.exec(v);
  if (!m) return null;
  const ms = Number(m[1]) * UNIT_MS[m[2]!]!;
  return ms <= MAX_LEAD_MS ? ms : null;
}

/**
 * The reminder due at `now` for a window starting at `startsAt`, or null. Lead
 * time L is due from `start - L` until the next shorter lead time is due (or the
 * window starts): a reminder found late is still sent, but one overtaken by a
 * shorter lead time is not, so a window announced 30 minutes ahead gets one
 * reminder, not a burst.
 */
export function dueReminder(startsAt: number, leadsMs: readonly number[], now: number): number | null {
  const leads = [...new Set(leadsMs)].filter((l) => l > 0).sort((a, b) => b - a);
  for (let i = 0; i < leads.length; i++) {
    const from = startsAt - leads[i]!;
    const until = startsAt - (leads[i + 1] ?? 0);
    if (now >= from && now < until) return leads[i]!;
  }
  return null;
}

/** "24h" style label of a lead time in ms. */
export function leadLabel(ms: number): string {
  if (ms % 86_400_000 === 0 && ms >= 2 * 86_400_000) return `${ms / 86_400_000}d`;
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000}h`;
  return `${Math.round(ms / 60_000)}m`;
}

/**
 * Lead times of the reminders an owner route gets, by default, for maintenance on a
 * dependency of a `critical` service it owns (docs/alert-routes.md "Reminders for critical services").
 */
export const OWNER_ROUTE_LEAD_TIMES = ['24h', '1h'] as const;
