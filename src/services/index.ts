import type { Config } from '../infra/config.ts';
import { MemoryRateLimiter, type RateLimiter } from '../infra/rate-limiter.ts';
import type { Store } from '../store/db.ts';
import { deliveriesRepository } from '../store/repositories/deliveries-repository.ts';
import { dispatchRepository } from '../store/repositories/dispatch-repository.ts';
import { inboxRepository } from '../store/repositories/inbox-repository.ts';
import { alertThreadsRepository } from '../store/repositories/alert-threads-repository.ts';
import { preferencesRepository } from '../store/repositories/preferences-repository.ts';
import { keylessBox, loadSecretBox } from '../infra/secret-box.ts';
import type { SecretBox } from '../domain/secret-box.ts';
import { accountsService } from './access/accounts-service.ts';
import { type Authenticator, authenticator } from './access/authenticator.ts';
import { keysService } from './access/keys-service.ts';
import { type EventBus, memoryEventBus } from '../infra/event-bus.ts';
import { DomainError } from '../domain/errors.ts';
import { type AlertDelivery, alertsService } from './alerts/alerts-service.ts';
import { badgeService } from './feeds/badge-service.ts';
import { publicFeedService } from './feeds/public-feed-service.ts';
import { diagnoseService } from './vendors/diagnose-service.ts';
import { pushService } from './ingest/push-service.ts';
import { catalogService } from './vendors/catalog-service.ts';
import { connectionsService } from './alerts/connections-service.ts';
import { oauthService } from './oauth/oauth-service.ts';
import { slackInstallService } from './alerts/slack-install-service.ts';
import type { SlackOAuth } from '../domain/slack-install.ts';
import type { Clock } from '../domain/clock.ts';
import type { PageDetector } from '../domain/custom-sources.ts';
import { customPagesService } from './vendors/custom-pages-service.ts';
import { favoritesService } from './records/favorites-service.ts';
import { privateReaders as privateReadersOf } from './access/private-readers.ts';
import { freshnessService } from './records/freshness-service.ts';
import { vendorLookupService } from './vendors/vendor-lookup-service.ts';
import { preferencesService } from './alerts/preferences-service.ts';
import { ingestService } from './ingest/ingest-service.ts';
import { overviewService } from './records/overview-service.ts';
import { searchService } from './records/search-service.ts';
import { trendsService } from './records/trends-service.ts';
import { repositoriesOn } from './repositories.ts';
import { recordsService } from './records/records-service.ts';
import { statsService } from './records/stats-service.ts';
import { streamService } from './records/stream-service.ts';
import { sourceHealthService } from './vendors/source-health-service.ts';
import { statusService } from './records/status-service.ts';
import { watchlistService } from './orgs/watchlist-service.ts';
import { boardService } from './feeds/board-service.ts';
import { ssoRepository } from '../store/repositories/sso-repository.ts';
import { auditService } from './orgs/audit-service.ts';
import { ssoService } from './orgs/sso-service.ts';
import { ssoSignIn } from './orgs/sso-sign-in.ts';
import { SSO_CALLBACK_PATH, type OidcRelyingParty, type TxtResolver } from '../domain/sso.ts';
import { systemTxtResolver } from '../infra/dns-txt.ts';
import { orgsService } from './orgs/orgs-service.ts';
import { namedWatchlistsService } from './orgs/named-watchlists-service.ts';
import { alertRoutesService } from './alerts/alert-routes-service.ts';
import { alertRoutesRepository } from '../store/repositories/alert-routes-repository.ts';
import { servicesService } from './team-services/services-service.ts';
import { orgConfigService } from './config/org-config-service.ts';
import { impactService } from './impact/impact-service.ts';
import { eventAnnotator, recordAnnotator } from './impact/record-annotations.ts';
import { earlyWarningRepository } from '../store/repositories/early-warning-repository.ts';
import { earlyWarningService, type SignalNotice } from './early-warning/early-warning-service.ts';
import { signalImpact } from './impact/signal-impact.ts';
import { inboundSignalsService } from './early-warning/inbound-signals-service.ts';
import { transparencyService } from './early-warning/transparency-service.ts';
import { signalHistoryRepository } from '../store/repositories/signal-history-repository.ts';
import { probesRepository } from '../store/repositories/probes-repository.ts';
import { privateProbesRepository } from '../store/repositories/private-probes-repository.ts';
import { telemetryRepository } from '../store/repositories/telemetry-repository.ts';
import { telemetryService } from './probes/telemetry-service.ts';
import { probesService, type ProbesService } from './probes/probes-service.ts';
import { privateProbesService } from './probes/private-probes-service.ts';
import { scimAccess } from './scim/scim-access.ts';
import { scimGroupsService } from './scim/scim-groups-service.ts';
import { scimTokensService } from './scim/scim-tokens-service.ts';
import { scimUsersService } from './scim/scim-users-service.ts';

