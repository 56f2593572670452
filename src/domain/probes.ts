// Probes of vendors' public endpoints (docs/early-warning.md "Probes"): what a catalog entry
// may ask to be probed, the per-probe baseline (latency percentiles and error rate over the
// last samples) and the anomaly rule that turns a run of bad samples, never a single one,
// into a `probe` observation. Pure: the runner measures, the store keeps, these decide.

export type ProbeKind = 'http' | 'tcp' | 'dns' | 'tls';
export const PROBE_KINDS: readonly ProbeKind[] = ['http', 'tcp', 'dns', 'tls'];

export type ProbeSpec =
  | { kind: 'http'; url: string; expect: number[] }
  | { kind: 'tcp'; host: string }
  | { kind: 'tls'; host: string }
  | { kind: 'dns'; name: string };

const DNS_NAME = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

/** The host a probe reaches (no port). */
export function probeHost(p: ProbeSpec): string {
  if (p.kind === 'http') return new URL(p.url).hostname;
  if (p.kind === 'dns') return p.name;
  return p.host.slice(0, p.host.lastIndexOf(':'));
}

/** What identifies a probe: its kind and target, the same on every instance. */
export function probeTarget(p: ProbeSpec): string {
  if (p.kind === 'http') return p.url;
  if (p.kind === 'dns') return p.name;
  return p.host;
}

/** True when `host` is one of `domains` or under one. */
export const hostCoveredBy = (host: string, domains: readonly string[]) => domains.some((d) => host === d || host.endsWith(`.${d}`));

/**
 * Checks one catalog probe; the reason it is refused, or null. Targets are names, never
 * address literals, https for http probes, and under the vendor's documented hostnames
 * when the entry lists them (docs/early-warning.md "Probes").
 */
export function probeSpecProblem(raw: unknown, hostnames: readonly string[] | undefined): string | null {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return 'a probe is an object';
  const p = raw as Record<string, unknown>;
  const allowed: Record<ProbeKind, string[]> = { http: ['kind', 'url', 'expect'], tcp: ['kind', 'host'], tls: ['kind', 'host'], dns: ['kind', 'name'] };
  if (!PROBE_KINDS.includes(p.kind as ProbeKind)) return `kind must be one of ${PROBE_KINDS.join(', ')}`;
  const kind = p.kind as ProbeKind;
  const extra = Object.keys(p).find((k) => !allowed[kind].includes(k));
  if (extra) return `unknown field '${extra}'`;
  let host: string;
  if (kind === 'http') {
    if (typeof p.url !== 'string') return 'url must be a string';
    let u: URL;
    try {
      u = new URL(p.url);
    } catch {
      return 'url is not a URL';
    }
    if (u.protocol !== 'https:') return 'url must be https';
    if (u.username || u.password || u.hash) return 'url must carry no credentials or fragment';
    if (!Array.isArray(p.expect) || !p.expect.length || p.expect.some((s) => !Number.isInteger(s) || (s as number) < 100 || (s as number) > 599)) {
      return 'expect must list HTTP statuses (100..599)';
    }
    host = u.hostname;
  } else if (kind === 'dns') {
    if (typeof p.name !== 'string') return 'name must be a string';
    host = p.name;
  } else {
    if (typeof p.host !== 'string') return 'host must be host:port';
    const m = /^(.+):(\d{1,5})$/.exec(p.host);
    if (!m || Number(m[2]) < 1 || Number(m[2]) > 65535) return 'host must be host:port';
    host = m[1]!;
  }
  if (!DNS_NAME.test(host)) return `'${host}' is not a lower-case DNS name`;
  if (hostnames && !hostCoveredBy(host, hostnames)) return `'${host}' is not under the vendor's hostnames`;
  return null;
}

export interface ProbeSample {
  at: string;
  ok: boolean;
  /** Time to the answer (ms); null when there was none. */
  latencyMs: number | null;
  /** Why it failed (a status, a timeout, a refusal); null when it did not. */
  reason: string | null;
}

