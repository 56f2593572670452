import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { Config } from '../infra/config.ts';
import type { CatalogVendor } from '../domain/records.ts';
import { loadCatalog, readCatalog } from '../services/catalog-loader.ts';
import type { Clock } from '../domain/clock.ts';
import { ensureDataMode } from '../services/data-mode.ts';
import type { EventBus } from '../infra/event-bus.ts';
import type { Metrics } from '../domain/metrics.ts';
import type { IngestService } from '../services/ingest-service.ts';
import { repositoriesOn } from '../services/repositories.ts';
import type { Store } from '../store/db.ts';
import { parseSource } from './adapters/index.ts';
import { createHttpFetcher } from '../infra/fetch.ts';
import { createScheduler, type Logger, type PollOutcome, type RoundOptions, type RoundReport, type Scheduler } from './scheduler.ts';
import { createSimulator, type Simulator } from './simulator/index.ts';
import { type IngestWorker, startIngestWorker } from './worker-host.ts';

// Wiring shared by the server and the CLI: the catalog (pointed at the simulated
// fleet in demo mode), the data-mode guard, and the scheduler with its fetcher.

export interface PreparedCatalog {
  catalog: CatalogVendor[];
  /** Running in demo mode only. */
  simulator: Simulator | null;
}

/**
 * Loads the catalog into the store. In demo mode it first starts the simulated fleet
 * on a loopback port and rewrites every source to point at it (slugs stay);
 * `freshDemo` (the server's start) removes a previous fleet's records first.
 */
export async function prepareCatalog(
  store: Store,
  config: Config,
  clock: Clock,
  o: { catalogFile?: string; log?: Logger; freshDemo?: boolean } = {},
): Promise<PreparedCatalog> {
  const repos = repositoriesOn(store.db);
  await ensureDataMode(repos.dataMode, config.demo ? 'demo' : 'live', clock.now(), o.log, { freshDemo: o.freshDemo });
  let catalog = readCatalog(o.catalogFile);
  let simulator: Simulator | null = null;
  if (config.demo) {
    simulator = createSimulator({
      catalog,
      clock,
      seed: config.demoSeed ?? Math.floor(Math.random() * 2 ** 31),
      history: true,
    });
    await simulator.listen(0, '127.0.0.1');
    catalog = simulator.rewriteCatalog(catalog, {
      intervalSeconds: config.pollIntervalSeconds,
      feedIntervalSeconds: config.pollIntervalSeconds * 3,
    });
    o.log?.info({ simulator: simulator.url }, 'demo mode: polling the simulated vendor fleet');
  }
  try {
    await loadCatalog(repos.vendors, catalog, clock.now());
  } catch (err) {
    await simulator?.close();
    throw err;
  }
  return { catalog, simulator };
}

export interface IngestRuntime {
  /** Runs rounds on this thread (CLI, tests); the running schedule may live in a worker. */
  scheduler: Scheduler;
  simulator: Simulator | null;
  /** Starts polling on the schedule — in a worker thread when configured — and, in demo mode, the fleet's clock. */
  start(): void;
  /** One round on the ingestion worker thread, started for it if need be (the benchmark measures the API meanwhile). */
  roundInWorker(options: Pick<RoundOptions, 'force' | 'vendor'>): Promise<RoundReport>;
  close(): Promise<void>;
}

const silentLog: Logger = { info() {}, warn() {}, error() {}, debug() {} };

function instanceId(): string {
  return `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
}

/** A poll outcome as the metrics take it. */
const pollReporter = (metrics: Pick<Metrics, 'polled'>) => (o: PollOutcome) =>
  metrics.polled({ source: o.sourceId, vendor: o.vendor, result: o.status, durationMs: o.durationMs });

export function createIngestRuntime(d: {
  store: Store;
  config: Config;
  clock: Clock;
  ingest: IngestService;
  bus: EventBus;
  simulator: Simulator | null;
  log?: Logger;
  random?: () => number;
  /** Run the schedule in a worker thread (default: config.ingestWorker). */
  worker?: boolean;
  /** Where poll outcomes are counted: this thread's polls, and those the worker thread reports. */
  metrics?: Pick<Metrics, 'polled'>;
}): IngestRuntime {
  const { config } = d;
  const fetcher = createHttpFetcher({ connectionsPerOrigin: config.ingestHostConcurrency, allowList: config.outboundAllowPrivate, connectTimeoutMs: config.ingestTimeoutMs });
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
    onPoll: d.metrics ? pollReporter(d.metrics) : undefined,
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
  const useWorker = d.worker ?? config.ingestWorker;
  let worker: IngestWorker | null = null;
  return {
    scheduler,
    simulator: d.simulator,
    start() {
      d.simulator?.startTimer(
        config.demoStepSeconds * 1000,
        (changes) => {
          if (changes.length) d.log?.debug({ changes: changes.length }, 'simulated fleet stepped');
        },
        { outages: true },
      );
      if (useWorker) worker = startIngestWorker({ config, bus: d.bus, log: d.log ?? silentLog, schedule: true, metrics: d.metrics });
      else scheduler.start();
    },
    roundInWorker(options) {
      worker ??= startIngestWorker({ config, bus: d.bus, log: d.log ?? silentLog, schedule: false, metrics: d.metrics });
      return worker.round(options);
    },
    async close() {
      await worker?.stop();
      await scheduler.stop();
      await fetcher.close();
      await d.simulator?.close();
    },
  };
}
