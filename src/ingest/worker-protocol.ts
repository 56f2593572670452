import type { StoredEvent } from '../domain/events.ts';
import type { PollObservation } from '../domain/metrics.ts';
import type { RoundOptions, RoundReport } from './scheduler.ts';

// The messages between the main thread and the polling worker thread (worker-host.ts,
// worker.ts): their own file, so the host does not import the worker's entry module.

/** Commands from the main thread. */
export type WorkerCommand = 'stop' | { cmd: 'round'; id: number; options: Pick<RoundOptions, 'force' | 'vendor'> };

/** Messages to the main thread. */
export type WorkerMessage =
  | { type: 'ready' }
  | { type: 'round'; id: number; report: RoundReport }
  | { type: 'events'; events: StoredEvent[] }
  | { type: 'log'; level: 'info' | 'warn' | 'error' | 'debug'; obj: object; msg?: string }
  | { type: 'polls'; polls: PollObservation[] }
  | { type: 'stopped' };
