import { createHash } from 'node:crypto';
import type { Clock } from '../../domain/clock.ts';
import {
  addSample,
  DEFAULT_PROBE_RULES,
  type ProbeRules,
  type ProbeSample,
  type ProbeSpec,
  probeStep,
  probeTarget,
  relaxedRules,
  relaxLeft,
  statsOf,
} from '../../domain/probes.ts';
import { isCredentialRejection, vendorSamples } from '../../domain/private-probes.ts';
import type { CatalogVendor } from '../../domain/records.ts';
import type { ClaimedProbe, ProbeRow, ProbesRepository } from '../../store/repositories/probes-repository.ts';
import type { EarlyWarningService } from '../early-warning/early-warning-service.ts';

// Probes' use cases (docs/early-warning.md "Probes"): the catalog's probes become rows; a
// runner claims the due ones, measures, and hands each sample here; the sample updates the
// probe's baseline and, when it is a bad sample under the anomaly rule, becomes a `probe`
// observation for every organisation that follows the vendor (one more, weak, when it has
// recovered, so the run ends; none for a good answer in between, `probeStep`). A dismissed false alarm with a probe's evidence relaxes that
// probe's rule. An organisation's private probe (docs/early-warning.md "Private probes") is
// claimed and measured the same way, but its observations go to its organisation alone, and
// a sample its credential was refused for is no observation at all: a revoked key is not the
// vendor failing.

export const probeId = (vendor: string, spec: ProbeSpec) =>
  `prb_${createHash('sha256')
    .update(`${vendor}\n${spec.kind}\n${probeTarget(spec)}`)
    .digest('hex')
    .slice(0, 20)}`;
export const probeActor = (id: string) => `probe:${id}`;

export interface ProbeHealth {
  id: string;
  vendor: string;
  kind: string;
  target: string;
  /** `unknown` until the first sample: nothing was observed yet. */
  state: 'ok' | 'anomalous' | 'unknown';
  reason: string | null;
  samples: number;
  p50Ms: number | null;
  p99Ms: number | null;
  errorRate: number | null;
  lastSampleAt: string | null;
  relaxSteps: number;
}

/** Each probe's state, latency p50/p99 and error rate over its baseline; `unknown` before any sample. */
export async function probeHealth(
  probes: Pick<ProbesRepository, 'list'>,
  now: Date,
  vendor?: string,
  rules: ProbeRules = DEFAULT_PROBE_RULES,
): Promise<ProbeHealth[]> {
  return (await probes.list(vendor)).map((p) => {
    const s = statsOf(p.samples);
    return {
      id: p.id,
      vendor: p.vendor,
      kind: p.spec.kind,
      target: probeTarget(p.spec),
      state: s.samples === 0 ? 'unknown' : p.anomalous ? 'anomalous' : 'ok',
      reason: p.anomalyReason,
      samples: s.samples,
      p50Ms: s.p50,
      p99Ms: s.p99,
      errorRate: s.errorRate,
      lastSampleAt: p.lastSampleAt,
      relaxSteps: relaxLeft(p.relaxSteps, p.relaxedAt, now, rules),
    };
  });
}

export function probesService(d: {
  probes: ProbesRepository;
  signals: Pick<EarlyWarningService, 'observe'>;
  clock: Clock;
  intervalMs: number;
  rules?: ProbeRules;
  random?: () => number;
}) {
  const rules = d.rules ?? DEFAULT_PROBE_RULES;
  const random = d.random ?? Math.random;
  /**
   * The next run: the interval, jittered by a third either way (45 s: 30..60 s), so probes
   * spread out; a private probe's own interval is only ever lengthened (up to a fifth), so it
   * never runs more often than its organisation asked.
   */
  const nextRun = (now: Date, p: ProbeRow) =>
    new Date(now.getTime() + (p.intervalSeconds ? p.intervalSeconds * 1000 * (1 + 0.2 * random()) : d.intervalMs * (2 / 3 + (2 / 3) * random()))).toISOString();

  return {
    /** The catalog's probes as rows (at start-up and when the catalog is reloaded). */
    async syncCatalog(catalog: readonly CatalogVendor[]): Promise<number> {
      const rows = catalog.flatMap((v) =>
        (v.probes ?? []).map((spec) => ({ id: probeId(v.slug, spec), vendor: v.slug, kind: spec.kind, target: probeTarget(spec), spec })),
      );
      await d.probes.sync(rows, d.clock.now());
      return rows.length;
    },

    claimDue(owner: string, limit: number, leaseMs: number): Promise<ClaimedProbe[]> {
      return d.probes.claim({ owner, now: d.clock.now(), leaseMs, limit });
    },

    /**
     * One sample of a claimed probe: the baseline and anomaly are written (false when the
     * lease was lost meanwhile: another instance has it), then the followers observe.
     */
    async record(p: ProbeRow, owner: string, sample: ProbeSample): Promise<{ written: boolean; anomalous: boolean; observations: number }> {
      const now = d.clock.now();
      const steps = relaxLeft(p.relaxSteps, p.relaxedAt, now, rules);
      const samples = addSample(p.samples, sample, rules);
      const a = probeStep(p.orgId ? vendorSamples(samples) : samples, p.anomalous, relaxedRules(rules, steps));
      const written = await d.probes.complete(p.id, owner, {
        samples,
        anomalous: a.anomalous,
        anomalyReason: a.anomalous ? a.reason : null,
        at: sample.at,
        nextRunAt: nextRun(now, p),
        relaxSteps: steps,
      });
      if (!written) return { written, anomalous: a.anomalous, observations: 0 };
      if (a.strength === null) return { written, anomalous: a.anomalous, observations: 0 };
      if (p.orgId && isCredentialRejection(sample)) return { written, anomalous: a.anomalous, observations: 0 };
      const target = probeTarget(p.spec);
      const summary = a.anomalous ? `${p.spec.kind} probe of ${target}: ${a.reason}` : `${p.spec.kind} probe of ${target} answers as usual again`;
      let observations = 0;
      for (const orgId of p.orgId ? [p.orgId] : await d.probes.followers(p.vendor)) {
        await d.signals.observe(orgId, {
          source: 'probe',
          vendor: p.vendor,
          strength: a.strength,
          summary: summary.slice(0, 500),
          actor: probeActor(p.id),
        });
        observations++;
      }
      return { written, anomalous: a.anomalous, observations };
    },

    /** Each probe's state, latency p50/p99 and error rate over its baseline (the CLI's `probes`). */
    health(vendor?: string): Promise<ProbeHealth[]> {
      return probeHealth(d.probes, d.clock.now(), vendor, rules);
    },

    /**
     * A signal was dismissed as a false alarm: each probe among its evidence gets one more
     * relaxation step (docs/early-warning.md "Dismissal tunes probes").
     */
    async relaxFor(evidence: readonly { source: string; actor: string }[]): Promise<number> {
      const now = d.clock.now();
      const ids = [...new Set(evidence.filter((e) => e.source === 'probe' && e.actor.startsWith('probe:')).map((e) => e.actor.slice('probe:'.length)))];
      let relaxed = 0;
      for (const id of ids) {
        const p = await d.probes.get(id);
        if (!p) continue;
        const steps = Math.min(relaxLeft(p.relaxSteps, p.relaxedAt, now, rules) + 1, rules.maxRelax);
        if (await d.probes.relax(id, steps, now)) relaxed++;
      }
      return relaxed;
    },
  };
}

export type ProbesService = ReturnType<typeof probesService>;
