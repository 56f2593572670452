import type { Completion, DeliveriesRepository } from '../store/repositories/deliveries-repository.ts';

// The delivery worker's results, written in small batches: a few milliseconds of
// results go into one transaction (one UPDATE for the successes). A result not
// written leaves its row leased, so it is sent again after the lease under the
// same id (docs/alerts.md "Deliveries and workers").

const FLUSH_MS = 5;

export interface ResultBatchDeps {
  deliveries: Pick<DeliveriesRepository, 'complete'>;
  clock: { now(): Date };
  log?: { error(obj: unknown, msg: string): void };
}

export interface ResultBatches {
  add(c: Completion): void;
  /** Writes what is pending now (at shutdown). */
  flush(): Promise<void>;
}

/** `afterWrite` runs after each batch written (the worker looks for due rows again). */
export function resultBatches(d: ResultBatchDeps, afterWrite: () => void): ResultBatches {
  const pending: Completion[] = [];
  let flushing: Promise<void> | null = null;
  let timer: NodeJS.Timeout | null = null;

  async function write(): Promise<void> {
    while (flushing) await flushing;
    if (!pending.length) return;
    const batch = pending.splice(0);
    flushing = d.deliveries
      .complete(batch, d.clock.now())
      .catch((err) => {
        // Unwritten results: the rows stay leased and are sent again after the lease (same id).
        d.log?.error({ err, count: batch.length }, 'alert delivery: could not record results');
      })
      .finally(() => {
        flushing = null;
      });
    await flushing;
    afterWrite();
  }

  return {
    add(c) {
      pending.push(c);
      if (timer) return;
      timer = setTimeout(() => {
        timer = null;
        void write();
      }, FLUSH_MS);
    },
    async flush() {
      if (timer) clearTimeout(timer);
      timer = null;
      await write();
    },
  };
}