export interface ProbeRules {
  /** Samples the baseline keeps (latency percentiles and error rate are over these). */
  window: number;
  /** Failed: at least `failN` of the last `failM` samples failed. */
  failN: number;
  failM: number;
  /**
   * Slow: the last `slowN` samples all answered slower than the `slowPercentile` latency ×
   * `slowFactor` of the samples before them. p95, not p99: over 120 samples p99 is the second
   * slowest answer, which one short blip sets, and the rule would then miss a real slowdown.
   */
  slowN: number;
  slowPercentile: number;
  slowFactor: number;
  /** Below this latency (ms) nothing counts as slow, whatever the baseline. */
  slowFloorMs: number;
  /**
   * How many slow answers before the last `slowN` may stay out of the baseline as part of the
   * same slowdown: otherwise a slowdown enters its own p95 after a few samples and stops
   * counting as slow before the hold opens a signal.
   */
  slowRunMax: number;
  /** Good samples the baseline needs before a latency rule applies. */
  minBaseline: number;
  /** Recovered: at most `recoverFailed` of the last `recoverM` samples failed (and no slowdown). */
  recoverM: number;
  recoverFailed: number;
  /** Steps a dismissal relaxes, at most; one step wears off per `relaxDecayMs`. */
  maxRelax: number;
  relaxDecayMs: number;
}

export const DEFAULT_PROBE_RULES: ProbeRules = {
  window: 120,
  failN: 2,
  failM: 3,
  slowN: 3,
  slowPercentile: 95,
  slowFactor: 3,
  slowFloorMs: 250,
  slowRunMax: 20,
  minBaseline: 20,
  recoverM: 8,
  recoverFailed: 1,
  maxRelax: 3,
  relaxDecayMs: 24 * 3_600_000,
};

/** Strength of an observation while a probe is anomalous, and of the one that says it recovered. */
export const PROBE_FAILING_STRENGTH = 0.9;
export const PROBE_RECOVERED_STRENGTH = 0.05;

/** The baseline with one more sample, the oldest beyond the window forgotten. */
export function addSample(samples: readonly ProbeSample[], s: ProbeSample, rules: ProbeRules = DEFAULT_PROBE_RULES): ProbeSample[] {
  const out = [...samples, s];
  return out.length > rules.window ? out.slice(out.length - rules.window) : out;
}

/** Nearest-rank percentile (p in 0..100) of values; null for none. */
export function percentile(values: readonly number[], p: number): number | null {
  if (!values.length) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(Math.max(rank, 1), sorted.length) - 1]!;
}

export interface ProbeStats {
  samples: number;
  p50: number | null;
  p99: number | null;
  /** Failed share of the samples; null before any. */
  errorRate: number | null;
}

export function statsOf(samples: readonly ProbeSample[]): ProbeStats {
  const lat = samples.filter((s) => s.ok && s.latencyMs !== null).map((s) => s.latencyMs!);
  return {
    samples: samples.length,
    p50: percentile(lat, 50),
    p99: percentile(lat, 99),
    errorRate: samples.length ? samples.filter((s) => !s.ok).length / samples.length : null,
  };
}

/**
 * The rules a probe runs under after `steps` relaxations (dismissed false alarms): each
 * step needs one more failed sample among one more recent one and makes "slow" 50 % slower.
 */
export function relaxedRules(rules: ProbeRules, steps: number): ProbeRules {
  const k = Math.min(Math.max(Math.floor(steps), 0), rules.maxRelax);
  return { ...rules, failN: rules.failN + k, failM: rules.failM + k, slowN: rules.slowN + k, slowFactor: rules.slowFactor * (1 + 0.5 * k) };
}

/** Relaxation steps left at `now`: one wears off per decay period since the last dismissal. */
export function relaxLeft(steps: number, relaxedAt: string | null, now: Date, rules: ProbeRules = DEFAULT_PROBE_RULES): number {
  if (!steps || !relaxedAt) return 0;
  const worn = Math.floor((now.getTime() - Date.parse(relaxedAt)) / rules.relaxDecayMs);
  return Math.max(0, Math.min(steps, rules.maxRelax) - Math.max(worn, 0));
}

export interface Anomaly {
  anomalous: boolean;
  reason: string;
}

/**
 * A slowdown at the end of the samples: the last k answers (k from `slowN` to `slowN +
 * slowRunMax`) measured against the p95 × factor of the good samples before them, at least
 * `slowN` of them slower, the first and the newest among those slow or failed. A failed
 * answer does not end the run (a slowdown with stray errors is no healthier than one
 * without), nor does one answer in four under the limit (a slowdown's own spread dips under
 * it now and then); an answer under the floor does. The shortest such run wins; looking
 * further back keeps a slowdown out of its own baseline once it has lasted long enough to
 * move the p95. Null when there is none or not enough baseline.
 */
