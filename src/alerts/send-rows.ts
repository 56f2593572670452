import { setMaxListeners } from 'node:events';
import type { PushChannel } from '../domain/alerts.ts';
import { channelToSwitchOff, decideAttempt, internalFailure, unsendable } from '../domain/delivery-outcome.ts';
import type { Metrics } from '../domain/metrics.ts';
import type { OrganisationsRepository } from '../store/repositories/organisations-repository.ts';
import type { Completion, Delivery } from '../store/repositories/deliveries-repository.ts';
import type { PreferencesRepository, PreferencesState } from '../store/repositories/preferences-repository.ts';
import type { Channel, SendOutcome } from './channels/channel.ts';
import type { AlertRoute } from '../domain/alert-routes.ts';
import type { AlertRoutesRepository } from '../store/repositories/alert-routes-repository.ts';
import { resolveRouteTarget, resolveTarget } from './targets.ts';

// Sending one batch of claimed rows: read their users' preferences, resolve each
// row's target, send it on its channel under the batch's deadline, and turn the
// result into the row's completion by the rules of src/domain/delivery-outcome.ts.
// Writing the completions is the caller's (src/alerts/worker.ts).

// biome-ignore lint/suspicious/noExplicitAny: each channel has its own target type; the worker hands each its own
export type PushChannels = Partial<Record<PushChannel, Channel<any>>>;

export interface SendDeps {
  preferences: PreferencesRepository;
  /** Rows of alert routes are sent where their route says (docs/alert-routes.md); none = such rows are cancelled. */
  routes?: Pick<AlertRoutesRepository, 'getMany' | 'switchOff'>;
  owners: Pick<OrganisationsRepository, 'ownerEmails'>;
  clock: { now(): Date };
  channels: PushChannels;
  /** Deadline of one send. */
  timeoutMs: number;
  log?: { warn(obj: unknown, msg: string): void; error(obj: unknown, msg: string): void };
  /** Counts attempts and the lag of successful sends. */
  metrics?: Pick<Metrics, 'deliveryAttempt' | 'delivered'>;
}

export interface SendReport {
  delivery: Delivery;
  outcome: SendOutcome;
  latencyMs: number;
  status: Completion['status'];
  nextAttemptAt: string | null;
}

export interface SendBatch {
  /** The worker's id: the lease owner of rows that carry none. */
  owner: string;
  maxAttempts: number;
  random: () => number;
  /** Aborted when a stopping worker's grace period ends: sends still waiting give up. */
  interrupt: AbortSignal;
  /** Called with each row's completion as soon as it is known. */
  onEach?: (c: Completion, r: SendReport) => void;
  /** Rows not attempted because their secrets do not open on this instance. */
  onHeld?: (rows: Delivery[]) => void;
}

