import { collectDefaultMetrics, Counter, Gauge, Histogram, type Metric, Registry } from 'prom-client';
import type { Metrics } from '../domain/metrics.ts';

// The Prometheus side of domain/metrics.ts: one Registry per app instance (tests run
// many apps in one process, and each must see its own counts), never prom-client's
// global registry. Names and labels are documented in docs/operations.md; every
// label is bounded (route templates, plans, vendors and sources of the catalog,
// channels, fixed result names).

const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const POLL_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
// Alerts are retried for hours (domain/alerts.ts), so the lag buckets reach that far.
const LAG_BUCKETS = [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600, 21600];

/** Figures read when Prometheus scrapes, instead of being counted as they change. */
export interface ScrapeSources {
  /** Pending alert deliveries by channel (one indexed count per scrape). */
  pendingDeliveries?: () => Promise<Record<string, number>>;
  /** Event streams open on this instance. */
  openStreams?: () => number;
}

export interface MetricsRegistry {
  readonly metrics: Metrics;
  /** Adds the figures read on scrape (once the parts that hold them exist). */
  observe(sources: ScrapeSources): void;
  readonly contentType: string;
  /** The text exposition of every metric of this app and of the process. */
  scrape(): Promise<string>;
}

// Process figures (CPU, memory, file descriptors, event loop delay, GC) belong to the
// process, not to an app, and their collectors cannot be stopped (an event-loop
// monitor and a GC observer each). So they are collected once per process, into a
// registry of their own, and that same set of metric objects is added to every
// app's registry: each scrape shows them, and starting many apps adds no monitors.
let processMetrics: Metric[] | null = null;
function processWide(): Metric[] {
  if (!processMetrics) {
    const register = new Registry();
    collectDefaultMetrics({ register });
    processMetrics = register.getMetricsAsArray().map((m) => register.getSingleMetric(m.name)!);
  }
  return processMetrics;
}

export function createMetricsRegistry(o: { onCollectError?: (err: unknown, metric: string) => void } = {}): MetricsRegistry {
  const register = new Registry();
  for (const m of processWide()) register.registerMetric(m);
  const registers = [register];
  const sources: ScrapeSources = {};

  const httpRequests = new Counter({
    name: 'vis_http_requests_total',
    help: 'HTTP requests answered, by method, route template and status (cache hits answered before Fastify included).',
    labelNames: ['method', 'route', 'status'],
    registers,
  });
  const httpDuration = new Histogram({
    name: 'vis_http_request_duration_seconds',
    help: 'Time from the request to the end of its response, by method, route template and status.',
    labelNames: ['method', 'route', 'status'],
    buckets: HTTP_BUCKETS,
    registers,
  });
  const cache = new Counter({
    name: 'vis_response_cache_requests_total',
    help: 'Requests of cached routes by outcome: hit, coalesced (waited for a concurrent computation), miss, bypass (skipCache); layer server = answered before Fastify.',
    labelNames: ['route', 'result', 'layer'],
    registers,
  });
  const refusals = new Counter({
    name: 'vis_rate_limit_refusals_total',
    help: 'Requests refused with 429 by plan limits: kind minute or day (request windows), streams (concurrent streams).',
    labelNames: ['plan', 'kind'],
    registers,
  });
  const polls = new Counter({
    name: 'vis_ingest_polls_total',
    help: 'Polls of vendor sources by source id, vendor and result (updated, unchanged, not_modified, failed, skipped).',
    labelNames: ['source', 'vendor', 'result'],
    registers,
  });
  const pollDuration = new Histogram({
    name: 'vis_ingest_poll_duration_seconds',
    help: 'Duration of one poll (fetch, parse, apply) by vendor and result.',
    labelNames: ['vendor', 'result'],
    buckets: POLL_BUCKETS,
    registers,
  });
  const attempts = new Counter({
    name: 'vis_alert_delivery_attempts_total',
    help: 'Alert delivery attempts by channel and result (succeeded, retry, failed, disabled, cancelled).',
    labelNames: ['channel', 'result'],
    registers,
  });
  const lag = new Histogram({
    name: 'vis_alert_delivery_lag_seconds',
    help: 'From the event (the poll that detected the change) to the successful send of its alert, by channel.',
    labelNames: ['channel'],
    buckets: LAG_BUCKETS,
    registers,
  });
  const events = new Counter({
    name: 'vis_events_published_total',
    help: 'Events committed to the event log by this instance and published to its streams and alerts, by type.',
    labelNames: ['type'],
    registers,
  });
  new Gauge({
    name: 'vis_alert_deliveries_pending',
    help: 'Alert deliveries waiting to be sent or retried (all instances: read from the database on scrape), by channel.',
    labelNames: ['channel'],
    registers,
    async collect() {
      this.reset();
      if (!sources.pendingDeliveries) return;
      try {
        for (const [channel, n] of Object.entries(await sources.pendingDeliveries())) this.set({ channel }, n);
      } catch (err) {
        // A scrape still answers; the series is absent until the database does.
        o.onCollectError?.(err, 'vis_alert_deliveries_pending');
      }
    },
  });
  new Gauge({
    name: 'vis_streams_open',
    help: 'Incident event streams open on this instance.',
    registers,
    collect() {
      this.set(sources.openStreams?.() ?? 0);
    },
  });

  const metrics: Metrics = {
    httpRequest(method, route, status, seconds) {
      const labels = { method, route, status: String(status) };
      httpRequests.inc(labels);
      httpDuration.observe(labels, seconds);
    },
    cache(route, result, layer) {
      cache.inc({ route, result, layer });
    },
    rateLimited(plan, kind) {
      refusals.inc({ plan, kind });
    },
    polled(p) {
      polls.inc({ source: p.source, vendor: p.vendor, result: p.result });
      pollDuration.observe({ vendor: p.vendor, result: p.result }, p.durationMs / 1000);
    },
    deliveryAttempt(channel, result) {
      attempts.inc({ channel, result });
    },
    delivered(channel, lagSeconds) {
      lag.observe({ channel }, Math.max(0, lagSeconds));
    },
    eventsPublished(list) {
      for (const e of list) events.inc({ type: e.type });
    },
  };

  return {
    metrics,
    observe(s) {
      Object.assign(sources, s);
    },
    contentType: register.contentType,
    scrape: () => register.metrics(),
  };
}
