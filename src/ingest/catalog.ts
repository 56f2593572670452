import type { Clock } from '../domain/clock.ts';
import type { CatalogVendor } from '../domain/records.ts';
import { applyRepairs } from '../domain/source-repair.ts';
import type { Config } from '../infra/config.ts';
import { loadCatalog, readCatalog } from '../services/vendors/catalog-loader.ts';
import { ensureDataMode } from '../services/ingest/data-mode.ts';
import { repositoriesOn } from '../services/repositories.ts';
import type { Store } from '../store/db.ts';
import type { Logger } from './scheduler.ts';
import { createSimulator, type Simulator } from './simulator/index.ts';

// What is polled, set up before polling starts (the server and `ingest --once`): the
// data-mode guard, and the catalog, pointed at the simulated fleet in demo mode
// (docs/ingestion.md, "Demo mode").

export interface PreparedCatalog {
  catalog: CatalogVendor[];
  /** Running in demo mode only. */
  simulator: Simulator | null;
}

/**
 * Loads the catalog into the store. In demo mode it first starts the simulated fleet
 * on a loopback port and rewrites every source to point at it (slugs stay);
 * `freshDemo` (the server's start) removes a previous fleet's records first.
 */
export async function prepareCatalog(
  store: Store,
  config: Config,
  clock: Clock,
  o: { catalogFile?: string; log?: Logger; freshDemo?: boolean } = {},
): Promise<PreparedCatalog> {
  const repos = repositoriesOn(store.db);
  await ensureDataMode(repos.dataMode, config.demo ? 'demo' : 'live', clock.now(), o.log, { freshDemo: o.freshDemo });
  let catalog = readCatalog(o.catalogFile);
  let simulator: Simulator | null = null;
  if (config.demo) {
    simulator = createSimulator({
      catalog,
      clock,
      seed: config.demoSeed ?? Math.floor(Math.random() * 2 ** 31),
      history: true,
    });
    await simulator.listen(0, '127.0.0.1');
    catalog = simulator.rewriteCatalog(catalog, {
      intervalSeconds: config.pollIntervalSeconds,
      feedIntervalSeconds: config.pollIntervalSeconds * 3,
    });
    o.log?.info({ simulator: simulator.url }, 'demo mode: polling the simulated vendor fleet');
  } else {
    // Repairs in force replace their vendors' sources at every start (docs/catalog.md "Self-healing").
    catalog = applyRepairs(catalog, await repos.sourceRepairs.list());
  }
  try {
    await loadCatalog(repos.vendors, catalog, clock.now());
  } catch (err) {
    await simulator?.close();
    throw err;
  }
  return { catalog, simulator };
}
