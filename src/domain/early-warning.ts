// Early warning (docs/early-warning.md): what an organisation sees of a vendor before the
// vendor's own page says so. Observations come from four kinds of source; fusion opens a
// signal when two independent sources agree within a window, or when one strong source
// holds past its threshold for its duration. A signal is only ever `suspected` by us: the
// vendor's status stays what the vendor reports. Pure: no I/O.

export const OBSERVATION_SOURCES = ['probe', 'telemetry', 'inbound', 'report'] as const;
export type ObservationSource = (typeof OBSERVATION_SOURCES)[number];

export const SIGNAL_STATES = ['suspected', 'confirmed', 'cleared', 'dismissed'] as const;
export type SignalState = (typeof SIGNAL_STATES)[number];

/** Severities an inbound signal may carry, and the strength each stands for. */
export const SIGNAL_SEVERITIES = ['minor', 'major', 'critical'] as const;
export type SignalSeverity = (typeof SIGNAL_SEVERITIES)[number];
export const SEVERITY_STRENGTH: Record<SignalSeverity, number> = { minor: 0.4, major: 0.7, critical: 0.9 };

/** A member's report counts this much: never strong alone, a quorum of members is (rules). */
export const REPORT_STRENGTH = 0.5;

export const MAX_SIGNAL_COMPONENTS = 20;
export const MAX_SIGNAL_REGIONS = 20;
export const MAX_SIGNAL_SUMMARY = 500;

/** One thing a source saw of a vendor, owned by the organisation whose input it was. */
export interface Observation {
  id: string;
  orgId: string;
  source: ObservationSource;
  vendor: string;
  components: string[];
  regions: string[];
  /** 0..1: how sure the source is that the vendor is failing. */
  strength: number;
  observedAt: string;
  summary: string;
  /** Who made it: the reporting member, the inbound message's id, the probe's target. Reports count once per actor. */
  actor: string;
}

export interface Signal {
  id: string;
  orgId: string;
  vendor: string;
  state: SignalState;
  /** 0..1, from the strongest observation of each source kind (confidenceOf). */
  confidence: number;
  components: string[];
  regions: string[];
  openedAt: string;
  updatedAt: string;
  lastObservedAt: string;
  /** The vendor's incident that confirmed it. */
  incidentId: string | null;
  /** Ids of the observations it rests on, oldest first. */
  evidence: string[];
}

export interface SignalTransition {
  signalId: string;
  from: SignalState | null;
  to: SignalState;
  at: string;
  /** `system`, `ingest` or `user:<id>`. */
  actor: string;
  reason: string;
}

/** How one kind of source may open a signal on its own (null: never alone). */
export interface SoloRule {
  /** Strength a sample needs to count as strong. */
  threshold: number;
  /** How long an unbroken run of strong samples must last, from its first to its last. */
  holdMs: number;
  /** Samples the run needs at least (one sample is never enough). */
  minSamples: number;
  /** Distinct actors the run needs (reports: distinct members). */
  distinctActors: number;
}

export interface EarlyWarningRules {
  /** Observations older than this before now take no part in fusion. */
  windowMs: number;
  /** A sample below this strength never counts towards agreement. */
  agreeMinStrength: number;
  solo: Record<ObservationSource, SoloRule | null>;
  /** A suspected signal with no observation for this long, and no incident, is cleared. */
  quietMs: number;
  /** An incident confirms a signal when it starts no earlier than this before the signal opened. */
  confirmLeadMs: number;
  /** ...and no later than this after the signal's last observation. */
  confirmLagMs: number;
}

const MIN = 60_000;

export const DEFAULT_RULES: EarlyWarningRules = {
  windowMs: 15 * MIN,
  agreeMinStrength: 0.3,
  solo: {
    probe: { threshold: 0.8, holdMs: 3 * MIN, minSamples: 3, distinctActors: 1 },
    telemetry: { threshold: 0.8, holdMs: 5 * MIN, minSamples: 3, distinctActors: 1 },
    inbound: { threshold: 0.9, holdMs: 5 * MIN, minSamples: 2, distinctActors: 1 },
    report: { threshold: REPORT_STRENGTH, holdMs: 0, minSamples: 3, distinctActors: 3 },
  },
  quietMs: 30 * MIN,
  confirmLeadMs: 30 * MIN,
  confirmLagMs: 2 * 60 * MIN,
};

const ms = (iso: string) => Date.parse(iso);
const round2 = (n: number) => Math.round(n * 100) / 100;

/** Signals that still take observations: suspected ones, and confirmed ones until their quiet period ends. */
export function takesObservations(s: Signal, now: Date, rules: EarlyWarningRules = DEFAULT_RULES): boolean {
  if (s.state === 'suspected') return true;
  return s.state === 'confirmed' && ms(s.lastObservedAt) + rules.quietMs > now.getTime();
}

/** 1 − Π(1 − strongest of each source kind), at most 0.99: two weak kinds outweigh one. */
export function confidenceOf(obs: readonly Observation[]): number {
  const best = new Map<ObservationSource, number>();
  for (const o of obs) best.set(o.source, Math.max(best.get(o.source) ?? 0, o.strength));
  let miss = 1;
  for (const s of best.values()) miss *= 1 - Math.min(Math.max(s, 0), 1);
  return round2(Math.min(1 - miss, 0.99));
}

export type FusionOutcome = { open: false } | { open: true; reason: string; evidence: Observation[]; confidence: number };

