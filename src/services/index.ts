import type { Config } from '../config.ts';
import type { Store } from '../store/db.ts';
import { type EventBus, memoryEventBus } from '../events/bus.ts';
import { catalogService } from './catalog-service.ts';
import type { Clock } from './context.ts';
import { ingestService } from './ingest-service.ts';
import { repositoriesOn } from './repositories.ts';
import { recordsService } from './records-service.ts';
import { statsService } from './stats-service.ts';
import { statusService } from './status-service.ts';

/** Repositories over one store; services and workers receive these, never SQL. */
export function createRepositories(store: Store) {
  return repositoriesOn(store.db);
}

export type Repositories = ReturnType<typeof createRepositories>;

export interface ServiceOptions {
  /** Fan-out of committed events; in-process unless a shared one is given. */
  bus?: EventBus;
}

export function createServices(store: Store, config: Config, clock: Clock, opts: ServiceOptions = {}) {
  const repos = createRepositories(store);
  const bus = opts.bus ?? memoryEventBus();
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
    bus,
    // Demo data says so on every record, not only in the list envelope.
    ingest: ingestService({ store, clock, bus, sourceLabel: config.demo ? 'demo' : undefined }),
  };
}

export type Services = ReturnType<typeof createServices>;
