import { DEFAULT_RULES, type EarlyWarningRules, type SignalState } from './early-warning.ts';

// Transparency of vendors (docs/early-warning.md "Transparency"): how far a vendor's page
// lags what a team saw first, which outages the vendor never posted, and how long posted
// ones took to resolve. Computed from a signal's recorded transitions (opening,
// confirmation, clearing, dismissal) and, for resolution, the confirming incident's end;
// never from a figure that was not recorded. A figure with nothing under it is null with
// the reason, never 0. Pure: no I/O.

/** Days of signals the figures cover (by the signal's opening). */
export const TRANSPARENCY_DAYS = 90;

/** What the figures read of one signal: its recorded transitions, oldest first. */
export interface SignalHistory {
  id: string;
  vendor: string;
  lastObservedAt: string;
  incidentId: string | null;
  transitions: { from: SignalState | null; to: SignalState; at: string }[];
}

/** A distribution of durations in minutes (one decimal); percentiles by nearest rank. */
export interface Distribution {
  count: number;
  p50: number;
  p90: number;
  min: number;
  max: number;
}

export interface VendorTransparency {
  vendor: string;
  /** Signals about the vendor opened in the window, whatever became of them. */
  signals: number;
  /** How those signals stand: confirmed by the vendor, cleared, dismissed (false alarms), still open. */
  outcomes: Record<SignalState, number>;
  /** From our signal's opening to the vendor's first post (the confirming incident arriving); null with a reason when none. */
  leadTimeMinutes: Distribution | null;
  /** Cleared signals whose confirmation window ended without a matching incident, not dismissed; null without signals. */
  unpostedOutages: number | null;
  /** Cleared signals whose confirmation window is still open: not yet counted either way. */
  awaitingConfirmationWindow: number;
  /** From our signal's opening to the resolution of the vendor's incident that confirmed it; null with a reason when none resolved. */
  timeToResolveMinutes: Distribution | null;
  /** Confirmed signals whose incident is not resolved (or no longer stored): not in the resolution figures. */
  unresolved: number;
  /** Why each null figure is null. */
  unknown: { figure: 'leadTimeMinutes' | 'unpostedOutages' | 'timeToResolveMinutes'; reason: string }[];
}

const ms = (iso: string) => Date.parse(iso);
const minutes = (a: number) => Math.round(a / 6_000) / 10;

/** Nearest-rank percentile of sorted values (p in 0..100). */
function nearestRank(sorted: readonly number[], p: number): number {
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** The distribution of durations (milliseconds in, minutes out); null for none. */
export function distributionOf(durationsMs: readonly number[]): Distribution | null {
  const v = durationsMs.filter((x) => Number.isFinite(x) && x >= 0).sort((a, b) => a - b);
  if (!v.length) return null;
  return { count: v.length, p50: minutes(nearestRank(v, 50)), p90: minutes(nearestRank(v, 90)), min: minutes(v[0]!), max: minutes(v[v.length - 1]!) };
}

const stateOf = (h: SignalHistory): SignalState => h.transitions[h.transitions.length - 1]?.to ?? 'suspected';
const atOf = (h: SignalHistory, to: SignalState) => h.transitions.find((t) => t.to === to)?.at ?? null;

/**
 * The transparency of one vendor from the signals about it opened in the window.
 * Dismissed signals (false alarms) count in `outcomes` only. `resolvedAt` gives the end of
 * a confirming incident (null while open, absent when no longer stored).
 */
export function transparencyOf(
  vendor: string,
  history: readonly SignalHistory[],
  resolvedAt: ReadonlyMap<string, string | null>,
  now: Date,
  rules: EarlyWarningRules = DEFAULT_RULES,
): VendorTransparency {
  const outcomes: Record<SignalState, number> = { suspected: 0, confirmed: 0, cleared: 0, dismissed: 0 };
  const leads: number[] = [];
  const resolutions: number[] = [];
  let unposted = 0;
  let awaiting = 0;
  let unresolved = 0;
  const mine = history.filter((h) => h.vendor === vendor);
  for (const h of mine) {
    const state = stateOf(h);
    outcomes[state]++;
    const opened = atOf(h, 'suspected');
    if (!opened) continue;
    if (state === 'confirmed') {
      const confirmed = atOf(h, 'confirmed');
      if (confirmed) leads.push(ms(confirmed) - ms(opened));
      const end = h.incidentId ? resolvedAt.get(h.incidentId) : undefined;
      if (end) resolutions.push(ms(end) - ms(opened));
      else unresolved++;
    } else if (state === 'cleared') {
      // A vendor may still post within the confirmation window: until it ends, unknown.
      if (ms(h.lastObservedAt) + rules.confirmLagMs <= now.getTime()) unposted++;
      else awaiting++;
    }
  }
  const unknown: VendorTransparency['unknown'] = [];
  const leadTimeMinutes = distributionOf(leads);
  const timeToResolveMinutes = distributionOf(resolutions);
  const days = `${TRANSPARENCY_DAYS} days`;
  if (!mine.length) {
    const reason = `no signal about the vendor in the last ${days}`;
    unknown.push({ figure: 'leadTimeMinutes', reason }, { figure: 'unpostedOutages', reason }, { figure: 'timeToResolveMinutes', reason });
  } else {
    if (!leadTimeMinutes)
      unknown.push({ figure: 'leadTimeMinutes', reason: `none of ${mine.length} signals in the last ${days} was confirmed by an incident of the vendor` });
    if (!timeToResolveMinutes) {
      unknown.push({
        figure: 'timeToResolveMinutes',
        reason: outcomes.confirmed
          ? `no incident that confirmed a signal is resolved yet`
          : `no signal in the last ${days} was confirmed by an incident of the vendor`,
      });
    }
  }
  return {
    vendor,
    signals: mine.length,
    outcomes,
    leadTimeMinutes,
    unpostedOutages: mine.length ? unposted : null,
    awaitingConfirmationWindow: awaiting,
    timeToResolveMinutes,
    unresolved,
    unknown,
  };
}

export const TRANSPARENCY_ORDERS = ['lead', 'unposted'] as const;
export type TransparencyOrder = (typeof TRANSPARENCY_ORDERS)[number];

/**
 * The ranking: by median lead time (the vendor's page furthest behind first), or by
 * unposted outages (most first); a vendor without the figure goes after those with it,
 * ties by the other figure, then by slug.
 */
export function rankTransparency(list: readonly VendorTransparency[], order: TransparencyOrder): VendorTransparency[] {
  const lead = (t: VendorTransparency) => t.leadTimeMinutes?.p50 ?? -1;
  const unposted = (t: VendorTransparency) => t.unpostedOutages ?? -1;
  const [first, second] = order === 'lead' ? [lead, unposted] : [unposted, lead];
  return [...list].sort((a, b) => first(b) - first(a) || second(b) - second(a) || a.vendor.localeCompare(b.vendor));
}
