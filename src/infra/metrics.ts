import { isPrivateSlug } from '../domain/custom-sources.ts';
import { collectDefaultMetrics, Counter, Gauge, Histogram, type Metric, Registry } from 'prom-client';
import type { Metrics } from '../domain/metrics.ts';
import { type Freshness, POLL_TRIGGERS } from '../domain/poll-schedule.ts';

// The Prometheus side of domain/metrics.ts: one Registry per app instance (tests run
// many apps in one process, and each must see its own counts), never prom-client's
// global registry. Names and labels are documented in docs/operations.md; every
// label is bounded (route templates, plans, vendors and sources of the catalog,
// channels, fixed result names).

const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const POLL_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const POLL_RESULTS = ['updated', 'unchanged', 'not_modified', 'failed', 'skipped'] as const;
// Alerts are retried for hours (domain/alerts.ts), so the lag buckets reach that far.
/** Seconds, finest around the few seconds a push takes and the tens of seconds a poll takes (docs/operations.md "Metrics"). */
const FRESHNESS_BUCKETS = [1, 2, 3, 5, 10, 20, 30, 45, 60, 90, 120, 300, 900, 3600];
const FRESHNESS_KINDS: readonly Freshness['kind'][] = ['incident', 'maintenance'];
const LAG_BUCKETS = [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600, 21600];

interface Series {
  labels: Record<string, string>;
  count: number;
  sum: number;
  /** Observations per bucket (not cumulative; summed on scrape). */
  buckets: number[];
}

/**
 * Counts (and optionally a histogram) per label set for the per-request figures.
 * prom-client validates and hashes the labels on every call (about 1 µs per metric);
 * on a cache hit answered in tens of µs that would be a few per cent of the answer.
 * Here a request costs a Map lookup and a few increments, and the text is produced on
 * scrape. The objects registered below speak prom-client's metric protocol (`get()`).
 */
class RequestFamily {
  readonly series = new Map<string, Series>();

  private readonly labelNames: readonly string[];
  readonly buckets: readonly number[];

  constructor(labelNames: readonly string[], buckets: readonly number[] = []) {
    this.labelNames = labelNames;
    this.buckets = buckets;
  }

  record(key: string, values: readonly string[], seconds = 0) {
    let s = this.series.get(key);
    if (!s) {
      const labels: Record<string, string> = {};
      this.labelNames.forEach((n, i) => (labels[n] = values[i]!));
      s = { labels, count: 0, sum: 0, buckets: this.buckets.map(() => 0) };
      this.series.set(key, s);
    }
    s.count++;
    if (!this.buckets.length) return;
    s.sum += seconds;
    const b = this.buckets;
    for (let i = 0; i < b.length; i++) {
      if (seconds <= b[i]!) {
        s.buckets[i]!++;
        break;
      }
    }
  }

  counter(name: string, help: string): Metric {
    const values = () => [...this.series.values()].map((s) => ({ labels: s.labels, value: s.count }));
    return exposed(name, help, 'counter', values);
  }

  histogram(name: string, help: string): Metric {
    const values = () =>
      [...this.series.values()].flatMap((s) => {
        let cumulative = 0;
        return [
          ...this.buckets.map((le, i) => ({ metricName: `${name}_bucket`, labels: { ...s.labels, le }, value: (cumulative += s.buckets[i]!) })),
          { metricName: `${name}_bucket`, labels: { ...s.labels, le: '+Inf' }, value: s.count },
          { metricName: `${name}_sum`, labels: s.labels, value: s.sum },
          { metricName: `${name}_count`, labels: s.labels, value: s.count },
        ];
      });
    return exposed(name, help, 'histogram', values);
  }
}

/** A metric object as a Registry reads it (what prom-client's own metrics return from get()). */
function exposed(name: string, help: string, type: 'counter' | 'histogram', values: () => object[]): Metric {
  const self = { name, help, type, aggregator: 'sum', get: async () => ({ name, help, type, aggregator: 'sum', values: values() }) };
  return self as unknown as Metric;
}

