import { parentPort, workerData } from 'node:worker_threads';
import type { Config } from '../infra/config.ts';
import type { EventBus } from '../infra/event-bus.ts';
import type { Metrics, PollObservation } from '../domain/metrics.ts';
import { systemClock } from '../domain/clock.ts';
import { createIngestService } from '../services/index.ts';
import { openStore } from '../store/db.ts';
import { lowerThreadPriority } from '../infra/thread-priority.ts';
import { createPoller } from './poller.ts';
import type { Logger } from './scheduler.ts';
import type { WorkerCommand, WorkerMessage } from './worker-protocol.ts';

// The ingestion worker thread, started by worker-host.ts (through worker-bootstrap.mjs): it
// owns the scheduler (poller.ts) and polls, so fetching, parsing and applying run on their own
// core and API requests on the main thread are not queued behind them. It opens its own
// database connection and hands committed events, log lines and poll outcomes to the main
// thread (worker-protocol.ts), which publishes and counts them.

const port = parentPort!;
const send = (m: WorkerMessage) => port.postMessage(m);
const { config, schedule } = workerData as { config: Config; schedule: boolean };

const log: Logger = {
  info: (obj, msg) => send({ type: 'log', level: 'info', obj, msg }),
  warn: (obj, msg) => send({ type: 'log', level: 'warn', obj, msg }),
  error: (obj, msg) => send({ type: 'log', level: 'error', obj, msg }),
  debug: (obj, msg) => send({ type: 'log', level: 'debug', obj, msg }),
};

const bus: EventBus = {
  publish: (events) => send({ type: 'events', events }),
  subscribe: () => () => {},
};

// Poll outcomes are counted by the main thread's registry (the one /metrics serves):
// gathered for a turn of the event loop, then sent in one message.
let polls: PollObservation[] = [];
const flushPolls = () => {
  if (!polls.length) return;
  send({ type: 'polls', polls });
  polls = [];
};
const metrics: Pick<Metrics, 'polled'> = {
  polled(p) {
    if (!polls.length) setImmediate(flushPolls);
    polls.push(p);
  },
};

// Polling is background work: when the cores are busy, the API thread goes first
// (docs/ingestion.md "The API thread first").
if (config.ingestWorkerNice > 0) lowerThreadPriority(config.ingestWorkerNice);
const store = openStore(config);
const poller = createPoller({ store, config, clock: systemClock, ingest: createIngestService(store, config, systemClock, bus), log, metrics });

port.on('message', (m: WorkerCommand) => {
  if (typeof m === 'object' && m.cmd === 'round') {
    void poller.scheduler.runRound(m.options).then(
      (report) => {
        // The round's outcomes are counted before its caller hears it is over.
        flushPolls();
        send({ type: 'round', id: m.id, report });
      },
      (err) => {
        log.error({ err }, 'round failed');
        send({ type: 'round', id: m.id, report: { outcomes: [], durationMs: 0, events: 0 } });
      },
    );
    return;
  }
  if (m !== 'stop') return;
  void (async () => {
    await poller.close();
    await store.close();
    flushPolls();
    send({ type: 'stopped' });
    port.close();
  })();
});

if (schedule) poller.scheduler.start();
send({ type: 'ready' });
