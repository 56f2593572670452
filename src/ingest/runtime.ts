import type { Clock } from '../domain/clock.ts';
import type { Metrics } from '../domain/metrics.ts';
import type { Config } from '../infra/config.ts';
import type { EventBus } from '../infra/event-bus.ts';
import type { IngestService } from '../services/ingest/ingest-service.ts';
import type { Store } from '../store/db.ts';
import { createPoller, type Poller } from './poller.ts';
import type { Logger, RoundOptions, RoundReport, Scheduler } from './scheduler.ts';
import type { Simulator } from './simulator/index.ts';
import { type IngestWorker, startIngestWorker } from './worker-host.ts';

// Ingestion as the server and the CLI hold it: polling started and stopped, in the worker
// thread (worker-host.ts starts it, worker.ts polls there) or, with INGEST_WORKER=false, on
// this thread; and, in demo mode, the simulated fleet's clock (docs/ingestion.md, "Scheduler").

export interface IngestRuntime {
  /**
   * The scheduler of this thread, built on first use: rounds run here (`ingest --once`, tests),
   * and the schedule when it does not run in the worker thread. A server whose schedule runs
   * in the worker never builds it.
   */
  readonly scheduler: Scheduler;
  simulator: Simulator | null;
  /** Starts polling on the schedule — in the worker thread when configured — and, in demo mode, the fleet's clock. */
  start(): void;
  /** One round on the ingestion worker thread, started for it if need be (the benchmark measures the API meanwhile). */
  roundInWorker(options: Pick<RoundOptions, 'force' | 'vendor'>): Promise<RoundReport>;
  close(): Promise<void>;
}

const silentLog: Logger = { info() {}, warn() {}, error() {}, debug() {} };

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
  const useWorker = d.worker ?? config.ingestWorker;
  let here: Poller | null = null;
  let worker: IngestWorker | null = null;
  const pollHere = () =>
    (here ??= createPoller({ store: d.store, config, clock: d.clock, ingest: d.ingest, log: d.log, random: d.random, metrics: d.metrics }));
  const startWorker = (schedule: boolean) => startIngestWorker({ config, bus: d.bus, log: d.log ?? silentLog, schedule, metrics: d.metrics });
  return {
    get scheduler() {
      return pollHere().scheduler;
    },
    simulator: d.simulator,
    start() {
      d.simulator?.startTimer(
        config.demoStepSeconds * 1000,
        (changes) => {
          if (changes.length) d.log?.debug({ changes: changes.length }, 'simulated fleet stepped');
        },
        { outages: true },
      );
      if (useWorker) worker = startWorker(true);
      else pollHere().scheduler.start();
    },
    roundInWorker(options) {
      worker ??= startWorker(false);
      return worker.round(options);
    },
    async close() {
      await worker?.stop();
      await here?.close();
      await d.simulator?.close();
    },
  };
}
