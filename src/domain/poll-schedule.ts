import { isActiveMaintenance } from './maintenance-window.ts';
import type { SourceSnapshot } from './records.ts';

// Adaptive polling (docs/ingestion.md "Adaptive polling"): a source is polled faster while
// its vendor has something going on, slower while it keeps answering 304, and at its own
// interval otherwise. Pure: the scheduler brings the state it read and stores the result.

/** A hot source is polled at a quarter of its interval, never more often than this. */
export const HOT_MIN_SECONDS = 15;
/** Maintenance this close to its start makes a source hot. */
export const MAINTENANCE_LEAD_MS = 30 * 60_000;
/** An open incident not updated for this long no longer makes a source hot (a feed can keep one "open" for ever). */
export const OPEN_INCIDENT_FRESH_MS = 48 * 3_600_000;
/** 304 answers in a row after which a source counts as quiet. */
export const QUIET_AFTER = 5;
/**
 * A quiet source waits a fifth longer than its interval, at most this long. Not more: a
 * change on a quiet page is found within the polled-source freshness targets (p50 <= 20 s,
 * p99 <= 45 s: 36 s with the 30 s default, plus jitter and the read; docs/ingestion.md
 * "Adaptive polling").
 */
export const QUIET_FACTOR = 1.2;
export const QUIET_MAX_SECONDS = 300;
/**
 * A push makes a source due now, but never sooner than this after its previous poll: a
 * forged or replayed push costs at most one poll per 5 s per source, and a real one waits at
 * most 5 s (the pushed-source freshness target is p99 <= 10 s, docs/ingestion.md "Push from vendors").
 */
export const PUSH_MIN_GAP_MS = 5_000;

export type IntervalReason = 'open incident' | 'page reports a problem' | 'maintenance' | 'quiet' | 'default';

export interface PollSchedule {
  /** Whether the vendor's last read showed something going on. */
  hot: boolean;
  /** 304 answers in a row. */
  quietPolls: number;
  /** The interval the next poll waits (before its ±10 % jitter). */
  intervalSeconds: number;
  reason: IntervalReason;
}

/** Why a snapshot makes its source hot, or null. */
export function hotReason(snapshot: SourceSnapshot, now: Date): IntervalReason | null {
  const t = now.getTime();
  if ((snapshot.incidents ?? []).some((i) => i.status !== 'resolved' && t - Date.parse(i.updatedAt) <= OPEN_INCIDENT_FRESH_MS)) return 'open incident';
  const indicator = snapshot.status?.indicator;
  if (indicator && indicator !== 'operational' && indicator !== 'unknown' && indicator !== 'maintenance') return 'page reports a problem';
  const soon = new Date(t + MAINTENANCE_LEAD_MS);
  if ((snapshot.maintenances ?? []).some((m) => m.status !== 'completed' && isActiveMaintenance(m, soon))) return 'maintenance';
  if (indicator === 'maintenance') return 'maintenance';
  return null;
}

const HOT_REASONS: readonly IntervalReason[] = ['open incident', 'page reports a problem', 'maintenance'];

/** A stored reason read back: a hot one, or 'open incident' for a hot row stored without one. */
export const hotReasonOf = (stored: string | null): IntervalReason =>
  (HOT_REASONS as readonly string[]).includes(stored ?? '') ? (stored as IntervalReason) : 'open incident';

/** The schedule after a poll: hot first, then quiet, else the source's own interval. */
export function scheduleOf(baseSeconds: number, hot: IntervalReason | null, quietPolls: number): PollSchedule {
  if (hot) return { hot: true, quietPolls, intervalSeconds: Math.max(Math.min(HOT_MIN_SECONDS, baseSeconds), Math.round(baseSeconds / 4)), reason: hot };
  if (quietPolls >= QUIET_AFTER) {
    return {
      hot: false,
      quietPolls,
      intervalSeconds: Math.max(baseSeconds, Math.min(Math.round(baseSeconds * QUIET_FACTOR), QUIET_MAX_SECONDS)),
      reason: 'quiet',
    };
  }
  return { hot: false, quietPolls, intervalSeconds: baseSeconds, reason: 'default' };
}

/**
 * When a pushed source is polled (docs/ingestion.md "Push from vendors"): now, unless its
 * previous poll was under PUSH_MIN_GAP_MS ago (then at the end of that gap); never later
 * than it was due anyway. null: leave it as it is.
 */
export function pushedPollAt(now: Date, lastPolledAt: string | null, nextPollAt: string | null): Date | null {
  const last = lastPolledAt ? Date.parse(lastPolledAt) : Number.NEGATIVE_INFINITY;
  const at = new Date(Math.max(now.getTime(), last + PUSH_MIN_GAP_MS));
  if (nextPollAt !== null && Date.parse(nextPollAt) <= at.getTime()) return null;
  return at;
}

/** A change published longer ago than this is history found late (a first read, a backfill), not a measure of freshness. */
export const FRESHNESS_HORIZON_MS = 6 * 3_600_000;

/** What made a poll happen: a push from the vendor since the source's previous poll, else its schedule. */
export type PollTrigger = 'push' | 'schedule';
export const POLL_TRIGGERS: readonly PollTrigger[] = ['push', 'schedule'];

/**
 * A poll started at `polledAt` was brought by a push when the vendor pushed after the
 * source's previous poll (success or failure) and before this one started; a push that
 * arrives during the poll is answered by the next one (docs/ingestion.md "Push from vendors").
 */
export function pollTrigger(s: { pushedAt: string | null; lastSuccessAt: string | null; lastErrorAt: string | null }, polledAt: Date): PollTrigger {
  if (!s.pushedAt) return 'schedule';
  const pushed = Date.parse(s.pushedAt);
  const previous = Math.max(...[s.lastSuccessAt, s.lastErrorAt].map((x) => (x ? Date.parse(x) : Number.NEGATIVE_INFINITY)));
  return pushed > previous && pushed <= polledAt.getTime() ? 'push' : 'schedule';
}

/** One change found by a poll: seconds from the vendor publishing it to our record, and the kind of record. */
export interface Freshness {
  seconds: number;
  kind: 'incident' | 'maintenance';
}

/**
 * Seconds from the vendor publishing each change to `recordedAt`: the newest update's time
 * of the record the event carries, else its own update time. Changes published in the future
 * (a clock ahead) count as 0; those older than FRESHNESS_HORIZON_MS are left out.
 */
export function freshnessOf(
  changes: { entityKind: Freshness['kind']; payload: { updatedAt?: string | null; updates?: { createdAt: string }[] } }[],
  recordedAt: Date,
): Freshness[] {
  const out: Freshness[] = [];
  for (const c of changes) {
    const times = (c.payload.updates ?? []).map((u) => Date.parse(u.createdAt)).filter(Number.isFinite);
    const published = times.length ? Math.max(...times) : Date.parse(c.payload.updatedAt ?? '');
    if (!Number.isFinite(published)) continue;
    const ms = recordedAt.getTime() - published;
    if (ms > FRESHNESS_HORIZON_MS) continue;
    out.push({ seconds: Math.max(0, ms) / 1000, kind: c.entityKind });
  }
  return out;
}
