import type { Clock } from '../domain/clock.ts';
import type { CatalogVendor } from '../domain/records.ts';
import type { Config } from '../infra/config.ts';
import { openStore, type Store } from '../store/db.ts';
import type { SourceRow } from '../store/repositories/sources-repository.ts';
import { type PromoteInput, promotePage } from './vendors/custom-pages-promote.ts';
import { probesRepository } from '../store/repositories/probes-repository.ts';
import { type ProbeHealth, probeHealth } from './probes/probes-service.ts';
import { keylessBox } from '../infra/secret-box.ts';
import { privateProbesRepository } from '../store/repositories/private-probes-repository.ts';
import { type PrivateProbeView, privateProbeView } from './probes/private-probes-service.ts';
import { createServices, type Services } from './index.ts';
import { repositoriesOn } from './repositories.ts';
import type { PageDetector } from '../domain/custom-sources.ts';
import { type SourceRepairService, sourceRepairService } from './vendors/source-repair-service.ts';

// The operator CLI's way to the store (docs/operations.md "Operator CLI",
// docs/architecture.md): it opens the configured store here and gets use cases over
// it, so no adapter imports src/store.

/** Opens the configured store, runs `fn`, and always closes the store. */
export async function withStore<T>(config: Config, fn: (store: Store) => Promise<T>): Promise<T> {
  const store = openStore(config);
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}

/** The services over the configured, migrated store; the store is closed after `fn`. */
export async function withMigratedServices<T>(config: Config, clock: Clock, fn: (opened: { services: Services }) => Promise<T>): Promise<T> {
  return withStore(config, async (store) => {
    await store.migrate();
    return fn({ services: createServices(store, config, clock) });
  });
}

/**
 * `sources` and `sources promote` over the configured, migrated store. Kept apart from the
 * services: listing sources needs no secrets key, so it does not load one.
 */
export async function withSourceAdmin<T>(
  config: Config,
  clock: Clock,
  fn: (admin: { list(vendor?: string): Promise<SourceRow[]>; promote(input: PromoteInput): Promise<CatalogVendor> }) => Promise<T>,
): Promise<T> {
  return withStore(config, async (store) => {
    await store.migrate();
    const repos = repositoriesOn(store.db);
    return fn({
      list: (vendor) => repos.sources.list(vendor),
      promote: (input) => promotePage({ customPages: repos.customPages, clock }, input),
    });
  });
}

/** `probes`: each probe's health from the configured, migrated store (no secrets key needed). */
export async function withProbeHealth(config: Config, clock: Clock, vendor?: string): Promise<ProbeHealth[]> {
  return withStore(config, async (store) => {
    await store.migrate();
    return probeHealth(probesRepository(store.db), clock.now(), vendor);
  });
}

/** `catalog repair`: the self-healing use cases over the configured, migrated store (no secrets key needed). */
export async function withSourceRepairs<T>(
  config: Config,
  clock: Clock,
  detectPage: PageDetector,
  fn: (repairs: SourceRepairService) => Promise<T>,
): Promise<T> {
  return withStore(config, async (store) => {
    await store.migrate();
    return fn(sourceRepairService({ repairs: repositoriesOn(store.db).sourceRepairs, detectPage, clock }));
  });
}

/**
 * `probes --org ID`: an organisation's private probes with their state, from the configured,
 * migrated store; the credential is shown as its header name and last four characters only,
 * and no secrets key is loaded (nothing is opened).
 */
export async function withPrivateProbeHealth(config: Config, orgId: string, vendor?: string): Promise<PrivateProbeView[]> {
  return withStore(config, async (store) => {
    await store.migrate();
    return (await privateProbesRepository(store.db, keylessBox).list(orgId, vendor)).map(privateProbeView);
  });
}
