import { sharedCompilers } from './http/schema-compilers.ts';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import cookie from '@fastify/cookie';
import compress from '@fastify/compress';
import { BROTLI_OPTIONS, COMPRESS_THRESHOLD, COMPRESSIBLE, GZIP_OPTIONS } from './http/access/content-coding.ts';
import formbody from '@fastify/formbody';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from './infra/config.ts';
import { envelope } from './http/envelope.ts';
import { finiteNumbers } from './http/finite-numbers.ts';
import { clientErrorHandler, errorsPlugin, frameworkErrorHandler } from './http/plugins/errors.ts';
import { openapiPlugin } from './http/plugins/openapi.ts';
import { requestIdFor, requestIdFrom } from './http/request-id.ts';
import { serializeRequest } from './http/log-redaction.ts';
import { requestHygienePlugin } from './http/request-hygiene.ts';
import { mcpPlugin } from './mcp/plugin.ts';
import { rateLimitPlugin } from './http/plugins/rate-limit.ts';
import { responseCachePlugin } from './http/plugins/response-cache.ts';
import { RequestLogController, requestSummaryPlugin } from './http/plugins/request-log.ts';
import { corsPlugin } from './http/plugins/cors.ts';
import { accessPipelinePlugin } from './http/access/pipeline.ts';
import { viewerPlugin } from './http/plugins/viewer.ts';
import { ACCOUNT_PREFIX, API_PREFIX } from './http/paths.ts';
import { accountRoutes } from './http/routes/account.ts';
import { orgRoutes } from './http/routes/orgs.ts';
import { auditRoutes } from './http/routes/audit.ts';
import { namedWatchlistRoutes } from './http/routes/named-watchlists.ts';
import { alertRouteRoutes } from './http/routes/alert-routes.ts';
import { serviceRoutes } from './http/routes/services.ts';
import { impactRoutes } from './http/routes/impact.ts';
import { earlyWarningRoutes } from './http/routes/early-warning.ts';
import { orgConfigRoutes } from './http/routes/org-config.ts';
import { telemetryConnectorRoutes } from './http/routes/telemetry-connectors.ts';
import { privateProbeRoutes } from './http/routes/private-probes.ts';
import { scimAdminRoutes } from './http/routes/scim-admin.ts';
import { SCIM_PREFIX, scimRoutes } from './http/routes/scim.ts';
import { ssoRoutes } from './http/routes/sso.ts';
import { authRoutes } from './http/routes/auth.ts';
import { connectionRoutes } from './http/routes/connections.ts';
import { analyticsRoutes } from './http/routes/analytics.ts';
import { discoveryRoutes } from './http/routes/discovery.ts';
import { healthRoutes } from './http/routes/health.ts';
import { metricsRoutes } from './http/routes/metrics.ts';
import { httpMetricsPlugin } from './http/plugins/metrics.ts';
import type { Metrics } from './domain/metrics.ts';
import { createMetricsRegistry } from './infra/metrics.ts';
import { listRoutes } from './http/routes/lists.ts';
import { perUserRoutes } from './http/routes/per-user.ts';
import { vendorRoutes } from './http/routes/vendor.ts';
import { diagnoseRoutes } from './http/routes/diagnose.ts';
import { pushRoutes } from './http/routes/push.ts';
import { DiagnoseSchema } from './http/schemas/diagnose.ts';
import { ErrorBody } from './http/schemas/common.ts';
import { boardRoutes, boardStreamRoutes } from './http/routes/boards.ts';
import { customPageRoutes } from './http/routes/custom-pages.ts';
import { CustomPageSchema } from './http/schemas/custom-pages.ts';
import { STREAM_EVENT_SCHEMAS, StreamEventSchema } from './http/schemas/stream-events.ts';
import {
  AdvisorySchema,
  IncidentSchema,
  MaintenanceSchema,
  UpdateSchema,
  VendorStatsSchema,
  VendorStatusSchema,
  VendorSummarySchema,
} from './http/schemas/records.ts';
import { prepareCatalog } from './ingest/catalog.ts';
import { createProbeRunner, createTelemetryRunner, type ProbeRunner, type TelemetryRunner } from './probes/index.ts';
import { createIngestRuntime, type IngestRuntime } from './ingest/runtime.ts';
import { type Clock, systemClock } from './domain/clock.ts';
import { type Access, createAccess, createRepositories, createServices, type Services } from './services/index.ts';
import { httpPageDetector } from './ingest/page-detect.ts';
import type { DataWindow } from './domain/time-window.ts';
import { openStore, type Store } from './store/db.ts';
import { slackRoutes } from './http/routes/slack.ts';
import { oidcRelyingParty } from './infra/oidc-relying-party.ts';
import type { TxtResolver } from './domain/sso.ts';
import { OUTBOUND_SCHEMAS } from './http/schemas/outbound.ts';
import { loadSecretBox } from './infra/secret-box.ts';
import { openInfra } from './infra/index.ts';
import { markRunningDemo } from './infra/running-demo.ts';
import { ReadinessProblem } from './http/readiness.ts';
import { type AlertRuntime, createAlertRuntime } from './alerts/runtime.ts';
import { slackOAuth } from './alerts/slack-oauth.ts';
import { alertRoutes } from './http/routes/alerts.ts';
import { feedRoutes } from './http/routes/feeds.ts';
import { badgeRoutes } from './http/routes/badges.ts';
import { publicFeedRoutes } from './http/routes/public-feeds.ts';
import { MemoryStreamSlots, type StreamSlots } from './infra/stream-slots.ts';
import { countedBus, type EventBus, memoryEventBus } from './infra/event-bus.ts';
import { redisEventBus } from './infra/redis-event-bus.ts';
import { memoryNoticeBus, type NoticeBus, redisNoticeBus } from './infra/notice-bus.ts';
import type { SignalNotice } from './services/early-warning/early-warning-service.ts';
import { createEarlyWarningRuntime, type EarlyWarningRuntime } from './services/early-warning/early-warning-runtime.ts';
import { StreamHub } from './events/stream-hub.ts';
import { streamRoutes } from './http/routes/stream.ts';
import type { RedisHandle } from './infra/redis.ts';
import { csrfPlugin } from './web/csrf.ts';
import { webPlugin } from './web/plugin.ts';
import { fastifyTrustProxy } from './http/trust-proxy.ts';
import { periodicRound } from './infra/periodic-round.ts';
import { type SourceRepairService, sourceRepairService } from './services/vendors/source-repair-service.ts';
import type { MaybePromise } from './domain/maybe-promise.ts';

