import type { Audience } from '../../domain/audience.ts';
import type { SourceHealth } from '../../domain/records.ts';
import { foldHealth, type ObservedSpan, observedSpan, type SourcePollState, staleAfterMs } from '../../domain/source-health.ts';
import type { SourcesRepository } from '../../store/repositories/sources-repository.ts';
import type { Clock } from '../../domain/clock.ts';

// Source health per vendor, the observed span that uptime is computed over, and
// the ingestion part of readiness (docs/operations.md "Source health").

export interface IngestReadiness {
  sources: number;
  /** Sources polled at least once (successfully or not). */
  polled: number;
  failing: number;
  /** Newest successful poll of any source. */
  lastSuccessAt: string | null;
  /** Null when ingestion looks healthy; otherwise why readiness is degraded. */
  problem: 'most_sources_failing' | 'no_recent_poll' | null;
}

/** Readiness judges failures once this many sources have been polled (docs/operations.md, "Liveness and readiness"). */
export const READINESS_MIN_POLLED = 5;

const NEVER: SourceHealth = { lastSuccessAt: null, lastErrorAt: null, lastError: null, stale: false };

function byVendor(rows: SourcePollState[]): Map<string, SourcePollState[]> {
  const out = new Map<string, SourcePollState[]>();
  for (const r of rows) out.set(r.vendor, [...(out.get(r.vendor) ?? []), r]);
  return out;
}

export function sourceHealthService(d: { sources: SourcesRepository; clock: Clock; defaultIntervalSeconds: number }) {
  const fold = (rows: SourcePollState[]) => foldHealth(rows, d.clock.now(), d.defaultIntervalSeconds);
  const span = (rows: SourcePollState[]) => observedSpan(rows, d.clock.now(), d.defaultIntervalSeconds);
  return {
    async forVendor(slug: string): Promise<SourceHealth> {
      return fold(await d.sources.pollStates(slug));
    },

    /** Catalog vendors that have a source now (the metrics keep poll series of these only). */
    async polledVendors(): Promise<string[]> {
      return [...new Set((await d.sources.pollStates(undefined, { catalogOnly: true })).map((r) => r.vendor))];
    },

    /** Every vendor's health in one query; a vendor without sources is absent. */
    async byVendor(audience: Audience): Promise<Map<string, SourceHealth>> {
      const out = new Map<string, SourceHealth>();
      for (const [vendor, rows] of byVendor(await d.sources.pollStates(undefined, { audience }))) out.set(vendor, fold(rows));
      return out;
    },

    /** Observed span per vendor (one query); vendors without sources are never observed. */
    async observed(slugs: string[] | undefined, audience: Audience): Promise<(vendor: string) => ObservedSpan> {
      const rows = slugs?.length === 1 ? await d.sources.pollStates(slugs[0]) : await d.sources.pollStates(undefined, { audience });
      const grouped = byVendor(rows);
      const nowIso = d.clock.now().toISOString();
      return (vendor) => {
        const r = grouped.get(vendor);
        return r ? span(r) : { from: null, until: nowIso };
      };
    },

    /**
     * Degraded when most of the sources polled so far are failing (judged once
     * READINESS_MIN_POLLED sources, or all of them, have been polled: a fresh
     * start is judged on its first polls, not on the whole catalog), or when no
     * source has polled successfully for the stale threshold (counted from
     * `since`, the process start, while nothing has ever succeeded).
     */
    async readiness(since: Date): Promise<IngestReadiness> {
      const rows = await d.sources.pollStates(undefined, { catalogOnly: true });
      const now = d.clock.now();
      let lastSuccessAt: string | null = null;
      let failing = 0;
      let polled = 0;
      for (const r of rows) {
        if (r.lastSuccessAt && (!lastSuccessAt || r.lastSuccessAt > lastSuccessAt)) lastSuccessAt = r.lastSuccessAt;
        if (r.consecutiveFailures > 0) failing++;
        if (r.lastSuccessAt || r.lastErrorAt) polled++;
      }
      let problem: IngestReadiness['problem'] = null;
      if (polled >= Math.min(READINESS_MIN_POLLED, rows.length) && polled && failing * 2 > polled) problem = 'most_sources_failing';
      else if (rows.length) {
        const last = Math.max(lastSuccessAt ? Date.parse(lastSuccessAt) : 0, since.getTime());
        if (now.getTime() - last > staleAfterMs(null, d.defaultIntervalSeconds)) problem = 'no_recent_poll';
      }
      return { sources: rows.length, polled, failing, lastSuccessAt, problem };
    },

    /** Health of a vendor without sources. */
    NEVER,
  };
}

export type SourceHealthService = ReturnType<typeof sourceHealthService>;
