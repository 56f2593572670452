import type { Config } from '../config.ts';
import type { Store } from '../store/db.ts';
import { incidentsRepository } from '../store/repositories/incidents-repository.ts';
import { maintenancesRepository } from '../store/repositories/maintenances-repository.ts';
import { publicationsRepository } from '../store/repositories/publications-repository.ts';
import { sourcesRepository } from '../store/repositories/sources-repository.ts';
import { statusRepository } from '../store/repositories/status-repository.ts';
import { vendorsRepository } from '../store/repositories/vendors-repository.ts';
import { catalogService } from './catalog-service.ts';
import type { Clock } from './context.ts';
import { overviewService } from './overview-service.ts';
import { recordsService } from './records-service.ts';
import { statsService } from './stats-service.ts';
import { statusService } from './status-service.ts';

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
  };
}

export type Repositories = ReturnType<typeof createRepositories>;

export function createServices(store: Store, config: Config, clock: Clock) {
  const repos = createRepositories(store);
  const catalog = catalogService(repos.vendors, async (slug) =>
    (await repos.sources.list(slug)).map((s) => ({ type: s.type, url: s.url })),
  );
  const base = { ...repos, catalog, clock };
  return {
    config,
    clock,
    store,
    repos,
    catalog,
    records: recordsService(base),
    status: statusService(base),
    stats: statsService(base),
    overview: overviewService(base),
  };
}

export type Services = ReturnType<typeof createServices>;
