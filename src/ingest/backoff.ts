// When to poll a source next. Documented in docs/ingestion.md.

/** Success: the interval ±10 %, so sources sharing an interval drift apart instead of firing together. */
export function successDelayMs(intervalSeconds: number, random: () => number = Math.random): number {
  return Math.round(intervalSeconds * 1000 * (0.9 + 0.2 * random()));
}

/** Longest wait after failures: an hour, or the interval when that is longer. */
export const backoffCapMs = (intervalSeconds: number) => Math.max(intervalSeconds, 3600) * 1000;

/**
 * After the n-th consecutive failure (n >= 1): min(interval · 2^n, cap), with
 * "equal jitter" (uniform in the upper half), and never sooner than a Retry-After
 * the server sent (itself capped).
 */
export function failureDelayMs(intervalSeconds: number, failures: number, random: () => number = Math.random, retryAfterSeconds: number | null = null): number {
  const cap = backoffCapMs(intervalSeconds);
  const n = Math.max(1, Math.min(failures, 30));
  const base = Math.min(intervalSeconds * 1000 * 2 ** n, cap);
  const jittered = base / 2 + random() * (base / 2);
  const asked = retryAfterSeconds !== null ? Math.min(retryAfterSeconds * 1000, cap) : 0;
  return Math.round(Math.max(jittered, asked));
}
