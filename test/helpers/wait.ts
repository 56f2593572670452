// Waiting in tests: one poll loop for state that has no event to wait on (a row
// written by a worker, a log line of a child process, an instance that answers again).
// The machine may be loaded (docs/testing.md, "Speed"), so callers pick generous deadlines.

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export interface WaitOptions {
  /** What is awaited, for the timeout error; a function is read only when it times out (to add a child's stderr). */
  message: string | (() => string);
  /** 5 s unless given. */
  timeoutMs?: number;
  /** Pause between two checks; 50 ms unless given. */
  intervalMs?: number;
  /** A check that throws has not held yet (a server that is still down); otherwise the error ends the wait. */
  retryErrors?: boolean;
}

/** Not there yet: the check is asked again. */
type Pending = undefined | false;

/**
 * Calls `check` until it returns something other than `undefined` or `false`, and
 * returns that; throws when `timeoutMs` passes first.
 */
export async function waitFor<T>(check: () => T | Promise<T>, options: WaitOptions): Promise<Exclude<T, Pending>> {
  const { timeoutMs = 5_000, intervalMs = 50, retryErrors = false } = options;
  const end = performance.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined && value !== false) return value as Exclude<T, Pending>;
    } catch (err) {
      if (!retryErrors) throw err;
      lastError = err;
    }
    if (performance.now() > end) {
      const what = typeof options.message === 'function' ? options.message() : options.message;
      const cause = lastError instanceof Error ? ` (last error: ${lastError.message})` : '';
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${cause}`);
    }
    await sleep(intervalMs);
  }
}
