// Concurrency limits for polling: a global cap and a cap per key (the host), so
// one vendor's host never gets more than a few of our requests at once and a slow
// host can only tie up its own share of the slots.

interface Waiter {
  key: string;
  start: () => void;
}

export class KeyedLimiter {
  private active = 0;
  private readonly perKeyActive = new Map<string, number>();
  private readonly queue: Waiter[] = [];

  readonly global: number;
  readonly perKey: number;

  constructor(global: number, perKey: number) {
    this.global = global;
    this.perKey = perKey;
    if (global < 1 || perKey < 1) throw new Error('limits must be at least 1');
  }

  get running(): number {
    return this.active;
  }

  get waiting(): number {
    return this.queue.length;
  }

  async run<T>(key: string, task: () => Promise<T>): Promise<T> {
    await new Promise<void>((resolve) => {
      this.queue.push({ key, start: resolve });
      this.drain();
    });
    try {
      return await task();
    } finally {
      this.active--;
      const n = (this.perKeyActive.get(key) ?? 1) - 1;
      if (n === 0) this.perKeyActive.delete(key);
      else this.perKeyActive.set(key, n);
      this.drain();
    }
  }

  /** Starts waiters in arrival order, skipping (not blocking on) those whose key is full. */
  private drain() {
    for (let i = 0; i < this.queue.length && this.active < this.global; ) {
      const w = this.queue[i];
      const n = this.perKeyActive.get(w.key) ?? 0;
      if (n >= this.perKey) {
        i++;
        continue;
      }
      this.queue.splice(i, 1);
      this.active++;
      this.perKeyActive.set(w.key, n + 1);
      w.start();
    }
  }
}
