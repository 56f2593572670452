import { createHash } from 'node:crypto';
import type { SignalState } from './early-warning.ts';

// Early-warning alerts (docs/alerts.md "Early warning"): what a signal's transition sends.
// A signal is our suspicion, never the vendor's status: the wording says so in every
// channel. Pure: the scanner (src/alerts/signal-alerts.ts) reads the transitions and the
// routes, these rules word the alert and name its row.

/** The alert kind a route opts into (docs/alert-routes.md "Filters"); off unless listed. */
export const EARLY_WARNING_KIND = 'early_warning';

/** One event type per transition: the opening, then updates in the same thread. */
export const SIGNAL_ALERT_TYPES = ['early_warning.suspected', 'early_warning.confirmed', 'early_warning.cleared', 'early_warning.dismissed'] as const;
export type SignalAlertType = (typeof SIGNAL_ALERT_TYPES)[number];

export const SIGNAL_ALERT_LABELS: Record<SignalAlertType, string> = {
  'early_warning.suspected': 'Suspected problem (early warning)',
  'early_warning.confirmed': 'Early warning confirmed by the vendor',
  'early_warning.cleared': 'Early warning cleared',
  'early_warning.dismissed': 'Early warning dismissed',
};

export const isSignalAlertType = (t: string): t is SignalAlertType => (SIGNAL_ALERT_TYPES as readonly string[]).includes(t);

/** The transition `to` a state, as its alert's type. */
export const signalAlertType = (to: SignalState): SignalAlertType => `early_warning.${to}` as SignalAlertType;

/** Types that close what the opening alert opened (a page, an incident tool's alert). */
export const SIGNAL_CLOSING_TYPES: readonly string[] = ['early_warning.cleared', 'early_warning.dismissed'];

/** Whether an alert of this type closes what earlier alerts of its entity opened. */
export const isClosingType = (t: string) => t === 'incident.resolved' || t === 'maintenance.completed' || SIGNAL_CLOSING_TYPES.includes(t);

/** One row per (route, transition), whichever instance writes it and however often. */
export const signalAlertRowId = (routeId: string, transitionId: string) =>
  `dlv_${createHash('sha256').update(`early_warning\u0000${routeId}\u0000${transitionId}`).digest('hex').slice(0, 32)}`;

/** A signal's transition as its alert reads it. */
export interface SignalAlertInput {
  signal: {
    id: string;
    vendor: string;
    state: SignalState;
    confidence: number;
    components: string[];
    regions: string[];
    openedAt: string;
    lastObservedAt: string;
    incidentId: string | null;
  };
  transition: { id: string; from: SignalState | null; to: SignalState; at: string; actor: string; reason: string };
  /** The newest observations first (source, summary, time). */
  evidence: { source: string; strength: number; summary: string; observedAt: string }[];
  vendorName: string;
}

/** Observations an alert lists at most (the signal list has them all). */
export const ALERT_EVIDENCE = 5;

const pct = (x: number) => `${Math.round(x * 100)} %`;

const TITLES: Record<SignalState, string> = {
  suspected: "suspected problem: our early warning, not the vendor's status",
  confirmed: 'early warning confirmed: the vendor posted an incident',
  cleared: 'early warning cleared: recovered without a vendor incident',
  dismissed: 'early warning dismissed as a false alarm',
};

/**
 * The alert's payload: shaped like a record where the channels read one (title, status,
 * impact, components, updates), so every channel's builder words it, plus the signal's own
 * fields. `impact` is `unknown`: a suspicion measures no impact of the vendor's.
 */
export function signalAlertPayload(i: SignalAlertInput): Record<string, unknown> {
  const s = i.signal;
  const t = i.transition;
  const evidence = i.evidence.slice(0, ALERT_EVIDENCE);
  const sources = [...new Set(i.evidence.map((e) => e.source))].sort();
  const lines = [
    t.to === 'suspected'
      ? `Our own inputs suggest ${i.vendorName} is failing; ${i.vendorName}'s status page says nothing of it yet. Confidence ${pct(s.confidence)} from ${sources.join(', ') || 'no source'}.`
      : `${t.reason.charAt(0).toUpperCase()}${t.reason.slice(1)}.`,
    ...(t.to === 'confirmed' && s.incidentId ? [`The vendor's incident ${s.incidentId} continues in this thread.`] : []),
    ...evidence.map((e) => `• ${e.source} (${pct(e.strength)}, ${e.observedAt}): ${e.summary || '(no summary)'}`),
  ];
  return {
    id: s.id,
    kind: EARLY_WARNING_KIND,
    vendor: s.vendor,
    vendorName: i.vendorName,
    title: TITLES[t.to],
    status: t.to,
    impact: 'unknown',
    components: s.components,
    regions: s.regions,
    confidence: s.confidence,
    openedAt: s.openedAt,
    lastObservedAt: s.lastObservedAt,
    incidentId: s.incidentId,
    url: null,
    transition: { from: t.from, to: t.to, at: t.at, actor: t.actor, reason: t.reason },
    evidence,
    updates: [{ status: t.to, body: lines.join('\n'), createdAt: t.at }],
  };
}
