import { INTERNAL_AUDIENCE } from '../../domain/audience.ts';
import { createIngestRuntime, prepareCatalog } from '../../ingest/index.ts';
import { systemClock } from '../../domain/clock.ts';
import { memoryEventBus } from '../../infra/event-bus.ts';
import { runningDemoIn } from '../../infra/running-demo.ts';
import { createServices } from '../../services/index.ts';
import { withStore } from '../../services/operator.ts';
import { type Command, cliConfig, parseOptions, UsageError } from '../command.ts';
import { createReporter } from '../progress.ts';

export const command: Command = {
  usage: 'ingest --once [--vendor SLUG] [--force]',
  summary: "Run one polling round now (every source, or one vendor's) and report per source",
  async run(argv) {
    const opts = parseOptions(argv, { once: { type: 'boolean' }, vendor: { type: 'string' }, force: { type: 'boolean' } }, this.usage);
    if (!opts.once) {
      throw new UsageError(`Continuous polling runs inside the server (INGEST=live); use --once for a single round.\nUsage: npm run cli -- ${this.usage}`);
    }
    const config = cliConfig();
    // A running demo's sources point at its own fleet: a round from here would re-point all of
    // them at a fleet that dies with this command (docs/operations.md, "Demo").
    const demo = config.demo ? runningDemoIn(config.dataDir) : null;
    if (demo && !opts.force) {
      console.error(
        `The demo server (pid ${demo.pid}) is using this store; it polls its fleet itself. Stop it first, or add --force to poll its fleet once from here without changing its sources.`,
      );
      return 1;
    }
    return withStore(config, async (store) => {
      await store.migrate();
      // With a running demo (--force) nothing is re-pointed: its sources already lead to its fleet.
      const { simulator } = demo ? { simulator: null } : await prepareCatalog(store, config, systemClock, { catalogFile: config.catalogFile ?? undefined });
      const bus = memoryEventBus();
      const services = createServices(store, config, systemClock, { bus });
      const runtime = createIngestRuntime({ store, config, clock: systemClock, ingest: services.ingest, bus, simulator });
      try {
        if (opts.vendor && !(await services.catalog.names(INTERNAL_AUDIENCE)).has(opts.vendor)) {
          throw new UsageError(`Unknown vendor '${opts.vendor}'`);
        }
        const reporter = createReporter();
        const report = await runtime.scheduler.runRound({
          vendor: opts.vendor,
          force: true,
          onPlanned: (n) => reporter.planned(n),
          onResult: (o) => reporter.result(o),
        });
        reporter.done();
        const count = (s: string) => report.outcomes.filter((o) => o.status === s).length;
        console.log(
          `Round finished in ${report.durationMs} ms: ${report.outcomes.length} sources, ${count('updated')} updated, ` +
            `${count('unchanged') + count('not_modified')} unchanged, ${count('failed')} failed, ${count('skipped')} skipped; ` +
            `${report.events} events written${config.demo ? ' (demo: simulated fleet)' : ''}.`,
        );
        return 0;
      } finally {
        await runtime.close();
      }
    });
  },
};
