import type { Config } from '../config.ts';
import { MemoryRateLimiter, type RateLimiter } from '../infra/rate-limiter.ts';
import type { Store } from '../store/db.ts';
import { apiKeysRepository } from '../store/repositories/api-keys-repository.ts';
import { incidentsRepository } from '../store/repositories/incidents-repository.ts';
import { maintenancesRepository } from '../store/repositories/maintenances-repository.ts';
import { preferencesRepository } from '../store/repositories/preferences-repository.ts';
import { oauthRepository } from '../store/repositories/oauth-repository.ts';
import { publicationsRepository } from '../store/repositories/publications-repository.ts';
import { sessionsRepository } from '../store/repositories/sessions-repository.ts';
import { sourcesRepository } from '../store/repositories/sources-repository.ts';
import { statusRepository } from '../store/repositories/status-repository.ts';
import { usersRepository } from '../store/repositories/users-repository.ts';
import { vendorsRepository } from '../store/repositories/vendors-repository.ts';
import { watchlistRepository } from '../store/repositories/watchlist-repository.ts';
import { accountsService } from './access/accounts-service.ts';
import { authenticator } from './access/authenticator.ts';
import { keysService } from './access/keys-service.ts';
import { catalogService } from './catalog-service.ts';
import { connectionsService } from './connections-service.ts';
import type { Clock } from './context.ts';
import { favoritesService } from './favorites-service.ts';
import { preferencesService } from './preferences-service.ts';
import { overviewService } from './overview-service.ts';
import { recordsService } from './records-service.ts';
import { statsService } from './stats-service.ts';
import { statusService } from './status-service.ts';
import { watchlistService } from './watchlist-service.ts';

/** Repositories over one store; services and workers receive these, never SQL. */
export function createRepositories(store: Store) {
  const db = store.db;
  return {
    vendors: vendorsRepository(db),
    sources: sourcesRepository(db),
    status: statusRepository(db),
    incidents: incidentsRepository(db),
    maintenances: maintenancesRepository(db),
    publications: publicationsRepository(db),
    watchlist: watchlistRepository(db),
    preferences: preferencesRepository(db),
    users: usersRepository(db),
    sessions: sessionsRepository(db),
    apiKeys: apiKeysRepository(db),
    oauth: oauthRepository(db),
  };
}

export type Repositories = ReturnType<typeof createRepositories>;

export interface ServiceInfra {
  /** Request counters (REST, stream, MCP, login throttling); in-process unless given. */
  limiter?: RateLimiter;
  /** Where credential-check failures that must not fail a request are reported. */
  onBackgroundError?: (err: unknown, what: string) => void;
}

export function createServices(store: Store, config: Config, clock: Clock, infra: ServiceInfra = {}) {
  const repos = createRepositories(store);
  const limiter = infra.limiter ?? new MemoryRateLimiter(() => clock.now().getTime());
  const auth = authenticator({
    apiKeys: repos.apiKeys,
    sessions: repos.sessions,
    clock,
    cacheSeconds: config.authCacheSeconds,
    onTouchError: (err) => infra.onBackgroundError?.(err, 'api key lastUsedAt'),
  });
  const catalog = catalogService(repos.vendors, async (slug) =>
    (await repos.sources.list(slug)).map((s) => ({ type: s.type, url: s.url })),
  );
  const base = { ...repos, catalog, clock };
  const stats = statsService(base);
  return {
    config,
    clock,
    store,
    repos,
    catalog,
    records: recordsService(base),
    status: statusService(base),
    stats,
    watchlist: watchlistService(base),
    preferences: preferencesService({ ...base, allowPrivate: config.outboundAllowPrivate }),
    favorites: favoritesService({ ...base, stats }),
    overview: overviewService(base),
    limiter,
    auth,
    accounts: accountsService({
      users: repos.users,
      sessions: repos.sessions,
      apiKeys: repos.apiKeys,
      auth,
      limiter,
      clock,
      passwordHashCost: config.passwordHashCost,
      rateLimits: config.rateLimits,
    }),
    connections: connectionsService({ oauth: repos.oauth, clock }),
    keys: keysService({ apiKeys: repos.apiKeys, auth, clock, minPlan: config.apiKeyMinPlan }),
  };
}

export type Services = ReturnType<typeof createServices>;