function slowRun(samples: readonly ProbeSample[], rules: ProbeRules): { k: number; base: number; limit: number } | null {
  for (let k = rules.slowN; k <= rules.slowN + rules.slowRunMax && samples.length - k >= rules.minBaseline; k++) {
    const run = samples.slice(-k);
    // An answer under the floor ends the run: looking further back cannot help.
    if (run.some((s) => s.ok && (s.latencyMs === null || s.latencyMs <= rules.slowFloorMs))) return null;
    const good = samples
      .slice(0, samples.length - k)
      .filter((s) => s.ok && s.latencyMs !== null)
      .map((s) => s.latencyMs!);
    const base = percentile(good, rules.slowPercentile);
    if (base === null || good.length < rules.minBaseline) return null;
    const limit = Math.max(base * rules.slowFactor, rules.slowFloorMs);
    const isSlow = (s: ProbeSample) => s.ok && s.latencyMs! > limit;
    const slow = run.filter(isSlow).length;
    const fast = run.filter((s) => s.ok && !isSlow(s)).length;
    const newest = run[k - 1]!;
    if (isSlow(run[0]!) && (isSlow(newest) || !newest.ok) && slow >= rules.slowN && fast <= Math.floor(k / 4)) return { k, base, limit };
  }
  return null;
}

/** The failing rule: `failN` of the last `failM` samples failed. */
function failingNow(samples: readonly ProbeSample[], rules: ProbeRules): { failed: number; of: number; reason: string } | null {
  const recent = samples.slice(-rules.failM);
  const failed = recent.filter((s) => !s.ok);
  if (recent.length < rules.failN || failed.length < rules.failN) return null;
  return { failed: failed.length, of: recent.length, reason: failed[failed.length - 1]!.reason ?? 'failed' };
}

/**
 * Whether the newest samples make the probe anomalous; a single bad sample never does.
 * Stateless: see `probeStep` for how an anomaly lasts and what each sample tells fusion.
 */
export function anomalyOf(samples: readonly ProbeSample[], rules: ProbeRules = DEFAULT_PROBE_RULES): Anomaly {
  const failing = failingNow(samples, rules);
  if (failing) return { anomalous: true, reason: `${failing.failed} of the last ${failing.of} checks failed (${failing.reason})` };
  const slow = slowRun(samples, rules);
  if (slow) {
    return {
      anomalous: true,
      reason: `the last ${slow.k} answers took over ${Math.round(slow.limit)} ms (p${rules.slowPercentile} ${Math.round(slow.base)} ms × ${rules.slowFactor})`,
    };
  }
  return { anomalous: false, reason: 'within its baseline' };
}

export interface ProbeStep extends Anomaly {
  /** The observation this sample makes for fusion: strong, recovered, or none (null). */
  strength: number | null;
}

/**
 * One sample's effect, given whether the probe was anomalous before it
 * (docs/early-warning.md "Baseline and anomaly"):
 *   - a bad sample (failed or slow) while the anomaly rule holds is a strong observation;
 *   - once anomalous, a good sample makes no observation as long as the probe has not
 *     recovered: a partial outage that fails half the requests does not end its own run
 *     with every good answer, and a good answer never lengthens a run either (the run's
 *     span is that of its bad samples, so a blip is never stretched past the hold);
 *   - recovered (at most `recoverFailed` of the last `recoverM` failed, and neither of the
 *     last two answers part of a slowdown): one weak observation that ends the run.
 */
export function probeStep(samples: readonly ProbeSample[], wasAnomalous: boolean, rules: ProbeRules = DEFAULT_PROBE_RULES): ProbeStep {
  const newest = samples[samples.length - 1];
  const a = anomalyOf(samples, rules);
  if (a.anomalous && newest && (!newest.ok || slowRun(samples, rules))) return { ...a, strength: PROBE_FAILING_STRENGTH };
  if (!wasAnomalous && !a.anomalous) return { ...a, strength: null };
  const lastM = samples.slice(-rules.recoverM);
  const failed = lastM.filter((s) => !s.ok).length;
  const recovered = failed <= rules.recoverFailed && !slowRun(samples, rules) && !slowRun(samples.slice(0, -1), rules);
  if (recovered) return { anomalous: false, reason: 'within its baseline', strength: PROBE_RECOVERED_STRENGTH };
  return { anomalous: true, reason: `still degraded: ${failed} of the last ${lastM.length} checks failed`, strength: null };
}
