import { Worker } from 'node:worker_threads';
import type { Config } from '../infra/config.ts';
import type { EventBus } from '../infra/event-bus.ts';
import type { Metrics } from '../domain/metrics.ts';
import type { Logger, RoundOptions, RoundReport } from './scheduler.ts';
import type { WorkerCommand, WorkerMessage } from './worker-protocol.ts';

// Main-thread side of the ingestion worker thread (worker.ts, which owns the scheduler):
// starts it, republishes its events on the process's bus, relays its log lines and poll
// outcomes (counted in this thread's metrics registry), restarts it if it dies, stops it
// on close. It only sends commands and receives messages (worker-protocol.ts).

const BOOTSTRAP = new URL('./worker-bootstrap.mjs', import.meta.url);
// worker.ts from source (tests), worker.js in the build (docs/deployment.md, "Runtime").
const ENTRY = new URL(`./worker${import.meta.url.slice(import.meta.url.lastIndexOf('.'))}`, import.meta.url).href;
const RESTART_DELAY_MS = 5_000;

/**
 * How long a stopping worker may take to abort its polls and free their leases
 * before it is terminated (leases then run out on their own): within the
 * process's shutdown bound, and never more than 15 s.
 */
const stopTimeoutMs = (config: Config) => Math.min(15_000, Math.max(500, (config.shutdownTimeoutSeconds * 1000) / 2));

export interface IngestWorker {
  /** One round on the worker thread (the caller's thread stays free). */
  round(options: Pick<RoundOptions, 'force' | 'vendor'>): Promise<RoundReport>;
  stop(): Promise<void>;
}

/** `schedule`: run the polling schedule; otherwise the worker only runs rounds it is asked for. */
export function startIngestWorker(o: { config: Config; bus: EventBus; log: Logger; schedule: boolean; metrics?: Pick<Metrics, 'polled'> }): IngestWorker {
  let worker: Worker | null = null;
  let stopping = false;
  let restartTimer: NodeJS.Timeout | null = null;
  let nextId = 1;
  const rounds = new Map<number, { resolve: (r: RoundReport) => void; reject: (err: Error) => void }>();

  const spawn = () => {
    const w = new Worker(BOOTSTRAP, { workerData: { entry: ENTRY, config: o.config, schedule: o.schedule }, name: 'ingest' });
    worker = w;
    w.on('message', (m: WorkerMessage) => {
      if (m.type === 'events') o.bus.publish(m.events);
      else if (m.type === 'log') o.log[m.level](m.obj, m.msg);
      else if (m.type === 'polls') for (const p of m.polls) o.metrics?.polled(p);
      else if (m.type === 'round') {
        rounds.get(m.id)?.resolve(m.report);
        rounds.delete(m.id);
      }
    });
    w.on('error', (err) => o.log.error({ err }, 'ingestion worker failed'));
    w.on('exit', (code) => {
      if (worker === w) worker = null;
      for (const r of rounds.values()) r.reject(new Error(`the ingestion worker exited (${code}) during a round`));
      rounds.clear();
      if (stopping) return;
      o.log.error({ code }, `ingestion worker exited; restarting in ${RESTART_DELAY_MS / 1000} s`);
      restartTimer = setTimeout(spawn, RESTART_DELAY_MS);
      restartTimer.unref();
    });
  };
  spawn();

  return {
    round(options) {
      const w = worker;
      if (!w) return Promise.reject(new Error('the ingestion worker is not running'));
      const id = nextId++;
      return new Promise<RoundReport>((resolve, reject) => {
        rounds.set(id, { resolve, reject });
        w.postMessage({ cmd: 'round', id, options } satisfies WorkerCommand);
      });
    },
    async stop() {
      stopping = true;
      if (restartTimer) clearTimeout(restartTimer);
      const w = worker;
      if (!w) return;
      const exited = new Promise<void>((resolve) => w.once('exit', () => resolve()));
      w.postMessage('stop');
      // Polls in flight are aborted by the worker; if it does not finish in time it is terminated.
      const timer = setTimeout(() => {
        o.log.warn({ timeoutMs: stopTimeoutMs(o.config) }, 'ingestion worker did not stop in time; terminating it');
        void w.terminate();
      }, stopTimeoutMs(o.config));
      await exited;
      clearTimeout(timer);
    },
  };
}
