// What the service reports about its own operation (docs/operations.md). Workers,
// plugins and routes call this small interface; the Prometheus implementation
// lives in infra/metrics.ts, so nothing outside it depends on prom-client, and the
// ingestion worker thread can forward the same calls to the main thread.

import type { Freshness, PollTrigger } from './poll-schedule.ts';

/** How one poll of a source ended (the scheduler's PollStatus). */
type PollResult = 'updated' | 'unchanged' | 'not_modified' | 'failed' | 'skipped';

/** How a cached route's request was answered: from an entry, by computing it, or without the cache. */
type CacheResult = 'hit' | 'coalesced' | 'miss' | 'bypass';

/** Where a cache hit was answered: at the HTTP server before Fastify (hot path), or inside Fastify. */
type CacheLayer = 'server' | 'app';

/** What ran out: a plan window, or the plan's concurrent streams. */
export type RefusalKind = 'minute' | 'day' | 'streams';

export interface PollObservation {
  source: string;
  vendor: string;
  result: PollResult;
  durationMs: number;
  /** Per change the poll found: seconds from the vendor publishing it to our record, and its kind (docs/operations.md "Metrics"). */
  freshness?: Freshness[];
  /** What brought the poll: a push from the vendor or the schedule. */
  trigger?: PollTrigger;
}

export interface Metrics {
  /** One answered HTTP request; `route` is the route template (never the raw URL). */
  httpRequest(method: string, route: string, status: number, seconds: number): void;
  cache(route: string, result: CacheResult, layer: CacheLayer): void;
  rateLimited(plan: string, kind: RefusalKind): void;
  polled(p: PollObservation): void;
  /** One attempt of an alert delivery (`result`: succeeded, retry, failed, disabled, cancelled). */
  deliveryAttempt(channel: string, result: string): void;
  /** A delivery that succeeded, `lagSeconds` after the event it carries was detected. */
  delivered(channel: string, lagSeconds: number): void;
  eventsPublished(events: readonly { type: string }[]): void;
}

/** The route label of a request that matched no route (bounded, unlike its URL). */
export const UNMATCHED_ROUTE = 'unmatched';
