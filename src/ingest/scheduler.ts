import { performance } from 'node:perf_hooks';
import type { SourceSnapshot, SourceType } from '../domain/records.ts';
import { cleanSnapshot } from '../domain/upstream-text.ts';
import type { Clock } from '../domain/clock.ts';
import { type ApplyCounts, type IngestService, LeaseLostError, type SourceRef } from '../services/ingest/ingest-service.ts';
import type { EventsRepository } from '../store/repositories/events-repository.ts';
import type { SourceRow, SourcesRepository } from '../store/repositories/sources-repository.ts';
import { failureDelayMs, successDelayMs } from './backoff.ts';
import { AdapterError } from './adapters/adapter.ts';
import { FetchError, type Fetcher } from '../infra/fetch.ts';
import { KeyedLimiter } from '../infra/keyed-limiter.ts';
import { PollFailureTally, pollFailureMessage } from '../domain/poll-failures.ts';
import { type Freshness, freshnessOf, hotReason, hotReasonOf, type PollTrigger, pollTrigger, scheduleOf } from '../domain/poll-schedule.ts';
import { sourceRequest } from '../domain/platform-detect.ts';

// Polls every catalog source on its own jittered interval. Each poll is independent:
// it takes a lease on its source row, fetches with a deadline and a byte cap, parses
// with the source's adapter and applies the result in one transaction. A failure
// (timeout, HTTP error, garbage, oversized body) is recorded on that source and
// backs it off; it never holds up another source beyond its own slot.

interface ParseInput {
  vendor: string;
  url: string;
  body: Buffer;
  contentType?: string | null;
  now: Date;
}
type ParseFn = (type: SourceType, input: ParseInput) => SourceSnapshot;

interface SchedulerSettings {
  /** Polls in flight at once, all hosts together. */
  concurrency: number;
  /** Polls in flight at once against one host (host:port). */
  perHost: number;
  timeoutMs: number;
  maxBytes: number;
  defaultIntervalSeconds: number;
  /** Lease length; defaults to three timeouts plus 30 s. */
  leaseMs?: number;
  /** How often the running scheduler looks for due sources. */
  tickMs?: number;
  /** Event log retention (pruned hourly while running); 0 = never prune. */
  eventRetentionDays?: number;
}

export interface Logger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
  debug(obj: object, msg?: string): void;
}

/** Failed polls of the running loop are summed up at info once per this window. */
const FAILURE_SUMMARY_WINDOW_MS = 60_000;

const silent: Logger = { info() {}, warn() {}, error() {}, debug() {} };

export interface SchedulerDeps {
  sources: SourcesRepository;
  events?: EventsRepository;
  ingest: IngestService;
  fetcher: Fetcher;
  parse: ParseFn;
  clock: Clock;
  /** Lease owner id of this instance. */
  owner: string;
  settings: SchedulerSettings;
  random?: () => number;
  log?: Logger;
  /** Told every poll's outcome, from rounds and from the running schedule (metrics). */
  onPoll?: (outcome: PollOutcome) => void;
}

type PollStatus = 'updated' | 'unchanged' | 'not_modified' | 'failed' | 'skipped';

export interface PollOutcome {
  sourceId: string;
  vendor: string;
  type: string;
  url: string;
  status: PollStatus;
  httpStatus: number | null;
  error: string | null;
  events: number;
  written: ApplyCounts | null;
  durationMs: number;
  nextPollAt: string | null;
  /** Seconds from the vendor publishing each change found to its record (not on a source's first read). */
  freshness?: Freshness[];
  /** A push from the vendor brought this poll, or its schedule. */
  trigger: PollTrigger;
}

export interface RoundReport {
  outcomes: PollOutcome[];
  durationMs: number;
  events: number;
}

export interface RoundOptions {
  vendor?: string;
  /** Poll every source now, due or not (still never one leased by another instance). */
  force?: boolean;
  onPlanned?: (count: number) => void;
  onResult?: (outcome: PollOutcome) => void;
}

const hostKey = (url: string) => {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
};

/**
 * The message stored in sourceHealth, which anyone can read: the kind of failure
 * ("HTTP 503", "statuspage-v2: invalid JSON", "redirect refused ..."), never our
 * internals nor text of the payload (docs/security.md). The full adapter message
 * goes to the service log.
 */
function describe(err: unknown, type: string): string {
  if (err instanceof FetchError) return err.message;
  if (err instanceof AdapterError) return `${type}: ${err.kind}`;
  if (err instanceof Error && err.name === 'AdapterError') return `${type}: malformed payload`;
  return 'the poll succeeded but its result could not be stored (see the service log)';
}

