import type { EventBus } from '../../infra/event-bus.ts';
import type { EarlyWarningService } from './early-warning-service.ts';

// The periodic side of early warning (docs/early-warning.md "Lifecycle"): confirmation
// reads new incidents from the event log when the bus announces events and on every
// tick (what another instance committed); the sweep clears quiet signals and forgets
// those past the retention on every tick, like the alert dispatcher's timer. Runs never
// overlap; a run asked for while one is going happens once after it. All read the
// injected clock: tests call `runOnce`.

type Log = { warn(obj: unknown, msg: string): void };

export interface EarlyWarningRuntime {
  start(): void;
  stop(): Promise<void>;
  /** Confirm from the log, then sweep, then prune what outlived the retention; what each did. */
  runOnce(): Promise<{ confirmed: number; cleared: number; pruned: number }>;
}

export function createEarlyWarningRuntime(o: {
  signals: Pick<EarlyWarningService, 'confirmFromLog' | 'sweep' | 'prune'>;
  bus: EventBus;
  log: Log;
  intervalMs: number;
}): EarlyWarningRuntime {
  let timer: NodeJS.Timeout | null = null;
  let unsubscribe: (() => void) | null = null;
  let running: Promise<unknown> | null = null;
  let again = false;

  const runOnce = async () => {
    const confirmed = await o.signals.confirmFromLog();
    const cleared = await o.signals.sweep();
    const pruned = (await o.signals.prune()).signals;
    return { confirmed, cleared, pruned };
  };
  const kick = () => {
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      try {
        do {
          again = false;
          await runOnce();
        } while (again && timer);
      } catch (err) {
        o.log.warn({ err }, 'early warning: confirming or clearing signals failed; retrying on the next tick');
      } finally {
        running = null;
      }
    })();
  };

  return {
    start() {
      if (timer) return;
      unsubscribe = o.bus.subscribe((events) => {
        if (events.some((e) => e.type === 'incident.created')) kick();
      });
      timer = setInterval(kick, o.intervalMs);
      timer.unref();
    },
    async stop() {
      unsubscribe?.();
      if (timer) clearInterval(timer);
      timer = null;
      await running;
    },
    runOnce,
  };
}
