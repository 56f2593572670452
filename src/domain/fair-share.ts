// The fair share of sending slots per receiver (docs/alerts.md "Fair share per
// receiver"), with no I/O: how much a worker claims, which receivers it skips,
// and which claimed rows it gives back. The worker keeps the counts; these decide.

/** Free slots a claim waits for while sends are in flight: one claim statement per several freed slots, not one per slot. */
const CLAIM_BATCH_MIN = 16;

/** The same for a pool of `concurrency`: small pools claim in smaller batches, so slots freed by a busy receiver's share are used. */
export const claimBatchMinFor = (concurrency: number) => Math.min(CLAIM_BATCH_MIN, Math.max(1, Math.floor(concurrency / 4)));

/** The claim size and room per receiver while claims are narrowed after a give-back. */
export const halfShareOf = (share: number) => Math.max(1, Math.floor(share / 2));

export interface ClaimState {
  /** Sends in flight at once (the pool). */
  concurrency: number;
  inFlight: number;
  /** Sends in flight per receiver. */
  busy: ReadonlyMap<string, number>;
  /** Sends in flight at once to one receiver. */
  share: number;
  /** Claims are narrowed: rows were given back for a busy receiver a moment ago. */
  narrow: boolean;
}

/**
 * How many rows to claim now and which receivers to skip (their share is in use), or
 * null when there is no room for a claim. Narrowed claims take at most half a share and
 * skip receivers with less than that free, so nothing needs giving back.
 */
export function planClaim(c: ClaimState): { limit: number; skip: string[] } | null {
  const free = c.concurrency - c.inFlight;
  if (free <= 0 || (c.inFlight > 0 && free < claimBatchMinFor(c.concurrency))) return null;
  const half = halfShareOf(c.share);
  const limit = c.narrow ? Math.min(free, half) : free;
  const room = c.narrow ? c.share - half : c.share - 1;
  const skip = [...c.busy].filter(([, n]) => n > room).map(([k]) => k);
  return { limit, skip };
}

/**
 * Splits claimed rows into those this worker sends now and those over their
 * receiver's share (given back at once). `busy`: sends in flight per receiver.
 */
export function withinShare<T extends { receiver: string | null }>(rows: T[], busy: ReadonlyMap<string, number>, share: number): { send: T[]; giveBack: T[] } {
  const taken = new Map<string, number>();
  const send: T[] = [];
  const giveBack: T[] = [];
  for (const r of rows) {
    if (r.receiver === null) {
      send.push(r);
      continue;
    }
    const n = (busy.get(r.receiver) ?? 0) + (taken.get(r.receiver) ?? 0);
    if (n < share) {
      taken.set(r.receiver, (taken.get(r.receiver) ?? 0) + 1);
      send.push(r);
    } else giveBack.push(r);
  }
  return { send, giveBack };
}
