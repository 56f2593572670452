// A round of background work every `everyMs`, never two at once in this process: a tick
// that finds the previous round still running skips. `stop()` waits for the round in
// flight. The timer does not hold the process open. Used by the probe runner, the telemetry
// evaluator and the self-healing scan.

export interface PeriodicRound {
  start(): void;
  stop(): Promise<void>;
}

export function periodicRound(run: () => Promise<unknown>, o: { everyMs: number; onError: (err: unknown) => void; runAtStart?: boolean }): PeriodicRound {
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<unknown> | null = null;
  const tick = () => {
    if (running) return;
    running = run()
      .catch(o.onError)
      .finally(() => (running = null));
  };
  return {
    start() {
      if (timer) return;
      timer = setInterval(tick, o.everyMs);
      timer.unref();
      if (o.runAtStart) tick();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      await running;
    },
  };
}
