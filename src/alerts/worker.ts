import { leaseMs } from '../domain/deliveries.ts';
import { randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { MAX_ATTEMPTS, nextRetryDelay, type PushChannel } from '../domain/alerts.ts';
import { emailAddressStatus } from '../domain/preferences.ts';
import type { Metrics } from '../domain/metrics.ts';
import type { OrganisationsRepository } from '../store/repositories/organisations-repository.ts';
import type { Completion, DeliveriesRepository, Delivery } from '../store/repositories/deliveries-repository.ts';
import type { PreferencesRepository, PreferencesState } from '../store/repositories/preferences-repository.ts';
import type { Channel, SendOutcome, Target } from './channels/channel.ts';

// Delivery workers: claim due rows (a lease per row, see the deliveries
// repository), send each on its channel with a deadline, and write every
// attempt. Results are written in small batches; until a result is written the
// row stays leased, so a process that dies mid-send (or between sending and
// writing) leaves rows that fall due again when their lease ends and are sent
// again under the same delivery id: at-least-once, never lost.

// biome-ignore lint/suspicious/noExplicitAny: each channel has its own target type; the worker hands each its own
export type PushChannels = Partial<Record<PushChannel, Channel<any>>>;

export interface WorkerDeps {
  deliveries: DeliveriesRepository;
  preferences: PreferencesRepository;
  owners: Pick<OrganisationsRepository, 'ownerEmails'>;
  clock: { now(): Date };
  channels: PushChannels;
  /** Deadline of one send. */
  timeoutMs: number;
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
  log?: { warn(obj: unknown, msg: string): void; error(obj: unknown, msg: string): void };
  random?: () => number;
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

const FLUSH_MS = 5;
const CLAIM_BATCH_MIN = 16;
/** How long claims stay narrowed after rows were given back for a busy receiver. */
const NARROW_MS = 1_000;

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

/** Secrets the webhook signs with: the current one, plus the previous during its grace period. */
function signingSecrets(s: PreferencesState, now: Date): string[] {
  if (!s.webhookSecret) return [];
  const grace = s.webhookPreviousSecret && s.webhookPreviousExpiresAt && Date.parse(s.webhookPreviousExpiresAt) > now.getTime();
  return grace ? [s.webhookSecret, s.webhookPreviousSecret!] : [s.webhookSecret];
}

/** Where a row goes now, from the user's current preferences; a string says why it cannot be sent. */
export function resolveTarget(d: Delivery, s: PreferencesState, email: string | null, now: Date): Target | string {
  const p = s.settings;
  switch (d.channel) {
    case 'webhook':
      if (!d.isTest && !p.webhook.enabled) return 'webhook disabled';
      if (!p.webhook.url) return 'no webhook URL';
      return { channel: 'webhook', url: p.webhook.url, format: p.webhook.format, secrets: signingSecrets(s, now) };
    case 'pagerduty':
      if (!d.isTest && !p.pagerduty.enabled) return 'PagerDuty disabled';
      if (!s.pagerdutyRoutingKey) return 'no PagerDuty routing key';
      return { channel: 'pagerduty', routingKey: s.pagerdutyRoutingKey };
    case 'slack': {
      if (!d.isTest && !p.slack.enabled) return 'Slack disabled';
      if (!s.slackConnection?.connected) return 'Slack not connected';
      const memberId = s.slackConnection.user_id;
      return {
        channel: 'slack',
        token: s.channelSecrets.slackBotToken,
        conversation: p.slack.channel,
        slackUserId: typeof memberId === 'string' ? memberId : null,
        email,
      };
    }
    case 'teams':
      if (!d.isTest && !p.teams.enabled) return 'Teams disabled';
      if (!s.channelSecrets.teamsWebhookUrl) return 'no Teams webhook URL';
      return { channel: 'teams', url: s.channelSecrets.teamsWebhookUrl };
    case 'google_chat':
      if (!d.isTest && !p.google_chat.enabled) return 'Google Chat disabled';
      if (!s.channelSecrets.googleChatWebhookUrl) return 'no Google Chat webhook URL';
      return { channel: 'google_chat', url: s.channelSecrets.googleChatWebhookUrl };
    case 'opsgenie':
      if (!d.isTest && !p.opsgenie.enabled) return 'Opsgenie disabled';
      if (!s.channelSecrets.opsgenieApiKey) return 'no Opsgenie API key';
      return { channel: 'opsgenie', apiKey: s.channelSecrets.opsgenieApiKey, region: p.opsgenie.region };
    case 'email': {
      if (!d.isTest && !p.email.enabled) return 'e-mail disabled';
      // Only an address its owner proved receives anything, test alerts included (docs/alerts.md).
      if (emailAddressStatus(p.email.address, email, s.emailConfirmedAddress) !== 'confirmed') {
        return 'e-mail address not confirmed: follow the link sent to it';
      }
      const to = p.email.address ?? email;
      return to ? { channel: 'email', to } : 'no e-mail address';
    }
    default:
      return `unknown channel '${d.channel}'`;
  }
}

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
  const halfShare = Math.max(1, Math.floor(share / 2));
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
  // Small pools claim in smaller batches, so slots freed by a busy receiver's share are used.
  const claimBatchMin = Math.min(CLAIM_BATCH_MIN, Math.max(1, Math.floor(d.concurrency / 4)));
  let stopping = false;
  let timer: NodeJS.Timeout | null = null;
  let pumping = false;
  let pumpAgain = false;
  const pending: Completion[] = [];
  const running = new Set<Promise<unknown>>();
  let flushing: Promise<void> | null = null;
  let flushTimer: NodeJS.Timeout | null = null;
  /** Aborted when a stopping worker's grace period ends: sends still waiting give up. */
  const interrupt = new AbortController();

  /** Sends claimed rows; returns the completions (not yet written). */
  async function sendRows(rows: Delivery[], maxAttempts: number, onEach?: (c: Completion, r: SendReport) => void): Promise<SendReport[]> {
    const users = [...new Set(rows.map((r) => r.orgId))];
    let prefs: Map<string, PreferencesState>;
    let emails: Map<string, string>;
    try {
      prefs = await d.preferences.getMany(users);
      const needEmail = rows.filter((r) => r.channel === 'email' || r.channel === 'slack').map((r) => r.orgId);
      emails = needEmail.length ? await d.owners.ownerEmails(needEmail) : new Map();
    } catch (err) {
      // The rows stay leased and fall due again after the lease.
      d.log?.error({ err }, 'alert delivery: could not load preferences of claimed rows');
      return [];
    }
    // One deadline for the batch: its sends all start now (same tick), so a signal
    // and a timer per send would only cost time. Every send listens on it.
    const deadline = AbortSignal.any([AbortSignal.timeout(d.timeoutMs), interrupt.signal]);
    setMaxListeners(0, deadline);
    return Promise.all(
      rows.map(async (row) => {
        const startedAt = d.clock.now();
        const t0 = performance.now();
        const state = prefs.get(row.orgId)!;
        const target = resolveTarget(row, state, emails.get(row.orgId) ?? null, startedAt);
        const channel = d.channels[row.channel as keyof PushChannels];
        let outcome: SendOutcome;
        let cancelled = false;
        if (typeof target === 'string' || !channel) {
          cancelled = true;
          outcome = {
            ok: false,
            statusCode: null,
            error: typeof target === 'string' ? target : `${row.channel} is not available on this server`,
            retryAfterMs: null,
            permanent: true,
          };
        } else {
          try {
            outcome = await channel.send(row, target, deadline);
          } catch (err) {
            // Channels report failures; a throw is a bug, treated as a retryable failure.
            outcome = { ok: false, statusCode: null, error: `internal error: ${(err as Error).message}`, retryAfterMs: null, permanent: false };
          }
        }
        const latencyMs = performance.now() - t0;
        let status: Completion['status'];
        let nextAttemptAt: string | null = null;
        let attemptOutcome: Completion['outcome'];
        if (outcome.ok) {
          status = 'succeeded';
          attemptOutcome = 'succeeded';
        } else if (cancelled) {
          status = 'cancelled';
          attemptOutcome = 'cancelled';
        } else if (interrupt.signal.aborted && outcome.statusCode === null) {
          // Cut off by shutdown before any answer: not the receiver's failure, so no
          // backoff; due now (same delivery id) for another worker.
          status = 'pending';
          attemptOutcome = 'retry';
          nextAttemptAt = d.clock.now().toISOString();
          outcome = { ...outcome, error: `interrupted: the sending instance shut down before an answer (${outcome.error})` };
        } else if (outcome.disableChannel) {
          status = 'failed';
          attemptOutcome = 'disabled';
        } else {
          const delay = outcome.permanent || row.attempts >= maxAttempts ? null : nextRetryDelay(row.attempts, outcome.retryAfterMs, random);
          if (delay === null) {
            status = 'failed';
            attemptOutcome = 'failed';
          } else {
            status = 'pending';
            attemptOutcome = 'retry';
            nextAttemptAt = new Date(d.clock.now().getTime() + delay).toISOString();
          }
        }
        d.metrics?.deliveryAttempt(row.channel, attemptOutcome);
        // Lag from the event's detection (its occurredAt: the poll that found the change).
        if (status === 'succeeded') d.metrics?.delivered(row.channel, (d.clock.now().getTime() - Date.parse(row.occurredAt)) / 1000);
        const ch = row.channel as 'webhook' | 'teams' | 'google_chat' | 'slack';
        if (outcome.disableChannel && (ch === 'webhook' || ch === 'teams' || ch === 'google_chat' || ch === 'slack')) {
          try {
            await d.preferences.update(row.orgId, d.clock.now(), (s) => ({
              ...s,
              settings: { ...s.settings, [ch]: { ...s.settings[ch], enabled: false } },
            }));
          } catch (err) {
            d.log?.warn({ err, delivery: row.id }, 'alert delivery: could not switch off a channel whose target is gone');
          }
        }
        const completion: Completion = {
          id: row.id,
          attempt: row.attempts,
          owner: row.leaseOwner ?? owner,
          status,
          nextAttemptAt,
          statusCode: outcome.statusCode,
          error: outcome.ok ? null : outcome.error,
          startedAt: startedAt.toISOString(),
          latencyMs,
          outcome: attemptOutcome,
        };
        const report: SendReport = { delivery: row, outcome, latencyMs, status, nextAttemptAt };
        onEach?.(completion, report);
        return report;
      }),
    );
  }

  function scheduleFlush() {
    if (flushTimer) return;
    // A few milliseconds of results go into one transaction (one UPDATE for the successes).
    flushTimer = setTimeout(() => {
      flushTimer = null;
      void flush();
    }, FLUSH_MS);
  }

  async function flush(): Promise<void> {
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
    if (!stopping) pump();
  }

  async function claimAndSend(): Promise<number> {
    const free = d.concurrency - inFlight;
    // Claim in batches: one claim statement per several freed slots, not one per slot.
    if (free <= 0 || (inFlight > 0 && free < claimBatchMin)) return 0;
    const now = d.clock.now();
    // Receivers using their whole share are skipped; rows of one claim beyond a share are
    // given back. After a give-back, claims are narrowed for a while (at most half a share,
    // skipping receivers with less than that free), so a busy receiver's rows are not
    // claimed and given back over and over (docs/alerts.md "Fair share per receiver").
    const narrow = performance.now() < narrowUntil;
    const limit = narrow ? Math.min(free, halfShare) : free;
    const room = narrow ? share - halfShare : share - 1;
    const full = [...busy].filter(([, n]) => n > room).map(([k]) => k);
    // A claim that found nothing besides the skipped receivers is not repeated on every
    // result of theirs: only when the skipped set changes, new rows exist (wake) or the poll ticks.
    const skipped = full.join('\n');
    if (full.length && idleWhileSkipping === skipped) return 0;
    const claimed = await d.deliveries.claim(owner, limit, now, new Date(now.getTime() + leaseMs(d.timeoutMs)), full);
    idleWhileSkipping = claimed.length === 0 && full.length ? skipped : null;
    const { send: rows, giveBack } = withinShare(claimed, busy, share);
    if (giveBack.length) {
      narrowUntil = performance.now() + NARROW_MS;
      await d.deliveries.release(owner, giveBack.map((r) => r.id), now);
    }
    if (!rows.length) return 0;
    inFlight += rows.length;
    for (const r of rows) if (r.receiver !== null) busy.set(r.receiver, (busy.get(r.receiver) ?? 0) + 1);
    const unreported = new Set(rows);
    const task = sendRows(rows, MAX_ATTEMPTS, (c, report) => {
      unreported.delete(report.delivery);
      settle(report.delivery.receiver);
      pending.push(c);
      inFlight--;
      scheduleFlush();
    })
      .catch((err) => {
        // A bug, not a send failure (channels report those): never an unhandled rejection.
        d.log?.error({ err }, 'alert delivery: sending claimed rows failed; they are sent again after their lease');
      })
      .then(() => {
        // Rows that were not attempted (preferences could not be read) stay leased; free their slots.
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
      if (flushTimer) clearTimeout(flushTimer);
      flushTimer = null;
      await flush();
    },
    async runOnce() {
      let total = 0;
      for (;;) {
        const now = d.clock.now();
        const rows = await d.deliveries.claim(owner, d.concurrency, now, new Date(now.getTime() + leaseMs(d.timeoutMs)));
        if (!rows.length) return total;
        const completions: Completion[] = [];
        await sendRows(rows, MAX_ATTEMPTS, (c) => completions.push(c));
        await d.deliveries.complete(completions, d.clock.now());
        total += rows.length;
      }
    },
    async sendClaimed(rows, maxAttempts = MAX_ATTEMPTS) {
      const completions: Completion[] = [];
      const reports = await sendRows(rows, maxAttempts, (c) => completions.push(c));
      await d.deliveries.complete(completions, d.clock.now());
      return reports;
    },
    inFlight: () => inFlight,
  };
}