export { API_PREFIX } from './http/paths.ts';

export interface ReadinessCheck {
  name: string;
  /** Throws when the dependency is not usable; a `ReadinessProblem` names the reason in the body. */
  check: () => Promise<void>;
  /** An optional dependency degrades the service but does not make it unready. */
  optional?: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    /** The use cases; repositories, store and bus stay here in the composition root (docs/architecture.md). */
    services: Services;
    /** The authenticator and request counters of the access pipelines (REST, stream, MCP). */
    access: Access;
    /** The app's clock: what "now" is for answers (tests move it). */
    clock: Clock;
    /** This instance's event bus (committed events), the one its stream hub, alert runtime and ingestion share. */
    bus: EventBus;
    /** The shared Redis connection (null without REDIS_URL); keys must start with its prefix. */
    redis: RedisHandle | null;
    readinessChecks: ReadinessCheck[];
    /**
     * Open incident streams of this process, the concurrent-stream counters, and the
     * anonymous streams of this process all addresses together (ANONYMOUS_STREAMS_PER_SERVER).
     */
    streams: { hub: StreamHub; slots: StreamSlots; anonymous: StreamSlots };
    /** Polling (started only with INGEST=live and the ingest role; in the worker thread unless INGEST_WORKER=false) and, in demo mode, the simulated fleet. */
    ingest: IngestRuntime;
    /** The probe runner (PROBES on and the ingest role), else null. */
    probeRunner: ProbeRunner | null;
    /** The evaluator of Prometheus connectors (started with the ingest role; tests call `runOnce`). */
    telemetryRunner: TelemetryRunner;
    /** Self-healing of catalog sources (docs/catalog.md "Self-healing"); scanned hourly with SOURCE_REPAIR and the ingest role. */
    sourceRepairs: SourceRepairService;
    /** Alert dispatcher and delivery worker (running with the deliver role and DELIVER on). */
    alerts: AlertRuntime;
    /** Confirmation of early-warning signals by new incidents and clearing of quiet ones (docs/early-warning.md). */
    earlyWarning: EarlyWarningRuntime;
    /** Changes of early-warning signals, for the streams of the owning organisation's members. */
    signalNotices: NoticeBus<SignalNotice>;
    /** This app's operations metrics (served at /metrics). */
    metrics: Metrics;
    envelope<T>(items: T[], extra?: { total?: number; dataWindow?: DataWindow; hint?: string }): Promise<ReturnType<typeof envelope<T>>>;
  }
  interface FastifyContextConfig {
    /** Response-cache TTL of a public route; absent = not cached. */
    cacheTtlSeconds?: number;
    /** The cache key of a route read by its body (access/route-access.ts). */
    cacheKeyOf?: (request: import('fastify').FastifyRequest) => string;
  }
}

