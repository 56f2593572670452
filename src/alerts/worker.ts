import { randomUUID } from 'node:crypto';
import { MAX_ATTEMPTS } from '../domain/alerts.ts';
import { leaseMs } from '../domain/deliveries.ts';
import { planClaim, withinShare } from '../domain/fair-share.ts';
import type { Completion, DeliveriesRepository, Delivery } from '../store/repositories/deliveries-repository.ts';
import { resultBatches } from './result-batches.ts';
import { type SendDeps, type SendReport, sendRows } from './send-rows.ts';

// Delivery workers: claim due rows (a lease per row, see the deliveries
// repository), send each on its channel with a deadline, and write every
// attempt. Results are written in small batches (src/alerts/result-batches.ts);
// until a result is written the row stays leased, so a process that dies
// mid-send (or between sending and writing) leaves rows that fall due again when
// their lease ends and are sent again under the same delivery id: at-least-once,
// never lost. Sending a claimed batch is src/alerts/send-rows.ts; the fair share
// of slots per receiver is decided by src/domain/fair-share.ts, the worker only
// keeps the counts.

export type { PushChannels, SendReport } from './send-rows.ts';

export interface WorkerDeps extends SendDeps {
  deliveries: DeliveriesRepository;
  /** Sends in flight at once. */
  concurrency: number;
  /**
   * Sends in flight at once to one receiver (a row's `receiver`: webhook host, or the
   * channel's service), so slow receivers cannot hold every slot (docs/alerts.md
   * "Fair share per receiver"). Per process; unset = no bound.
   */
  receiverConcurrency?: number;
  /** How often to look for due rows when nothing wakes the worker. */
  pollMs?: number;
  random?: () => number;
}

/** How long a row whose secrets do not open on this instance waits before it is looked at again. */
export const HELD_RETRY_MS = 60_000;
export const HELD_REASON = 'held: the secrets of this alert are sealed with a key this instance does not have (SECRETS_KEY_PREVIOUS)';

/** How long claims stay narrowed after rows were given back for a busy receiver. */
const NARROW_MS = 1_000;

export interface DeliveryWorker {
  readonly owner: string;
  start(): void;
  /** Look for due rows now (the dispatcher calls this after creating rows). */
  wake(): void;
  /**
   * Stops claiming, waits for sends in flight and writes their results. Sends still
   * unanswered after `graceMs` are interrupted: their attempt is recorded and the row
   * is made due at once with its lease freed, so another instance sends it now.
   */
  stop(o?: { graceMs?: number }): Promise<void>;
  /** Tests and the CLI: sends everything due now, writes results, repeats until nothing is due. */
  runOnce(): Promise<number>;
  /** Sends one claimed row and writes its result (the test endpoint). */
  sendClaimed(rows: Delivery[], maxAttempts?: number): Promise<SendReport[]>;
  inFlight(): number;
}

