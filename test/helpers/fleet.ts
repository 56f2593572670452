import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CatalogVendor } from '../../src/domain/records.ts';
import { readCatalog } from '../../src/services/vendors/catalog-loader.ts';
import type { Clock } from '../../src/domain/clock.ts';
import { createSimulator, type Simulator } from '../../src/ingest/simulator/index.ts';
import { getJson, startApp, type StartOptions, type TestApp } from './app.ts';

// A simulated fleet for some catalog vendors on a loopback port, and a catalog file
// pointing at it: the app under test polls it through the real fetcher and adapters.

export interface TestFleet {
  sim: Simulator;
  catalog: CatalogVendor[];
  catalogFile: string;
  close(): Promise<void>;
}

/** No random activity: tests make every change explicitly through `sim.fleet`. */
export const QUIET = { newIncident: 0, advanceIncident: 0, newMaintenance: 0, advisory: 0, update: 0 };

export async function startFleet(slugs: string[], o: { clock: Clock; seed?: number; history?: boolean }): Promise<TestFleet> {
  const all = readCatalog();
  const picked = slugs.map((s) => {
    const v = all.find((x) => x.slug === s);
    if (!v) throw new Error(`no catalog vendor '${s}'`);
    return v;
  });
  const sim = createSimulator({ catalog: picked, clock: o.clock, seed: o.seed ?? 1, history: o.history ?? false, rates: QUIET, tag: 't' });
  await sim.listen();
  const catalog = sim.rewriteCatalog(picked);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vis-fleet-'));
  const catalogFile = path.join(dir, 'vendors.json');
  fs.writeFileSync(catalogFile, JSON.stringify(catalog));
  return {
    sim,
    catalog,
    catalogFile,
    async close() {
      await sim.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * An app polling `fleet`. The poll deadline is short enough for the hanging-source test
 * and long enough that a loaded machine does not time out healthy sources.
 */
export function startIngestApp(fleet: TestFleet, o: StartOptions = {}): Promise<TestApp> {
  return startApp({
    ...o,
    catalogFile: fleet.catalogFile,
    env: { INGEST_TIMEOUT_MS: '6000', INGEST_HOST_CONCURRENCY: '16', ...o.env },
  });
}

export const sourceUrl = (fleet: TestFleet, vendor: string, suffix: string) => {
  const s = fleet.catalog.find((v) => v.slug === vendor)?.sources.find((x) => x.url.endsWith(suffix));
  if (!s) throw new Error(`no source of ${vendor} ending in ${suffix}`);
  return s.url;
};

export async function eventsOf(t: TestApp, entityId?: string) {
  const all = await t.repos.events.after(0, 10_000);
  return entityId ? all.filter((e) => e.entityId === entityId) : all;
}

export const api = (t: TestApp, p: string) => getJson(`${t.api}${p}`);
