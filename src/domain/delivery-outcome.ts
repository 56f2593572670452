import { nextRetryDelay } from './alerts.ts';
import type { DeliveryStatus } from './deliveries.ts';

// What the result of one send attempt means for its delivery row, with no I/O
// (docs/alerts.md "Deliveries and workers", "Retry schedule"): succeeded, tried
// again later, failed, or failed with its channel switched off. Channels only
// report what happened; these rules decide.

/** How one attempt went, as a channel reports it. */
export interface AttemptResult {
  ok: boolean;
  /** HTTP status (or SMTP reply code) when there was an answer. */
  statusCode: number | null;
  error: string | null;
  /** Retry-After (or the channel's rate-limit hint) in ms. */
  retryAfterMs: number | null;
  /** Retrying cannot help: fail now. */
  permanent: boolean;
  /** The receiver said its target is gone for good: switch the channel off. */
  disableChannel?: boolean;
}

/** The outcome recorded with the attempt (`delivery_attempts.outcome`). */
export type AttemptOutcome = 'succeeded' | 'retry' | 'failed' | 'disabled' | 'cancelled';

export interface AttemptContext {
  /** The row could not be sent at all (no target, channel not available here): nothing to retry. */
  cancelled: boolean;
  /** The sending instance was shutting down and cut its sends short. */
  interrupted: boolean;
  /** The attempt number the claim gave the row (1-based). */
  attempt: number;
  /** Attempts a row gets before it fails (test alerts: one). */
  maxAttempts: number;
  /** When the result came. */
  now: Date;
  random: () => number;
}

export interface AttemptDecision<R extends AttemptResult> {
  status: DeliveryStatus;
  outcome: AttemptOutcome;
  /** When a pending row is due again; null otherwise. */
  nextAttemptAt: string | null;
  /** The result as recorded (an interrupted send says so in its error). */
  result: R;
}

/** Decides a row's new status from one attempt's result. */
export function decideAttempt<R extends AttemptResult>(result: R, c: AttemptContext): AttemptDecision<R> {
  if (result.ok) return { status: 'succeeded', outcome: 'succeeded', nextAttemptAt: null, result };
  if (c.cancelled) return { status: 'cancelled', outcome: 'cancelled', nextAttemptAt: null, result };
  if (c.interrupted && result.statusCode === null) {
    // Cut off by shutdown before any answer: not the receiver's failure, so no
    // backoff; due now (same delivery id) for another worker.
    return {
      status: 'pending',
      outcome: 'retry',
      nextAttemptAt: c.now.toISOString(),
      result: { ...result, error: `interrupted: the sending instance shut down before an answer (${result.error})` },
    };
  }
  if (result.disableChannel) return { status: 'failed', outcome: 'disabled', nextAttemptAt: null, result };
  const delay = result.permanent || c.attempt >= c.maxAttempts ? null : nextRetryDelay(c.attempt, result.retryAfterMs, c.random);
  if (delay === null) return { status: 'failed', outcome: 'failed', nextAttemptAt: null, result };
  return { status: 'pending', outcome: 'retry', nextAttemptAt: new Date(c.now.getTime() + delay).toISOString(), result };
}

/** The result of a row that cannot be sent (`reason`: why); it is cancelled, never retried. */
export const unsendable = (reason: string): AttemptResult => ({ ok: false, statusCode: null, error: reason, retryAfterMs: null, permanent: true });

/** A channel that threw instead of reporting: a bug, treated as a failure that may be retried. */
export const internalFailure = (message: string): AttemptResult => ({
  ok: false,
  statusCode: null,
  error: `internal error: ${message}`,
  retryAfterMs: null,
  permanent: false,
});

/** Channels whose `enabled` is switched off when the receiver says the target is gone (docs/alerts.md "Retry schedule"). */
const SWITCHABLE = ['webhook', 'teams', 'google_chat', 'slack'] as const;
export type SwitchableChannel = (typeof SWITCHABLE)[number];

/** The channel to switch off after this result, or null. */
export function channelToSwitchOff(channel: string, result: AttemptResult): SwitchableChannel | null {
  return result.disableChannel && (SWITCHABLE as readonly string[]).includes(channel) ? (channel as SwitchableChannel) : null;
}