/** The unbroken run of strong samples of one source that ends with its newest sample. */
function strongRun(samples: readonly Observation[], rule: SoloRule): Observation[] {
  const run: Observation[] = [];
  for (let i = samples.length - 1; i >= 0; i--) {
    if (samples[i]!.strength < rule.threshold) break;
    run.unshift(samples[i]!);
  }
  return run;
}

/**
 * Whether the observations of one organisation about one vendor open a signal now.
 * Only observations inside the window count, and only those after `since` (the last
 * signal about the vendor that closed: what a dismissed alarm rested on never opens
 * another). Agreement: two source kinds, each with a sample of at least
 * `agreeMinStrength`. Solo: a kind's newest samples, all strong, last `holdMs` with
 * `minSamples` samples from `distinctActors` actors.
 */
export function fuse(observations: readonly Observation[], now: Date, rules: EarlyWarningRules = DEFAULT_RULES, since: string | null = null): FusionOutcome {
  const from = now.getTime() - rules.windowMs;
  const floor = since ? ms(since) : -Infinity;
  const live = observations
    .filter((o) => ms(o.observedAt) >= from && ms(o.observedAt) > floor && ms(o.observedAt) <= now.getTime())
    .sort((a, b) => ms(a.observedAt) - ms(b.observedAt) || a.id.localeCompare(b.id));
  const agreeing = live.filter((o) => o.strength >= rules.agreeMinStrength);
  const kinds = OBSERVATION_SOURCES.filter((k) => agreeing.some((o) => o.source === k));
  if (kinds.length >= 2) {
    return {
      open: true,
      reason: `${kinds.join(' and ')} agree within ${Math.round(rules.windowMs / MIN)} min`,
      evidence: agreeing,
      confidence: confidenceOf(agreeing),
    };
  }
  for (const source of OBSERVATION_SOURCES) {
    const rule = rules.solo[source];
    if (!rule) continue;
    const run = strongRun(
      live.filter((o) => o.source === source),
      rule,
    );
    if (run.length < Math.max(rule.minSamples, 2)) continue;
    if (new Set(run.map((o) => o.actor)).size < rule.distinctActors) continue;
    const held = ms(run[run.length - 1]!.observedAt) - ms(run[0]!.observedAt);
    if (held < rule.holdMs) continue;
    return {
      open: true,
      reason: `${source} strong (≥ ${rule.threshold}) for ${Math.round(held / 1000)} s over ${run.length} samples`,
      evidence: run,
      confidence: round2(Math.min(run.reduce((a, o) => a + o.strength, 0) / run.length, 0.99)),
    };
  }
  return { open: false };
}

/** Names of components or regions, compared without case and surrounding space. */
const norm = (xs: readonly string[]) => new Set(xs.map((x) => x.trim().toLowerCase()).filter(Boolean));

/** Both name some and none is shared: they disagree. Either names none: no disagreement. */
export function overlapOrUnnamed(a: readonly string[], b: readonly string[]): boolean {
  const na = norm(a);
  const nb = norm(b);
  if (!na.size || !nb.size) return true;
  for (const x of na) if (nb.has(x)) return true;
  return false;
}

/** What of a vendor's incident confirmation reads. */
export interface IncidentFacts {
  id: string;
  vendor: string;
  components: string[];
  regions: string[];
  startedAt: string;
}

/**
 * Whether a vendor's incident confirms a signal: same vendor, components and regions
 * overlapping when both name any, and started between `confirmLeadMs` before the signal
 * opened and `confirmLagMs` after its last observation. A cleared signal is confirmed too:
 * an outage that recovered before the vendor posted is still one the vendor admits late
 * (docs/early-warning.md "Lifecycle").
 */
export function incidentConfirms(s: Signal, i: IncidentFacts, rules: EarlyWarningRules = DEFAULT_RULES): boolean {
  if ((s.state !== 'suspected' && s.state !== 'cleared') || s.vendor !== i.vendor) return false;
  if (!overlapOrUnnamed(s.components, i.components) || !overlapOrUnnamed(s.regions, i.regions)) return false;
  const started = ms(i.startedAt);
  if (Number.isNaN(started)) return false;
  return started >= ms(s.openedAt) - rules.confirmLeadMs && started <= ms(s.lastObservedAt) + rules.confirmLagMs;
}

/** Whether a suspected signal is due to clear: nothing observed for the quiet period. */
export function isQuiet(s: Signal, now: Date, rules: EarlyWarningRules = DEFAULT_RULES): boolean {
  return s.state === 'suspected' && ms(s.lastObservedAt) + rules.quietMs <= now.getTime();
}

const ALLOWED: Record<SignalState, readonly SignalState[]> = {
  suspected: ['confirmed', 'cleared', 'dismissed'],
  confirmed: ['dismissed'],
  // A vendor's post within the confirmation window still confirms it (incidentConfirms).
  cleared: ['confirmed'],
  dismissed: [],
};

/** Whether the lifecycle allows going from one state to another. */
export const canMove = (from: SignalState, to: SignalState) => ALLOWED[from].includes(to);

/** A signal's components and regions: the union of its evidence's, first seen first, capped. */
export function scopeOf(obs: readonly Observation[]): { components: string[]; regions: string[] } {
  const union = (pick: (o: Observation) => string[], cap: number) => {
    const seen = new Map<string, string>();
    for (const o of obs) for (const x of pick(o)) if (!seen.has(x.toLowerCase())) seen.set(x.toLowerCase(), x);
    return [...seen.values()].slice(0, cap);
  };
  return { components: union((o) => o.components, MAX_SIGNAL_COMPONENTS), regions: union((o) => o.regions, MAX_SIGNAL_REGIONS) };
}