/** Sends claimed rows; returns their reports (completions go to `onEach`, not yet written). */
export async function sendRows(d: SendDeps, rows: Delivery[], b: SendBatch): Promise<SendReport[]> {
  const users = [...new Set(rows.map((r) => r.orgId))];
  let prefs: Map<string, PreferencesState>;
  let emails: Map<string, string>;
  let routes: Map<string, AlertRoute>;
  /** Rows whose organisation's preferences, or whose route, this instance cannot open. */
  let closed: (row: Delivery) => boolean;
  try {
    const opened = await d.preferences.openMany(users);
    prefs = opened.states;
    const routeIds = [...new Set(rows.map((r) => r.routeId).filter((id): id is string => !!id))];
    const openedRoutes = routeIds.length && d.routes ? await d.routes.getMany(routeIds) : { routes: [], unreadable: [] };
    routes = new Map(openedRoutes.routes.map((r) => [r.id, r]));
    const closedRoutes = new Set(openedRoutes.unreadable.map((r) => r.id));
    closed = (row) => opened.unreadable.has(row.orgId) || (!!row.routeId && closedRoutes.has(row.routeId));
    const needEmail = rows.filter((r) => r.channel === 'email' || r.channel === 'slack').map((r) => r.orgId);
    emails = needEmail.length ? await d.owners.ownerEmails(needEmail) : new Map();
  } catch (err) {
    // The rows stay leased and fall due again after the lease.
    d.log?.error({ err }, 'alert delivery: could not load preferences of claimed rows');
    return [];
  }
  // One deadline for the batch: its sends all start now (same tick), so a signal
  // and a timer per send would only cost time. Every send listens on it.
  const deadline = AbortSignal.any([AbortSignal.timeout(d.timeoutMs), b.interrupt]);
  setMaxListeners(0, deadline);
  // Held, not attempted: the worker gives them back for later without using an attempt (docs/alerts.md "Held alerts").
  const held = rows.filter(closed);
  if (held.length) b.onHeld?.(held);
  const sendable = rows.filter((row) => !closed(row));
  return Promise.all(
    sendable.map(async (row) => {
      const startedAt = d.clock.now();
      const t0 = performance.now();
      const target = row.routeId
        ? resolveRouteTarget(row, routes.get(row.routeId) ?? null, prefs.get(row.orgId)!)
        : resolveTarget(row, prefs.get(row.orgId)!, emails.get(row.orgId) ?? null, startedAt);
      const channel = d.channels[row.channel as keyof PushChannels];
      let sent: SendOutcome;
      const cancelled = typeof target === 'string' || !channel;
      if (typeof target === 'string') sent = unsendable(target);
      else if (!channel) sent = unsendable(`${row.channel} is not available on this server`);
      else {
        try {
          sent = await channel.send(row, target, deadline);
        } catch (err) {
          // Channels report failures; a throw is a bug, treated as a retryable failure.
          sent = internalFailure((err as Error).message);
        }
      }
      const latencyMs = performance.now() - t0;
      const now = d.clock.now();
      const decision = decideAttempt(sent, {
        cancelled,
        interrupted: b.interrupt.aborted,
        attempt: row.attempts,
        maxAttempts: b.maxAttempts,
        now,
        random: b.random,
      });
      const { status, nextAttemptAt, result: outcome } = decision;
      d.metrics?.deliveryAttempt(row.channel, decision.outcome);
      // Lag from the event's detection (its occurredAt: the poll that found the change).
      if (status === 'succeeded') d.metrics?.delivered(row.channel, (now.getTime() - Date.parse(row.occurredAt)) / 1000);
      const off = channelToSwitchOff(row.channel, outcome);
      // A route of any channel is switched off when its destination is gone (docs/alert-routes.md).
      if (row.routeId && outcome.disableChannel) {
        try {
          await d.routes?.switchOff(row.routeId, `${outcome.statusCode ?? ''} ${outcome.ok ? '' : outcome.error}`.trim().slice(0, 300), d.clock.now());
        } catch (err) {
          d.log?.warn({ err, delivery: row.id }, 'alert delivery: could not switch off a route whose target is gone');
        }
      } else if (off) {
        try {
          await d.preferences.update(row.orgId, d.clock.now(), (s) => ({ ...s, settings: { ...s.settings, [off]: { ...s.settings[off], enabled: false } } }));
        } catch (err) {
          d.log?.warn({ err, delivery: row.id }, 'alert delivery: could not switch off a channel whose target is gone');
        }
      }
      const completion: Completion = {
        id: row.id,
        attempt: row.attempts,
        owner: row.leaseOwner ?? b.owner,
        status,
        nextAttemptAt,
        statusCode: outcome.statusCode,
        error: outcome.ok ? null : outcome.error,
        startedAt: startedAt.toISOString(),
        latencyMs,
        outcome: decision.outcome,
      };
      const report: SendReport = { delivery: row, outcome, latencyMs, status, nextAttemptAt };
      b.onEach?.(completion, report);
      return report;
    }),
  );
}