export interface AppOptions {
  config: Config;
  clock?: Clock;
  /** An already opened store (tests share one across apps); otherwise opened from config. */
  store?: Store;
  catalogFile?: string;
  /** DNS TXT lookups of SSO domain verification (tests inject answers); the system resolver otherwise. */
  resolveTxt?: TxtResolver;
}

/** The application as a Fastify plugin: infrastructure, then services, then routes. */
export const appPlugin = fp(
  async (app: FastifyInstance, opts: AppOptions) => {
    const { config } = opts;
    const clock = opts.clock ?? systemClock;
    const ownsStore = !opts.store;
    const store = opts.store ?? openStore(config);
    // onClose hooks run in reverse order: the store closes last.
    if (ownsStore) app.addHook('onClose', async () => store.close());
    // One registry per app: tests run many apps in one process.
    const registry = createMetricsRegistry({
      onCollectError: (err, metric) => app.log.warn({ err, metric }, 'metrics: collecting a figure failed'),
      componentSeries: config.metricsComponentSeries,
    });
    const { metrics } = registry;
    app.decorate('metrics', metrics);
    const ingestLog = app.log.child({ component: 'ingest' });
    await store.migrate();
    const { simulator, catalog: loadedCatalog } = await prepareCatalog(store, config, clock, {
      catalogFile: opts.catalogFile ?? config.catalogFile ?? undefined,
      log: ingestLog,
      freshDemo: true,
    });
    if (simulator) {
      const unmark = markRunningDemo(config.dataDir, simulator.url, clock.now());
      app.addHook('onClose', async () => unmark());
    }

    const infra = await openInfra(config, clock, app.log);
    app.addHook('onClose', async () => infra.close());
    // Committed events reach every instance's streams through Redis when there is one.
    const eventLog = app.log.child({ component: 'events' });
    // Counted where this instance publishes (its own commits, and its ingestion worker's).
    const bus = countedBus(
      infra.redis
        ? redisEventBus(infra.redis, eventLog)
        : { ...memoryEventBus((err) => eventLog.warn({ err }, 'event subscriber failed')), close: async () => {} },
      (events) => metrics.eventsPublished(events),
    );
    app.addHook('onClose', async () => bus.close());
    // Early-warning signals reach the streams of the owning organisation's members (docs/early-warning.md "Outputs").
    const notices: NoticeBus<SignalNotice> = infra.redis
      ? redisNoticeBus<SignalNotice>(infra.redis, eventLog)
      : memoryNoticeBus<SignalNotice>((err) => eventLog.warn({ err }, 'notice subscriber failed'));
    app.addHook('onClose', async () => notices.close());
    const secretBox = loadSecretBox({
      key: config.secretsKey,
      previous: config.secretsKeyPrevious,
      dataDir: config.dataDir,
      warn: (msg) => app.log.warn(msg),
    });
    // Repositories first: alert delivery and the services share them, and the services get
    // the delivery runtime as a finished object (docs/architecture.md).
    const repos = createRepositories(store, secretBox);
    // Early-warning confirmation runs before a new incident's alerts are written (the
    // signal's thread continues with them); the services exist by the time it is called.
    const alerts = createAlertRuntime({
      config,
      clock,
      repos,
      bus,
      log: app.log.child({ component: 'alerts' }),
      metrics,
      confirmSignals: () => services.earlyWarning.signals.confirmFromLog(),
    });
    // Detection of user-added pages (docs/per-user.md): guarded requests, own pool.
    const detectPage = httpPageDetector({
      allowList: config.outboundAllowPrivate,
      timeoutMs: config.customSourcesProbeTimeoutMs,
      maxBytes: config.ingestMaxBytes,
      now: () => clock.now(),
    });
    app.addHook('onClose', async () => detectPage.close());
    // Single sign-on's OpenID Connect client (docs/teams.md): guarded requests, own pool.
    const relyingParty = oidcRelyingParty({ allowList: config.outboundAllowPrivate, timeoutMs: config.customSourcesProbeTimeoutMs, now: () => clock.now() });
    app.addHook('onClose', async () => relyingParty.close());
    // Who calls and how much they may: the access pipelines' authenticator and counters,
    // shared with the use cases that sign in and count (docs/access.md).
    const access = createAccess(repos, config, clock, {
      limiter: infra.limiter,
      onBackgroundError: (err, what) => app.log.warn({ err, what }, 'background write failed'),
    });
    const services = createServices(store, config, clock, {
      access,
      secretBox,
      repos,
      detectPage,
      relyingParty,
      resolveTxt: opts.resolveTxt,
      bus,
      signalNotices: (n) => notices.publish(n),
      alerts,
      slackOAuth:
        config.slackClientId && config.slackClientSecret
          ? slackOAuth({
              clientId: config.slackClientId,
              clientSecret: config.slackClientSecret,
              authorizeUrl: config.slackOAuthUrl,
              apiUrl: config.slackApiUrl,
              timeoutMs: config.deliveryTimeoutMs,
            })
          : null,
    });
    app.decorate('alerts', alerts);
    // Confirmation's cursor starts at the log's head; then new incidents confirm, quiet signals clear.
    await services.earlyWarning.signals.confirmFromLog();
    const earlyWarning = createEarlyWarningRuntime({
      signals: services.earlyWarning.signals,
      bus,
      log: app.log.child({ component: 'early-warning' }),
      intervalMs: config.earlyWarningSweepSeconds * 1000,
    });
    app.decorate('earlyWarning', earlyWarning);
    app.decorate('signalNotices', notices);
    app.addHook('onReady', async () => earlyWarning.start());
    app.addHook('onClose', async () => earlyWarning.stop());
    // Sends in flight finish and their results are written before the store closes.
    app.addHook('onClose', async () => alerts.stop());
    await alerts.dispatcher.init();
    // Secrets stored in clear (before encryption at rest) or with a rotated-out key: sealed with the current key.
    // Every sealed column, not the preferences alone: a value left on the old key becomes
    // unreadable once SECRETS_KEY_PREVIOUS is dropped (docs/security.md "Channel secrets").
    const resealed = {
      preferences: await repos.preferences.resealAll((orgId) =>
        app.log.warn(
          { orgId },
          'notification preferences sealed with a key this instance does not have: left as they are (docs/security.md "Channel secrets")',
        ),
      ),
      alertRoutes: await repos.alertRoutes.resealDestinations(),
      sso: await repos.sso.resealClientSecrets(),
      inboundSignals: await repos.earlyWarning.resealInboundSecrets(),
      privateProbes: await repos.probes.resealCredentials(),
      telemetry: await repos.telemetry.resealTokens(),
    };
    const rows = Object.values(resealed).reduce((a, b) => a + b, 0);
    if (rows) app.log.info({ rows, ...resealed, keyId: secretBox.keyId }, 'secrets sealed with the current secrets key');
    if (config.deliver && config.roles.includes('deliver')) {
      app.addHook('onReady', async () => alerts.start());
    }
    const hub = new StreamHub({
      bus,
      notices,
      events: repos.events,
      log: eventLog,
      pingMs: config.streamPingSeconds * 1000,
      annotate: (orgId, events) => services.stream.affected(orgId, events),
      // A stream is counted when it closes, its duration its life (src/http/plugins/metrics.ts).
      ended: (route, seconds) => metrics.httpRequest('GET', route, 200, seconds),
    });
    app.decorate('streams', { hub, slots: infra.streamSlots, anonymous: new MemoryStreamSlots() });
    registry.observe({
      pendingDeliveries: () => repos.deliveries.countPending(),
      openStreams: () => hub.size,
      polledVendors: () => services.health.polledVendors(),
      vendorStatus: () => services.overview.statusFigures(config.metricsComponentSeries),
    });
    // Before the server stops listening for connections to end: open streams are ended
    // with a last comment so their clients reconnect (elsewhere, when there is another instance).
    app.addHook('preClose', async () => hub.close());
    const ingest = createIngestRuntime({ store, config, clock, ingest: services.ingest, bus, simulator, log: ingestLog, metrics });
    app.decorate('ingest', ingest);
    // Polls in flight finish their writes before the store closes.
    app.addHook('onClose', async () => ingest.close());
    if (config.ingest === 'live' && config.roles.includes('ingest')) {
      app.addHook('onReady', async () => ingest.start());
    }
    // Probes of vendors' public endpoints (docs/early-warning.md "Probes"): the catalog's list
    // is kept in the store on every start (the CLI reads it); instances with the ingest role
    // and PROBES on run them, each probe once per interval across the fleet.
    await services.earlyWarning.probes.syncCatalog(config.demo ? [] : loadedCatalog);
    let probeRunner: ProbeRunner | null = null;
    if (config.probes && config.roles.includes('ingest')) {
      probeRunner = createProbeRunner({
        probes: services.earlyWarning.probes,
        allowList: config.outboundAllowPrivate,
        concurrency: config.probeConcurrency,
        hostConcurrency: config.probeHostConcurrency,
        timeoutMs: config.probeTimeoutMs,
        tickMs: Math.min(5_000, config.probeIntervalSeconds * 1000),
        now: () => clock.now().getTime(),
        log: app.log.child({ component: 'probes' }),
      });
      const runner = probeRunner;
      app.addHook('onReady', async () => runner.start());
      app.addHook('onClose', async () => runner.stop());
    }
    app.decorate('probeRunner', probeRunner);
    // Prometheus connectors (docs/early-warning.md "Prometheus connectors"): evaluated by
    // instances with the ingest role and TELEMETRY on, each connector once per interval across the fleet.
    const telemetryRunner = createTelemetryRunner({
      telemetry: services.earlyWarning.telemetry,
      allowList: config.outboundAllowPrivate,
      timeoutMs: config.telemetryTimeoutMs,
      tickMs: Math.min(5_000, config.telemetryIntervalSeconds * 1000),
      log: app.log.child({ component: 'telemetry' }),
    });
    if (config.telemetry && config.roles.includes('ingest')) app.addHook('onReady', async () => telemetryRunner.start());
    app.addHook('onClose', async () => telemetryRunner.stop());
    app.decorate('telemetryRunner', telemetryRunner);
    // Self-healing of catalog sources (docs/catalog.md "Self-healing"): instances with the
    // ingest role and SOURCE_REPAIR on probe the pages of vendors whose sources keep failing.
    const sourceRepairs = sourceRepairService({
      repairs: repos.sourceRepairs,
      detectPage,
      clock,
      onApplied: (r) =>
        ingestLog.info(
          { vendor: r.vendor, from: r.from, to: r.to, pageName: r.pageName },
          'catalog sources repaired: the page moved platform and kept its name',
        ),
    });
    app.decorate('sourceRepairs', sourceRepairs);
    if (config.sourceRepair && config.roles.includes('ingest')) {
      const repairRound = periodicRound(() => sourceRepairs.scan(), {
        everyMs: config.sourceRepairIntervalSeconds * 1000,
        onError: (err) => ingestLog.warn({ err }, 'source repair: a scan failed; retrying on the next one'),
      });
      app.addHook('onReady', async () => repairRound.start());
      app.addHook('onClose', async () => repairRound.stop());
    }
    app.decorate('config', config);
    app.decorate('services', services);
    app.decorate('access', access);
    app.decorate('clock', clock);
    app.decorate('bus', bus);
    app.decorate('redis', infra.redis);
    const checks: ReadinessCheck[] = [{ name: 'database', check: () => store.ping() }];
    // Without Redis, limits and cache run in-process: degraded, still ready.
    if (infra.redis) checks.push({ name: 'redis', check: infra.redis.ping, optional: true });
    // A deployment that polls live is degraded while most sources fail or nothing
    // has been polled successfully for a while (docs/operations.md "Source health").
    if (config.ingest === 'live') {
      const startedAt = clock.now();
      checks.push({
        name: 'ingest',
        optional: true,
        check: async () => {
          const r = await services.health.readiness(startedAt);
          if (r.problem) throw new ReadinessProblem(r.problem);
        },
      });
    }
    app.decorate('readinessChecks', checks);
    app.decorate('envelope', async <T>(items: T[], extra = {}) => envelope(await services.freshness.current(), items, extra));

    for (const schema of [
      ErrorBody,
      IncidentSchema,
      MaintenanceSchema,
      AdvisorySchema,
      UpdateSchema,
      VendorSummarySchema,
      VendorStatusSchema,
      VendorStatsSchema,
      // Stream payloads (docs/stream.md, "Payloads in the OpenAPI document").
      ...STREAM_EVENT_SCHEMAS,
      StreamEventSchema,
      ...OUTBOUND_SCHEMAS,
      CustomPageSchema,
      DiagnoseSchema,
    ]) {
      app.addSchema(schema);
    }

    await app.register(requestSummaryPlugin);
    await app.register(errorsPlugin);
    // Compression of every answer a route sends (docs/access.md, "Compression"); cache hits
    // carry their own compressed variants (http/access/cache-hit.ts), the event stream none.
    await app.register(compress, {
      global: true,
      encodings: ['br', 'gzip'],
      threshold: COMPRESS_THRESHOLD,
      customTypes: COMPRESSIBLE,
      brotliOptions: BROTLI_OPTIONS,
      zlibOptions: GZIP_OPTIONS,
      // Every buffered body in one go, as the cache-hit variants are: a streamed one stays
      // open until its client reads it, which held a closing server for a minute.
      syncThreshold: 64 * 1024 * 1024,
    });
    // Whether or not this answer was compressed, another client's may be: caches must key on it.
    app.addHook('onSend', async (_request, reply, payload) => {
      if (COMPRESSIBLE.test(String(reply.getHeader('content-type') ?? '')) && !/accept-encoding/i.test(String(reply.getHeader('vary') ?? ''))) {
        reply.header('vary', reply.getHeader('vary') ? `${reply.getHeader('vary')}, Accept-Encoding` : 'Accept-Encoding');
      }
      return payload;
    });
    await app.register(httpMetricsPlugin, { metrics });
    await app.register(requestHygienePlugin);
    await app.register(formbody);
    await app.register(openapiPlugin);
    await app.register(cookie, { hook: false });
    await app.register(viewerPlugin);
    await app.register(csrfPlugin);
    await app.register(rateLimitPlugin);
    await app.register(responseCachePlugin, { cache: infra.cache, requestId: requestIdFrom });
    await app.register(corsPlugin);
    // Each route's chain of access steps (src/http/access/pipeline.ts), from the plugins above.
    await app.register(accessPipelinePlugin);
    // MCP and its OAuth authorization server authenticate on their own (bearer tokens).
    await app.register(mcpPlugin);

    await app.register(healthRoutes);
    await app.register(metricsRoutes, { registry });
    await app.register(
      async (api) => {
        await api.register(discoveryRoutes);
        await api.register(vendorRoutes);
        await api.register(diagnoseRoutes);
        await api.register(listRoutes);
        await api.register(analyticsRoutes);
        await api.register(perUserRoutes);
        await api.register(alertRoutes);
        await api.register(slackRoutes);
        await api.register(streamRoutes);
      },
      { prefix: API_PREFIX },
    );
    await app.register(feedRoutes);
    await app.register(badgeRoutes);
    await app.register(publicFeedRoutes);
    await app.register(boardStreamRoutes);
    await app.register(
      async (web) => {
        await web.register(authRoutes);
        await web.register(accountRoutes);
        await web.register(connectionRoutes);
        await web.register(orgRoutes);
        await web.register(auditRoutes);
        await web.register(namedWatchlistRoutes);
        await web.register(alertRouteRoutes);
        await web.register(serviceRoutes);
        await web.register(impactRoutes);
        await web.register(earlyWarningRoutes);
        await web.register(orgConfigRoutes);
        await web.register(telemetryConnectorRoutes);
        await web.register(privateProbeRoutes);
        await web.register(scimAdminRoutes);
        await web.register(ssoRoutes);
        await web.register(boardRoutes);
        await web.register(customPageRoutes);
        await web.register(pushRoutes);
      },
      { prefix: ACCOUNT_PREFIX },
    );
    // SCIM 2.0 provisioning: its own bearer tokens, media type and error body (docs/teams.md, "SCIM").
    await app.register(scimRoutes, { prefix: SCIM_PREFIX });
    await app.register(webPlugin);
  },
  { name: 'vendor-status-app' },
);