export function createDeliveryWorker(d: WorkerDeps): DeliveryWorker {
  const owner = `w_${randomUUID()}`;
  const random = d.random ?? Math.random;
  let inFlight = 0;
  /** Sends in flight per receiver (fair share). */
  const busy = new Map<string, number>();
  const share = d.receiverConcurrency ?? Number.POSITIVE_INFINITY;
  /** Until when claims are narrowed after a give-back (performance.now() ms). */
  let narrowUntil = 0;
  /** The skipped receivers of the last claim that found nothing, or null. */
  let idleWhileSkipping: string | null = null;
  /** Wake-ups and the poll tick look again whatever was skipped. */
  const poke = () => {
    idleWhileSkipping = null;
    pump();
  };
  const settle = (receiver: string | null) => {
    if (receiver === null) return;
    const n = (busy.get(receiver) ?? 1) - 1;
    if (n > 0) busy.set(receiver, n);
    else busy.delete(receiver);
  };
  let stopping = false;
  let timer: NodeJS.Timeout | null = null;
  let pumping = false;
  let pumpAgain = false;
  const running = new Set<Promise<unknown>>();
  const results = resultBatches(d, () => {
    if (!stopping) pump();
  });
  /** Aborted when a stopping worker's grace period ends: sends still waiting give up. */
  const interrupt = new AbortController();

  const send = async (rows: Delivery[], maxAttempts: number, onEach?: (c: Completion, r: SendReport) => void) => {
    let held: Delivery[] = [];
    const reports = await sendRows(d, rows, { owner, maxAttempts, random, interrupt: interrupt.signal, onEach, onHeld: (h) => (held = h) });
    // Rows whose secrets do not open here wait, their attempt not used (docs/alerts.md "Held alerts").
    if (held.length)
      await d.deliveries.release(
        owner,
        held.map((r) => r.id),
        new Date(d.clock.now().getTime() + HELD_RETRY_MS),
        HELD_REASON,
      );
    return reports;
  };
  /** Sends and writes the results in one go (no batching with other sends). */
  const sendAndRecord = async (rows: Delivery[], maxAttempts: number) => {
    const completions: Completion[] = [];
    const reports = await send(rows, maxAttempts, (c) => completions.push(c));
    await d.deliveries.complete(completions, d.clock.now());
    return reports;
  };

  async function claimAndSend(): Promise<number> {
    // Receivers using their whole share are skipped; rows of one claim beyond a share are
    // given back. After a give-back, claims are narrowed for a while, so a busy receiver's
    // rows are not claimed and given back over and over (docs/alerts.md "Fair share per receiver").
    const plan = planClaim({ concurrency: d.concurrency, inFlight, busy, share, narrow: performance.now() < narrowUntil });
    if (!plan) return 0;
    const { limit, skip: full } = plan;
    // A claim that found nothing besides the skipped receivers is not repeated on every
    // result of theirs: only when the skipped set changes, new rows exist (wake) or the poll ticks.
    const skipped = full.join('\n');
    if (full.length && idleWhileSkipping === skipped) return 0;
    const now = d.clock.now();
    const claimed = await d.deliveries.claim(owner, limit, now, new Date(now.getTime() + leaseMs(d.timeoutMs)), full);
    idleWhileSkipping = claimed.length === 0 && full.length ? skipped : null;
    const { send: rows, giveBack } = withinShare(claimed, busy, share);
    if (giveBack.length) {
      narrowUntil = performance.now() + NARROW_MS;
      await d.deliveries.release(
        owner,
        giveBack.map((r) => r.id),
        now,
      );
    }
    if (!rows.length) return 0;
    inFlight += rows.length;
    for (const r of rows) if (r.receiver !== null) busy.set(r.receiver, (busy.get(r.receiver) ?? 0) + 1);
    const unreported = new Set(rows);
    const task = send(rows, MAX_ATTEMPTS, (c, report) => {
      unreported.delete(report.delivery);
      settle(report.delivery.receiver);
      inFlight--;
      results.add(c);
    })
      .catch((err) => {
        // A bug, not a send failure (channels report those): never an unhandled rejection.
        d.log?.error({ err }, 'alert delivery: sending claimed rows failed; they are sent again after their lease');
      })
      .then(() => {
        // Rows that were not attempted (preferences could not be loaded, or held) are not in flight any more.
        inFlight -= unreported.size;
        for (const r of unreported) settle(r.receiver);
      })
      .finally(() => {
        running.delete(task);
      });
    running.add(task);
    return rows.length;
  }

  function pump() {
    if (stopping) return;
    if (pumping) {
      pumpAgain = true;
      return;
    }
    pumping = true;
    void (async () => {
      try {
        do {
          pumpAgain = false;
          const claimed = await claimAndSend();
          // A full claim means more may be due: go on while there is room.
          if (claimed > 0 && inFlight < d.concurrency) pumpAgain = true;
        } while (pumpAgain && !stopping);
      } catch (err) {
        d.log?.error({ err }, 'alert delivery: claiming due rows failed');
      } finally {
        pumping = false;
      }
    })();
  }

  return {
    owner,
    start() {
      stopping = false;
      timer = setInterval(poke, d.pollMs ?? 1_000);
      timer.unref();
      pump();
    },
    wake: poke,
    async stop(o = {}) {
      stopping = true;
      if (timer) clearInterval(timer);
      timer = null;
      const grace = o.graceMs === undefined ? null : setTimeout(() => interrupt.abort(), Math.max(0, o.graceMs));
      while (running.size) await Promise.allSettled([...running]);
      if (grace) clearTimeout(grace);
      await results.flush();
    },
    async runOnce() {
      let total = 0;
      for (;;) {
        const now = d.clock.now();
        const rows = await d.deliveries.claim(owner, d.concurrency, now, new Date(now.getTime() + leaseMs(d.timeoutMs)));
        if (!rows.length) return total;
        await sendAndRecord(rows, MAX_ATTEMPTS);
        total += rows.length;
      }
    },
    sendClaimed: (rows, maxAttempts = MAX_ATTEMPTS) => sendAndRecord(rows, maxAttempts),
    inFlight: () => inFlight,
  };
}
