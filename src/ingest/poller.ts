import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { Clock } from '../domain/clock.ts';
import type { Metrics } from '../domain/metrics.ts';
import { createHttpFetcher } from '../infra/fetch.ts';
import type { Config } from '../infra/config.ts';
import type { IngestService } from '../services/ingest/ingest-service.ts';
import { repositoriesOn } from '../services/repositories.ts';
import type { Store } from '../store/db.ts';
import { parseSource } from './adapters/index.ts';
import { createScheduler, type Logger, type Scheduler } from './scheduler.ts';

// The one place a scheduler is built from the configuration: over the store's sources and
// events, with its own outbound connection pool and the adapters' parser (docs/ingestion.md,
// "Scheduler"). The worker thread builds one (worker.ts); the main thread builds one only
// when it polls itself: INGEST_WORKER=false, `ingest --once`, a round a test asks for (runtime.ts).

export interface Poller {
  scheduler: Scheduler;
  /** Stops the scheduler (polls in flight aborted, their leases freed) and closes its connections. */
  close(): Promise<void>;
}

function instanceId(): string {
  return `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
}

export function createPoller(d: {
  store: Store;
  config: Config;
  clock: Clock;
  ingest: IngestService;
  log?: Logger;
  random?: () => number;
  /** Where poll outcomes are counted (the worker thread hands them to the main thread's registry). */
  metrics?: Pick<Metrics, 'polled'>;
}): Poller {
  const { config, metrics } = d;
  const fetcher = createHttpFetcher({
    connectionsPerOrigin: config.ingestHostConcurrency,
    allowList: config.outboundAllowPrivate,
    connectTimeoutMs: config.ingestTimeoutMs,
  });
  const repos = repositoriesOn(d.store.db);
  const scheduler = createScheduler({
    sources: repos.sources,
    events: repos.events,
    ingest: d.ingest,
    fetcher,
    parse: parseSource,
    clock: d.clock,
    owner: instanceId(),
    random: d.random,
    log: d.log,
    onPoll: metrics
      ? (o) =>
          metrics.polled({
            source: o.sourceId,
            vendor: o.vendor,
            result: o.status,
            durationMs: o.durationMs,
            trigger: o.trigger,
            ...(o.freshness ? { freshness: o.freshness } : {}),
          })
      : undefined,
    settings: {
      concurrency: config.ingestConcurrency,
      perHost: config.ingestHostConcurrency,
      timeoutMs: config.ingestTimeoutMs,
      maxBytes: config.ingestMaxBytes,
      defaultIntervalSeconds: config.pollIntervalSeconds,
      eventRetentionDays: config.eventRetentionDays,
      leaseMs: config.ingestLeaseSeconds * 1000,
    },
  });
  return {
    scheduler,
    async close() {
      await scheduler.stop();
      await fetcher.close();
    },
  };
}
