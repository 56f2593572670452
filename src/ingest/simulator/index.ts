import type { CatalogVendor } from '../../domain/records.ts';
import type { Clock } from '../../domain/clock.ts';
import { Fleet, type FleetChange, type FleetRates } from './fleet.ts';
import { DEMO_TYPE, demoPath } from './formats.ts';
import { pick, seededRandom } from './random.ts';
import { createSimulatorServer, type Fault, type SimulatorStats } from './server.ts';

// The simulated vendor fleet: our own generator of status pages for the catalog's
// vendors, served over loopback HTTP in their real formats. Demo mode points the
// catalog at it; tests poll it with injected faults; the benchmark scales it up.

export type { Fault, FleetChange, SimulatorStats };
export { Fleet };

export interface SimulatorOptions {
  catalog: CatalogVendor[];
  clock: Clock;
  seed?: number;
  rates?: Partial<FleetRates>;
  /** Start with made-up past incidents, maintenance, advisories and release notes. */
  history?: boolean;
  /** Id prefix (see Fleet); tests fix it, the demo derives it from the start time. */
  tag?: string;
}

export interface Simulator {
  readonly fleet: Fleet;
  readonly url: string;
  readonly stats: SimulatorStats;
  listen(port?: number, host?: string): Promise<string>;
  close(): Promise<void>;
  /** Advances the fleet by one tick. */
  step(): FleetChange[];
  /**
   * Steps on a timer (demo). With `outages`, now and then one source breaks for a while
   * (error status, garbage or no answer), so failures, backoff and sourceHealth show too.
   */
  startTimer(everyMs: number, onStep?: (changes: FleetChange[]) => void, o?: { outages?: boolean }): void;
  setFault(pathOrUrl: string, fault: Fault | null): void;
  clearFaults(): void;
  /** The catalog with every source URL pointing at this simulator. */
  rewriteCatalog(catalog: CatalogVendor[], o?: { intervalSeconds?: number; feedIntervalSeconds?: number }): CatalogVendor[];
}

export function createSimulator(o: SimulatorOptions): Simulator {
  const fleet = new Fleet({
    clock: o.clock,
    seed: o.seed,
    rates: o.rates,
    history: o.history,
    tag: o.tag,
    vendors: o.catalog
      .filter((v) => v.sources.length > 0)
      .map((v) => ({
        slug: v.slug,
        name: v.name,
        advisories: v.sources.some((s) => s.type === 'advisory-feed'),
        updates: v.sources.some((s) => s.type === 'release-feed'),
      })),
  });
  const server = createSimulatorServer(fleet);
  let timer: NodeJS.Timeout | null = null;
  let served: string[] = [];
  const outageRandom = seededRandom((o.seed ?? 1) + 7919);
  const outages = new Map<string, number>();
  const OUTAGES: Fault[] = [{ kind: 'status', status: 503 }, { kind: 'status', status: 500 }, { kind: 'garbage' }, { kind: 'hang' }];

  /** One step of the demo's outages: running ones count down, and sometimes a new one starts. */
  function outageStep() {
    for (const [url, left] of outages) {
      if (left <= 1) {
        outages.delete(url);
        server.setFault(url, null);
      } else outages.set(url, left - 1);
    }
    if (served.length && outages.size < 2 && outageRandom() < 0.05) {
      const url = pick(outageRandom, served);
      outages.set(url, 6 + Math.floor(outageRandom() * 18));
      server.setFault(url, pick(outageRandom, OUTAGES));
    }
  }

  return {
    fleet,
    get url() {
      return server.url;
    },
    stats: server.stats,
    listen: (port, host) => server.listen(port, host),
    async close() {
      if (timer) clearInterval(timer);
      timer = null;
      await server.close();
    },
    step: () => fleet.step(),
    startTimer(everyMs, onStep, t = {}) {
      if (timer) clearInterval(timer);
      timer = setInterval(() => {
        const changes = fleet.step();
        if (t.outages) outageStep();
        onStep?.(changes);
      }, everyMs);
      timer.unref();
    },
    setFault: (p, f) => server.setFault(p, f),
    clearFaults: () => server.clearFaults(),
    rewriteCatalog(catalog, r = {}) {
      if (!server.url) throw new Error('simulator is not listening yet');
      const rewritten = catalog.map((v) => ({
        ...v,
        sources: v.sources.map((s) => {
          const type = DEMO_TYPE[s.type];
          const feed = type === 'advisory-feed' || type === 'release-feed';
          const interval = feed ? (r.feedIntervalSeconds ?? r.intervalSeconds) : r.intervalSeconds;
          return {
            type,
            url: `${server.url}/${type}/${v.slug}${demoPath(s.type, s.url)}`,
            ...(interval !== undefined ? { intervalSeconds: interval } : s.intervalSeconds ? { intervalSeconds: s.intervalSeconds } : {}),
          };
        }),
      }));
      served = rewritten.flatMap((v) => v.sources.map((s) => s.url));
      return rewritten;
    },
  };
}
