import type { Clock } from '../../domain/clock.ts';
import type { SourcesRepository } from '../../store/repositories/sources-repository.ts';

// How fresh the data behind an answer is, the same for every reader (the REST envelope,
// MCP tools): demo or live data, the answer's time, and the last successful poll of any
// source (docs/api.md, the list envelope).

export interface Freshness {
  source: 'demo' | 'live';
  now: Date;
  lastUpdated: string | null;
}

export function freshnessService(d: { sources: Pick<SourcesRepository, 'lastSuccessfulPoll'>; clock: Clock; demo: boolean }) {
  return {
    async current(): Promise<Freshness> {
      const lastUpdated = await d.sources.lastSuccessfulPoll();
      return { source: d.demo ? 'demo' : 'live', now: d.clock.now(), lastUpdated };
    },
  };
}