/** The caller's X-Request-Id when it is sane, else a fresh one (shared with the MCP listener). */
export const requestId: (req: IncomingMessage) => string = requestIdFor;

export function fastifyOptions(config: Config, logStream?: NodeJS.WritableStream): FastifyServerOptions {
  return {
    logger: {
      level: config.logLevel,
      ...(logStream ? { stream: logStream } : {}),
      // Credentials never reach a log line.
      redact: {
        paths: ['req.headers.authorization', 'req.headers["x-api-key"]', 'req.headers.cookie', 'res.headers["set-cookie"]'],
        censor: '[redacted]',
      },
      // ...and neither do those in URLs (feed tokens, keys put in a query string).
      serializers: { req: serializeRequest },
    },
    // Request lines at debug (plugins/request-log.ts).
    logController: new RequestLogController(),
    genReqId: requestId,
    requestIdHeader: false,
    trustProxy: fastifyTrustProxy(config.trustProxy),
    bodyLimit: 1_048_576,
    // Start-up (migrations, the catalog, Redis) is bounded by its own deadlines: statements
    // 30 s, connections 5 s, Redis 2 s. Fastify's default 10 s per plugin is not one of them
    // and fails a start that is merely slow, on a busy machine or a large migration, with
    // "Plugin did not start in time" (docs/deployment.md, "Start-up").
    pluginTimeout: 120_000,
    // Answers given before routing (bad URL, broken HTTP) in the contract's error body.
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler,
    ajv: { customOptions: { coerceTypes: true, removeAdditional: true, useDefaults: true, allErrors: false }, plugins: [finiteNumbers] },
    schemaController: { compilersFactory: sharedCompilers },
  };
}