/** Repositories over one store; services and workers receive these, never SQL. */
export function createRepositories(store: Store, box: SecretBox = keylessBox) {
  return {
    ...repositoriesOn(store.db),
    preferences: preferencesRepository(store.db, box),
    alertRoutes: alertRoutesRepository(store.db, box),
    earlyWarning: earlyWarningRepository(store.db, box),
    signalHistory: signalHistoryRepository(store.db),
    probes: probesRepository(store.db, box),
    privateProbes: privateProbesRepository(store.db, box),
    telemetry: telemetryRepository(store.db, box),
    alertThreads: alertThreadsRepository(store.db),
    deliveries: deliveriesRepository(store.db, store.dialect),
    dispatch: dispatchRepository(store.db),
    inbox: inboxRepository(store.db),
    sso: ssoRepository(store.db, box),
  };
}

export type Repositories = ReturnType<typeof createRepositories>;

export interface ServiceInfra {
  /** Request counters (REST, stream, MCP, login throttling); in-process unless given. */
  limiter?: RateLimiter;
  /** The app's authenticator and counters (`createAccess`), shared with its access pipelines; made here unless given. */
  access?: Access;
  /** Where credential-check failures that must not fail a request are reported. */
  onBackgroundError?: (err: unknown, what: string) => void;
  /** Fan-out of committed events; in-process unless a shared one is given. */
  bus?: EventBus;
  /** Seals channel secrets at rest; from SECRETS_KEY (or the data directory's key) unless given. */
  secretBox?: SecretBox;
  /** Slack's OAuth client for the "Add to Slack" install; none = the install answers unavailable. */
  slackOAuth?: SlackOAuth | null;
  /** Repositories already built over this store (the app shares them with alert delivery). */
  repos?: Repositories;
  /** Alert delivery (channels, worker), built by the app before the services; none here = unavailable. */
  alerts?: AlertDelivery | null;
  /** Detects the platform of a page a user adds (docs/per-user.md); none: adding pages answers 503. */
  detectPage?: PageDetector;
  /** The OpenID Connect relying party of single sign-on (docs/teams.md); none: SSO answers unavailable. */
  relyingParty?: OidcRelyingParty | null;
  /** DNS TXT lookups for domain verification; the system resolver unless given (tests inject answers). */
  resolveTxt?: TxtResolver;
  /** Where changes of early-warning signals go (the owning organisation's streams); nowhere unless given. */
  signalNotices?: (n: SignalNotice) => void;
}

/** The ingest use case alone: all the polling worker thread needs (src/ingest/worker.ts). */
export function createIngestService(store: Store, config: Config, clock: Clock, bus: EventBus) {
  // Demo data says so on every record, not only in the list envelope.
  return ingestService({ store, clock, bus, sourceLabel: config.demo ? 'demo' : undefined });
}

/**
 * What the edges' access pipelines need beside the use cases (docs/architecture.md): who
 * calls (the authenticator and its credential cache) and how much they may (the request
 * counters). Built once per app and shared with the use cases that sign in and count.
 */
export interface Access {
  auth: Authenticator;
  limiter: RateLimiter;
}

export function createAccess(
  repos: Pick<Repositories, 'apiKeys' | 'sessions'>,
  config: Config,
  clock: Clock,
  infra: Pick<ServiceInfra, 'limiter' | 'onBackgroundError'> = {},
): Access {
  return {
    limiter: infra.limiter ?? new MemoryRateLimiter(() => clock.now().getTime()),
    auth: authenticator({
      apiKeys: repos.apiKeys,
      sessions: repos.sessions,
      clock,
      cacheSeconds: config.authCacheSeconds,
      onTouchError: (err) => infra.onBackgroundError?.(err, 'api key lastUsedAt'),
    }),
  };
}