/** Figures read when Prometheus scrapes, instead of being counted as they change. */
interface ScrapeSources {
  /** Pending alert deliveries by channel (one indexed count per scrape). */
  pendingDeliveries?: () => Promise<Record<string, number>>;
  /** Event streams open on this instance. */
  openStreams?: () => number;
  /** Vendor (and, when switched on, component) status levels, read from the database on scrape. */
  /** Catalog vendors with a source now: poll series of any other vendor are dropped. */
  polledVendors?: () => Promise<string[]>;
  vendorStatus?: () => Promise<{
    vendors: { vendor: string; level: number; activeIncidents: number | null }[];
    components: { vendor: string; component: string; level: number }[];
  }>;
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

export function createMetricsRegistry(
  o: {
    onCollectError?: (err: unknown, metric: string) => void;
    /** Expose vis_component_status (METRICS_COMPONENT_SERIES): one series per component of every vendor. */
    componentSeries?: boolean;
  } = {},
): MetricsRegistry {
  const register = new Registry();
  for (const m of processWide()) register.registerMetric(m);
  const registers = [register];
  const sources: ScrapeSources = {};

  const http = new RequestFamily(['method', 'route', 'status'], HTTP_BUCKETS);
  register.registerMetric(
    http.counter('vis_http_requests_total', 'HTTP requests answered, by method, route template and status (cache hits answered before Fastify included).'),
  );
  register.registerMetric(
    http.histogram('vis_http_request_duration_seconds', 'Time from the request to the end of its response, by method, route template and status.'),
  );
  const cache = new RequestFamily(['route', 'result', 'layer']);
  register.registerMetric(
    cache.counter(
      'vis_response_cache_requests_total',
      'Requests of cached routes by outcome: hit, coalesced (waited for a concurrent computation), miss, bypass (skipCache); layer server = answered before Fastify.',
    ),
  );
  const refusals = new Counter({
    name: 'vis_rate_limit_refusals_total',
    help: 'Requests refused with 429 by plan limits: kind minute or day (request windows), streams (concurrent streams).',
    labelNames: ['plan', 'kind'],
    registers,
  });
  // Series per vendor, never per source row (ids change with a source's URL) and never a
  // histogram per vendor: a catalog of 761 vendors made /metrics 4.1 MB in 15 minutes
  // (docs/operations.md, "Metrics"). Vendors that leave the catalog lose their series.
  const polledVendors = new Set<string>();
  const polls = new Counter({
    name: 'vis_ingest_polls_total',
    help: 'Polls of vendor sources by vendor and result (updated, unchanged, not_modified, failed, skipped).',
    labelNames: ['vendor', 'result'],
    registers,
    async collect() {
      if (!sources.polledVendors || !polledVendors.size) return;
      let listed: Set<string>;
      try {
        listed = new Set(await sources.polledVendors());
      } catch (err) {
        o.onCollectError?.(err, 'vis_ingest_polls_total');
        return;
      }
      for (const vendor of polledVendors) {
        if (listed.has(vendor) || vendor === 'private') continue;
        for (const result of POLL_RESULTS) this.remove({ vendor, result });
        polledVendors.delete(vendor);
      }
    },
  });
  const pollDuration = new Histogram({
    name: 'vis_ingest_poll_duration_seconds',
    help: 'Duration of one poll (fetch, parse, apply) by result, all vendors together.',
    labelNames: ['result'],
    buckets: POLL_BUCKETS,
    registers,
  });
  const freshness = new Histogram({
    name: 'vis_ingest_freshness_seconds',
    help: "From a vendor publishing a change (its update's own time) to our record of it, by kind of record and by what brought the poll (push or schedule), all vendors together; first reads and history older than 6 h are left out.",
    labelNames: ['kind', 'trigger'],
    buckets: FRESHNESS_BUCKETS,
    registers,
  });
  // Every series from the start: a scrape shows 0 pushed changes rather than no series.
  for (const kind of FRESHNESS_KINDS) for (const trigger of POLL_TRIGGERS) freshness.zero({ kind, trigger });
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
  // The three vendor gauges come from one read per scrape, shared through this promise.
  let statusRead: Promise<Awaited<ReturnType<NonNullable<ScrapeSources['vendorStatus']>>> | null> | null = null;
  const readStatus = () => {
    statusRead ??= (async () => {
      if (!sources.vendorStatus) return null;
      try {
        return await sources.vendorStatus();
      } catch (err) {
        o.onCollectError?.(err, 'vis_vendor_status');
        return null;
      } finally {
        // The next scrape reads again.
        setImmediate(() => (statusRead = null));
      }
    })();
    return statusRead;
  };
  new Gauge({
    name: 'vis_vendor_status',
    help: 'Current indicator of each vendor: -1 unknown, 0 operational, 1 maintenance, 2 degraded, 3 partial outage, 4 major outage.',
    labelNames: ['vendor'],
    registers,
    async collect() {
      this.reset();
      for (const v of (await readStatus())?.vendors ?? []) this.set({ vendor: v.vendor }, v.level);
    },
  });
  new Gauge({
    name: 'vis_vendor_active_incidents',
    help: 'Unresolved incidents of each vendor.',
    labelNames: ['vendor'],
    registers,
    async collect() {
      this.reset();
      // A vendor not monitored has no series: a stored incident nothing can resolve is not one open now.
      for (const v of (await readStatus())?.vendors ?? []) if (v.activeIncidents !== null) this.set({ vendor: v.vendor }, v.activeIncidents);
    },
  });
  if (o.componentSeries) {
    new Gauge({
      name: 'vis_component_status',
      help: 'Current status of each component: -1 unknown, 0 operational, 1 under maintenance, 2 degraded performance, 3 partial outage, 4 major outage.',
      labelNames: ['vendor', 'component'],
      registers,
      async collect() {
        this.reset();
        for (const c of (await readStatus())?.components ?? []) this.set({ vendor: c.vendor, component: c.component }, c.level);
      },
    });
  }
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
      http.record(`${method} ${status} ${route}`, [method, route, String(status)], seconds);
    },
    cache(route, result, layer) {
      cache.record(`${result} ${layer} ${route}`, [route, result, layer]);
    },
    rateLimited(plan, kind) {
      refusals.inc({ plan, kind });
    },
    polled(p) {
      // Pages users added are their owners' only (docs/per-user.md): one shared label, no slug.
      const hidden = isPrivateSlug(p.vendor);
      const vendor = hidden ? 'private' : p.vendor;
      polledVendors.add(vendor);
      polls.inc({ vendor, result: p.result });
      pollDuration.observe({ result: p.result }, p.durationMs / 1000);
      const trigger = p.trigger ?? 'schedule';
      for (const f of p.freshness ?? []) freshness.observe({ kind: f.kind, trigger }, f.seconds);
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