/** Builds the whole service on a new Fastify instance (what server.ts and the tests run). */
export async function buildApp(config: Config, opts: Omit<AppOptions, 'config'> & { logStream?: NodeJS.WritableStream } = {}): Promise<FastifyInstance> {
  const { logStream, ...appOpts } = opts;
  // Our own HTTP server so plain cache hits can be answered before Fastify (see
  // http/access/hot-path.ts); the server settings are Fastify's defaults.
  let app: FastifyInstance | null = null;
  const serverFactory = (handler: (req: IncomingMessage, res: ServerResponse) => void) => {
    const server = http.createServer((req, res) => {
      const hotPath = app?.cacheHotPath;
      if (!hotPath) return handler(req, res);
      const failed = (err: unknown) => {
        app?.log.warn({ err }, 'cache hot path failed; answering through the full pipeline');
        handler(req, res);
      };
      let answered: MaybePromise<boolean>;
      try {
        answered = hotPath(req, res);
      } catch (err) {
        return failed(err);
      }
      // Most hits are answered at once (hot-path.ts); the others once their lookups are back.
      if (answered === false) handler(req, res);
      else if (answered !== true) answered.then((done) => done || handler(req, res), failed);
    });
    server.keepAliveTimeout = 72_000;
    server.requestTimeout = 0;
    server.setTimeout(0);
    // Event streams' sockets are no longer the server's (src/http/stream-socket.ts): cutting
    // every connection (a shutdown's halfway cut, docs/deployment.md) cuts them too.
    const closeAll = server.closeAllConnections.bind(server);
    server.closeAllConnections = () => {
      closeAll();
      app?.streams?.hub.cut();
    };
    return server;
  };
  app = Fastify({ ...fastifyOptions(config, logStream), serverFactory });
  // Set on arrival (callback style: this runs on every request) so every answer carries it.
  app.addHook('onRequest', (req, reply, done) => {
    reply.header('X-Request-Id', req.id);
    done();
  });
  await app.register(appPlugin, { ...appOpts, config });
  return app;
}