export function createScheduler(d: SchedulerDeps) {
  const s = d.settings;
  const random = d.random ?? Math.random;
  const log = d.log ?? silent;
  const failures = new PollFailureTally(FAILURE_SUMMARY_WINDOW_MS);
  const leaseMs = s.leaseMs ?? s.timeoutMs * 3 + 30_000;
  const limiter = new KeyedLimiter(s.concurrency, s.perHost);
  const stopping = new AbortController();
  const inFlight = new Set<Promise<unknown>>();
  let timer: NodeJS.Timeout | null = null;
  let running = false;
  let ticking = false;
  let lastPrune = 0;

  const ref = (src: SourceRow): SourceRef => ({
    id: src.id,
    vendor: src.vendor,
    type: src.type,
    lastSuccessAt: src.lastSuccessAt,
    etag: src.etag,
    lastModified: src.lastModified,
  });

  /** Polls one source whose lease this instance holds, and frees the lease. */
  async function pollLeased(src: SourceRow): Promise<PollOutcome> {
    const started = performance.now();
    const polledAt = d.clock.now();
    const interval = src.intervalSeconds ?? s.defaultIntervalSeconds;
    const base = { sourceId: src.id, vendor: src.vendor, type: src.type, url: src.url, trigger: pollTrigger(src, polledAt) };
    const elapsed = () => Math.round(performance.now() - started);
    let httpStatus: number | null = null;
    try {
      const res = await d.fetcher(src.url, {
        etag: src.etag,
        lastModified: src.lastModified,
        timeoutMs: s.timeoutMs,
        maxBytes: s.maxBytes,
        ...sourceRequest(src.type as SourceType),
        signal: stopping.signal,
        untrusted: src.guarded,
      });
      httpStatus = res.status;
      if (res.notModified) {
        // Same content: still hot if it was, one more quiet answer (docs/ingestion.md "Adaptive polling").
        const schedule = scheduleOf(interval, src.hot ? hotReasonOf(src.scheduleReason) : null, src.quietPolls + 1);
        const nextPollAt = new Date(polledAt.getTime() + successDelayMs(schedule.intervalSeconds, random));
        const meta = { owner: d.owner, polledAt, durationMs: elapsed(), nextPollAt, etag: res.etag, lastModified: res.lastModified, schedule };
        const held = await d.ingest.recordNotModified(ref(src), meta);
        return {
          ...base,
          status: held ? 'not_modified' : 'skipped',
          httpStatus,
          error: null,
          events: 0,
          written: null,
          durationMs: meta.durationMs,
          nextPollAt: nextPollAt.toISOString(),
        };
      }
      // Upstream text is cleaned once, here, before anything stores or sends it (docs/security.md).
      const snapshot = cleanSnapshot(
        d.parse(src.type as SourceType, {
          vendor: src.vendor,
          url: src.url,
          body: res.body,
          contentType: res.contentType,
          now: polledAt,
        }),
        polledAt,
      );
      const durationMs = elapsed();
      // One deadline for the whole poll, parsing included: a result that took longer is
      // not applied (parsing is linear and capped, docs/reliability.md).
      if (durationMs > s.timeoutMs) throw new FetchError('timeout', `timed out after ${s.timeoutMs} ms (parsing)`);
      const schedule = scheduleOf(interval, hotReason(snapshot, polledAt), 0);
      const nextPollAt = new Date(polledAt.getTime() + successDelayMs(schedule.intervalSeconds, random));
      const out = await d.ingest.applySnapshot(ref(src), snapshot, {
        owner: d.owner,
        polledAt,
        durationMs,
        nextPollAt,
        etag: res.etag,
        lastModified: res.lastModified,
        schedule,
      });
      const w = out.written;
      const changed = w.incidents + w.maintenances + w.advisories + w.updates > 0 || w.components || w.status;
      // A first read finds history, not news: it says nothing of how fresh we are.
      const freshness = src.lastSuccessAt !== null && out.events.length ? freshnessOf(out.events, d.clock.now()) : undefined;
      return {
        ...base,
        status: changed ? 'updated' : 'unchanged',
        httpStatus,
        error: null,
        events: out.events.length,
        written: w,
        durationMs,
        nextPollAt: nextPollAt.toISOString(),
        ...(freshness?.length ? { freshness } : {}),
      };
    } catch (err) {
      const durationMs = elapsed();
      if (err instanceof LeaseLostError) {
        log.warn({ source: src.id }, 'lease lost during poll; result discarded');
        return { ...base, status: 'skipped', httpStatus, error: err.message, events: 0, written: null, durationMs, nextPollAt: null };
      }
      if (err instanceof FetchError && err.code === 'aborted') {
        await d.ingest.release(ref(src), d.owner).catch(() => {});
        return { ...base, status: 'skipped', httpStatus, error: err.message, events: 0, written: null, durationMs, nextPollAt: null };
      }
      const error = describe(err, src.type);
      if (err instanceof FetchError && err.status !== null) httpStatus = err.status;
      const retryAfter = err instanceof FetchError ? err.retryAfterSeconds : null;
      const nextPollAt = new Date(polledAt.getTime() + failureDelayMs(interval, src.consecutiveFailures + 1, random, retryAfter));
      if (!(err instanceof FetchError) && err instanceof Error && err.name !== 'AdapterError') {
        log.error({ err, source: src.id }, 'applying a poll failed');
      } else {
        log.debug({ source: src.id, error, detail: err instanceof Error ? err.message.slice(0, 500) : undefined }, 'poll failed');
      }
      try {
        await d.ingest.recordFailure(ref(src), { owner: d.owner, polledAt, durationMs, nextPollAt, error });
      } catch (dbErr) {
        // The lease expires on its own; the source is retried after it.
        log.error({ err: dbErr, source: src.id }, 'could not record a failed poll');
      }
      return { ...base, status: 'failed', httpStatus, error, events: 0, written: null, durationMs, nextPollAt: nextPollAt.toISOString() };
    }
  }

  function track<T>(p: Promise<T>): Promise<T> {
    inFlight.add(p);
    void p.finally(() => inFlight.delete(p)).catch(() => {});
    return p;
  }

  /**
   * One polling round: every (due, or all with `force`) source of the catalog or of
   * one vendor, each claimed just before its poll starts, all under the limits.
   */
  async function runRound(o: RoundOptions = {}): Promise<RoundReport> {
    const started = performance.now();
    const now = d.clock.now().toISOString();
    const targets = (await d.sources.list(o.vendor)).filter((src) => o.force || src.nextPollAt === null || src.nextPollAt <= now);
    o.onPlanned?.(targets.length);
    const outcomes = await Promise.all(
      targets.map((t) =>
        track(
          limiter.run(hostKey(t.url), async () => {
            const base = { sourceId: t.id, vendor: t.vendor, type: t.type, url: t.url, trigger: 'schedule' as const };
            let outcome: PollOutcome;
            const src = stopping.signal.aborted ? null : await d.sources.claimOne(t.id, { owner: d.owner, now: d.clock.now(), leaseMs, force: o.force });
            if (!src) {
              outcome = {
                ...base,
                status: 'skipped',
                httpStatus: null,
                error: 'busy: leased by another poller, or not due',
                events: 0,
                written: null,
                durationMs: 0,
                nextPollAt: t.nextPollAt,
              };
            } else {
              outcome = await pollLeased(src);
            }
            o.onResult?.(outcome);
            d.onPoll?.(outcome);
            return outcome;
          }),
        ),
      ),
    );
    return {
      outcomes,
      durationMs: Math.round(performance.now() - started),
      events: outcomes.reduce((n, x) => n + x.events, 0),
    };
  }

  /** The running loop: claim due sources for the free slots, poll each as soon as its host has room. */
  async function tick() {
    if (!running || ticking) return;
    ticking = true;
    try {
      const free = s.concurrency - limiter.running - limiter.waiting;
      if (free > 0) {
        const claimed = await d.sources.claim({ owner: d.owner, now: d.clock.now(), leaseMs, limit: free });
        for (const src of claimed) {
          void track(limiter.run(hostKey(src.url), () => pollLeased(src))).then(
            (o) => {
              d.onPoll?.(o);
              if (o.status === 'failed') {
                log.debug({ source: o.sourceId, error: o.error }, 'source poll failed');
                failures.add(o, d.clock.now().getTime());
              }
              if (o.events) log.debug({ source: o.sourceId, events: o.events }, 'source changed');
              kick();
            },
            (err) => log.error({ err, source: src.id }, 'poll crashed'),
          );
        }
      }
      logFailures();
      await pruneEvents();
    } catch (err) {
      log.error({ err }, 'scheduler tick failed');
    } finally {
      ticking = false;
      schedule(s.tickMs ?? 1000);
    }
  }

  function schedule(ms: number) {
    if (!running) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => void tick(), ms);
    timer.unref?.();
  }

  /** A slot freed: look for more due work soon instead of waiting a full tick. */
  function kick() {
    if (running && !ticking) schedule(10);
  }

  /** One info line per window for the failed polls of the running loop (docs/operations.md, "Logs"). */
  function logFailures(force = false) {
    const summary = failures.take(d.clock.now().getTime(), force);
    if (summary) log.info({ pollFailures: summary }, pollFailureMessage(summary));
  }

  async function pruneEvents() {
    const days = s.eventRetentionDays ?? 0;
    if (!d.events || days <= 0) return;
    const now = d.clock.now().getTime();
    if (now - lastPrune < 3_600_000) return;
    lastPrune = now;
    const removed = await d.events.prune(new Date(now - days * 86_400_000));
    if (removed) log.info({ removed }, 'pruned old events');
  }

  return {
    runRound,
    start() {
      if (running) return;
      running = true;
      schedule(0);
      log.info({ owner: d.owner, concurrency: s.concurrency, perHost: s.perHost }, 'ingestion scheduler started');
    },
    /** Stops claiming, aborts polls in flight (their leases are released) and waits for them. */
    async stop() {
      running = false;
      if (timer) clearTimeout(timer);
      timer = null;
      stopping.abort();
      await Promise.allSettled([...inFlight]);
      logFailures(true);
    },
    get running() {
      return running;
    },
  };
}

export type Scheduler = ReturnType<typeof createScheduler>;