/** The use cases over one store. The access pipelines' authenticator and counters are `infra.access` (else made here). */
export function createServices(store: Store, config: Config, clock: Clock, infra: ServiceInfra = {}) {
  const box = infra.secretBox ?? loadSecretBox({ key: config.secretsKey, previous: config.secretsKeyPrevious, dataDir: config.dataDir });
  const repos = infra.repos ?? createRepositories(store, box);
  const bus = infra.bus ?? memoryEventBus();
  const { auth, limiter } = infra.access ?? createAccess(repos, config, clock, infra);
  const catalog = catalogService(repos.vendors, async (slug) => (await repos.sources.list(slug)).map((s) => ({ type: s.type, url: s.url })));
  const health = sourceHealthService({ sources: repos.sources, clock, defaultIntervalSeconds: config.pollIntervalSeconds });
  const ingest = createIngestService(store, config, clock, bus);
  const audit = auditService({ audit: repos.audit, users: repos.users, clock });
  const base = { ...repos, catalog, clock, health, audit };
  const alertsRuntime = () => {
    const r = infra.alerts;
    if (!r) throw new DomainError('unavailable', 'Alert delivery is not running in this process');
    return r;
  };
  const preferences = preferencesService({
    ...base,
    allowPrivate: config.outboundAllowPrivate,
    publicUrl: config.publicUrl,
    mailer: () => infra.alerts?.confirmationMailer ?? null,
  });
  const alerts = alertsService({ deliveries: repos.deliveries, inbox: repos.inbox, preferences, clock, runtime: alertsRuntime });
  const stats = statsService(base);
  const annotate = recordAnnotator({ services: repos.services, status: repos.status });
  const records = recordsService({ ...base, annotate });
  const status = statusService(base);
  const overview = overviewService(base);
  const orgs = orgsService({
    organisations: repos.organisations,
    invitations: repos.invitations,
    users: repos.users,
    sessions: repos.sessions,
    apiKeys: repos.apiKeys,
    slidingLimits: repos.slidingLimits,
    auth,
    audit,
    clock,
    newOrgPlan: config.newOrgPlan,
    mailer: () => infra.alerts?.invitationMailer ?? null,
    publicUrl: config.publicUrl,
  });
  const scimTokens = scimTokensService({
    scimTokens: repos.scimTokens,
    organisations: repos.organisations,
    orgs,
    audit,
    limiter,
    clock,
    requestsPerMinute: config.scimRequestsPerMinute,
  });
  const provisioning = scimAccess({ scim: repos.scim, orgs, audit });
  const accounts = accountsService({
    users: repos.users,
    organisations: repos.organisations,
    newOrgPlan: config.newOrgPlan,
    sessions: repos.sessions,
    apiKeys: repos.apiKeys,
    auth,
    limiter,
    clock,
    passwordHashCost: config.passwordHashCost,
    rateLimits: config.rateLimits,
    sso: repos.sso,
    audit,
  });
  // Probes observe through the signals' use case; a dismissal relaxes the probes among its evidence.
  let probes: ProbesService | null = null;
  const signals = earlyWarningService({
    earlyWarning: repos.earlyWarning,
    events: repos.events,
    cursors: repos.dispatch,
    catalog,
    orgs,
    audit,
    clock,
    retentionMs: config.signalRetentionDays * 86_400_000,
    impactOf: signalImpact({ services: repos.services, status: repos.status, vendors: repos.vendors }),
    notify: infra.signalNotices,
    onDismissed: async (evidence) => probes?.relaxFor(evidence),
  });
  probes = probesService({ probes: repos.probes, signals, clock, intervalMs: config.probeIntervalSeconds * 1000 });
  const privateReaders = privateReadersOf({
    ownsPrivateVendors: (orgId) => repos.customPages.ownsAny(orgId),
    servicesVersion: (orgId) => repos.services.version(orgId),
    clock,
  });
  return {
    catalog,
    vendorLookup: vendorLookupService(repos.vendors),
    freshness: freshnessService({ sources: repos.sources, clock, demo: config.demo }),
    records,
    stream: streamService({ events: repos.events, records, clock, annotate: eventAnnotator({ services: repos.services, status: repos.status }) }),
    status,
    health,
    badges: badgeService({ status }),
    diagnose: diagnoseService({ vendors: repos.vendors, status, clock, services: repos.services, signals: repos.earlyWarning }),
    push: pushService({ pushHooks: repos.pushHooks, sources: repos.sources, vendors: repos.vendors, clock }),
    publicFeeds: publicFeedService({ ...base, preferences, publicUrl: config.publicUrl }),
    stats,
    ingest,
    watchlist: watchlistService(base),
    customPages: customPagesService({
      applyRead: (vendor, url, read) => ingest.applyRead(vendor, url, read, config.pollIntervalSeconds),
      customPages: repos.customPages,
      clock,
      onChange: (userId) => privateReaders.changed(userId),
      minPlan: config.customSourcesMinPlan,
      slidingLimits: repos.slidingLimits,
      audit,
      allowPrivate: config.outboundAllowPrivate,
      detect:
        infra.detectPage ??
        (async () => {
          throw new DomainError('unavailable', 'Detecting status pages is not available in this process');
        }),
    }),
    preferences,
    alerts,
    favorites: favoritesService({ ...base, stats }),
    privateReaders,
    overview,
    boards: boardService({ boards: repos.boards, watchlist: repos.watchlist, overview, catalog, clock, audit, annotate }),
    trends: trendsService(base),
    search: searchService(base),
    accounts,
    ssoSignIn: ssoSignIn({
      sso: repos.sso,
      users: repos.users,
      organisations: repos.organisations,
      audit,
      clock,
      limiter,
      relyingParty: () => infra.relyingParty ?? null,
      openSession: (userId, orgId) => accounts.openSession(userId, orgId),
      newOrgPlan: config.newOrgPlan,
      passwordHashCost: config.passwordHashCost,
    }),
    sso: ssoService({
      sso: repos.sso,
      organisations: repos.organisations,
      orgs,
      audit,
      clock,
      relyingParty: () => infra.relyingParty ?? null,
      resolveTxt: infra.resolveTxt ?? systemTxtResolver(),
      allowPrivate: config.outboundAllowPrivate,
      redirectUri: (base) => `${config.publicUrl ?? base}${SSO_CALLBACK_PATH}`,
    }),
    connections: connectionsService({ oauth: repos.oauth, clock }),
    /** The MCP authorization server's clients, codes and tokens (docs/mcp.md). */
    oauth: oauthService({ oauth: repos.oauth, clock }),
    slackInstall: slackInstallService({
      preferences: repos.preferences,
      threads: repos.alertThreads,
      box,
      clock,
      slidingLimits: repos.slidingLimits,
      oauth: infra.slackOAuth ?? null,
    }),
    keys: keysService({ apiKeys: repos.apiKeys, auth, clock, minPlan: config.apiKeyMinPlan, audit }),
    audit,
    orgs,
    namedWatchlists: namedWatchlistsService({ namedWatchlists: repos.namedWatchlists, catalog, orgs, audit, clock }),
    alertRoutes: alertRoutesService({
      routes: repos.alertRoutes,
      namedWatchlists: repos.namedWatchlists,
      members: repos.organisations,
      catalog,
      orgs,
      audit,
      alerts,
      clock,
      allowPrivate: config.outboundAllowPrivate,
    }),
    /** The organisation's own services and their vendor dependencies (docs/services.md). */
    teamServices: servicesService({
      services: repos.services,
      routes: repos.alertRoutes,
      status: repos.status,
      catalog,
      orgs,
      audit,
      clock,
      onChange: (orgId) => privateReaders.changed(orgId),
    }),
    /** Services, named watchlists and alert routes from one file (docs/services.md "Config as code"). */
    orgConfig: orgConfigService({
      db: store.db,
      box,
      vendors: repos.vendors,
      status: repos.status,
      members: repos.organisations,
      orgs,
      audit,
      clock,
      allowPrivate: config.outboundAllowPrivate,
      onChange: (orgId) => privateReaders.changed(orgId),
    }),
    /** Which of those services vendor incidents and maintenance hit now (docs/services.md "Impact now"). */
    impact: impactService({
      services: repos.services,
      incidents: repos.incidents,
      maintenances: repos.maintenances,
      status: repos.status,
      vendors: repos.vendors,
      orgs,
    }),
    /** Early warning: signals, reports, the inbound signal API (docs/early-warning.md). */
    earlyWarning: {
      signals,
      inbound: inboundSignalsService({ earlyWarning: repos.earlyWarning, signals, catalog, orgs, audit, clock }),
      /** Lead time over the vendor's page, unposted outages, time to resolve, per organisation (docs/early-warning.md "Transparency"). */
      transparency: transparencyService({ history: repos.signalHistory, catalog, orgs, clock }),
      /** Probes of vendors' public endpoints (docs/early-warning.md "Probes"). */
      probes,
      /** An organisation's own probes, with an optional credential (docs/early-warning.md "Private probes"). */
      privateProbes: privateProbesService({ privateProbes: repos.privateProbes, catalog, orgs, audit, clock, allowPrivate: config.outboundAllowPrivate }),
      /** An organisation's Prometheus connectors (docs/early-warning.md "Prometheus connectors"). */
      telemetry: telemetryService({
        telemetry: repos.telemetry,
        signals,
        catalog,
        orgs,
        audit,
        clock,
        allowPrivate: config.outboundAllowPrivate,
        intervalMs: config.telemetryIntervalSeconds * 1000,
      }),
    },
    /** SCIM 2.0 provisioning per organisation (docs/teams.md, "SCIM"). */
    scim: {
      tokens: scimTokens,
      users: scimUsersService({
        scim: repos.scim,
        users: repos.users,
        organisations: repos.organisations,
        access: provisioning,
        audit,
        clock,
        newOrgPlan: config.newOrgPlan,
      }),
      groups: scimGroupsService({ scim: repos.scim, access: provisioning, tokens: scimTokens, audit, clock }),
    },
  };
}

/**
 * The use cases every adapter (routes, MCP tools, CLI commands, web pages) is handed. The
 * repositories, store, configuration and bus stay with the composition root (src/app.ts) and the
 * workers it builds (docs/architecture.md).
 */
export type Services = ReturnType<typeof createServices>;
