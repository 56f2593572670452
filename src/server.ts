import './runtime.ts';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import { bannerLines } from './banner.ts';
import { HELP, parseServerArgs } from './cli-args.ts';
import { type Config, ConfigError, loadConfig } from './infra/config.ts';
import { demoLoginFile } from './infra/demo-login-file.ts';
import { logOutput, wantsPrettyLogs } from './infra/log-output.ts';
import { listenForProbes, type ProbeListener } from './probe-listener.ts';
import { type DemoLogin, ensureDemoLogin, ensureDemoServices } from './services/demo-login.ts';

// Process shell only: configuration (environment, then flags), the app, listen,
// signals. See docs/deployment.md for roles and the shutdown sequence.

function readConfig(): Config {
  try {
    const args = parseServerArgs(process.argv.slice(2));
    if (args.help) {
      console.log(HELP);
      process.exit(0);
    }
    // A flag overrides its environment variable; the rest is validated as usual.
    return loadConfig(args.roles ? { ...process.env, ROLES: args.roles.join(',') } : process.env);
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`Configuration error: ${err.message}`);
      process.exit(1);
    }
    throw err;
  }
}

/** Time kept back from the delivery grace period to write results and close the store. */
const reserveMs = (budgetMs: number) => Math.min(2_000, budgetMs / 4);

/**
 * Graceful shutdown within SHUTDOWN_TIMEOUT_SECONDS: open event streams get a
 * `shutdown` event and end, the listener stops accepting, polls in flight are
 * aborted and their leases freed, deliveries in flight get until the grace period
 * ends to answer (their results are written) and are then interrupted and made
 * due at once for another instance. Exit 0 when all that is done, 1 at the bound.
 */
function onSignals(app: FastifyInstance, config: Config, probes: () => ProbeListener | null) {
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) {
      app.log.warn({ signal }, 'second signal during shutdown: exiting now');
      process.exit(1);
    }
    closing = true;
    const started = Date.now();
    const budgetMs = config.shutdownTimeoutSeconds * 1000;
    app.log.info({ signal, timeoutSeconds: config.shutdownTimeoutSeconds }, 'shutting down');
    const bound = setTimeout(() => {
      app.log.error({ timeoutSeconds: config.shutdownTimeoutSeconds }, 'shutdown did not finish within SHUTDOWN_TIMEOUT_SECONDS; exiting');
      process.exit(1);
    }, budgetMs);
    bound.unref();
    // Halfway, connections that are still open (a slow client, a long MCP stream, an ended
    // event stream whose client does not read) are cut so closing can finish.
    const cut = setTimeout(() => app.server.closeAllConnections(), budgetMs / 2);
    cut.unref();
    // Deliveries drain from now on, alongside the HTTP side; the app's own close awaits the same drain.
    const drained = app.alerts.stop({ graceMs: budgetMs - reserveMs(budgetMs) });
    try {
      await probes()?.close();
      await app.close();
      await drained;
    } catch (err) {
      app.log.error({ err }, 'shutdown failed');
      process.exit(1);
    }
    app.log.info({ ms: Date.now() - started }, 'shut down');
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

/** Listen errors an operator fixes without a stack trace: one line, exit 1 (docs/operations.md). */
function listenProblem(err: unknown, config: Config): string | null {
  const code = (err as { code?: string } | null)?.code;
  const where = `${config.host}:${config.port}`;
  if (code === 'EADDRINUSE') return `Port ${config.port} is already in use (${where}): stop the other process or choose another port with PORT=…`;
  if (code === 'EACCES') return `Not allowed to listen on ${where}: choose a port above 1023 with PORT=…`;
  if (code === 'EADDRNOTAVAIL') return `HOST=${config.host} is not an address of this machine`;
  return null;
}

async function main() {
  const config = readConfig();
  const app = await buildApp(config, { logStream: logOutput(config) });
  let probes: ProbeListener | null = null;
  onSignals(app, config, () => probes);
  const serving = config.roles.includes('api');
  let port: number;
  try {
    if (serving) {
      await app.listen({ port: config.port, host: config.host });
      const address = app.server.address();
      port = typeof address === 'object' && address ? address.port : config.port;
    } else {
      // Workers only: the app starts its pollers and delivery workers on ready; the
      // port answers probes (and metrics) alone.
      await app.ready();
      probes = await listenForProbes(app, config.port, config.host, config.roles);
      port = probes.port;
    }
  } catch (err) {
    const problem = listenProblem(err, config);
    if (!problem) throw err;
    console.error(problem);
    process.exit(1);
  }
  app.log.info(
    {
      roles: config.roles,
      port,
      polling: config.roles.includes('ingest') && config.ingest === 'live',
      delivering: config.roles.includes('deliver') && config.deliver,
    },
    `started with roles ${config.roles.join(',')} on port ${port}${serving ? '' : ' (probes only)'}`,
  );
  let mcpPort: number | null = null;
  if (serving && config.mcpPort !== null) {
    mcpPort = await app.mcp.listenOnOwnPort();
    app.log.info({ port: mcpPort }, 'MCP endpoint also listening on its own port');
  }
  // Demo: a login and an API key ready to use (docs/operations.md "Demo").
  let demo: DemoLogin | null = null;
  const vault = config.demo && serving ? demoLoginFile(config.dataDir) : null;
  if (vault) {
    demo = await ensureDemoLogin(app.services, app.access.auth, config.apiKeyMinPlan, vault);
    if (demo.created) app.log.info({ email: demo.email, file: vault.path }, 'demo login created');
    // Example services on simulated vendors, so impact shows in the first minute.
    const made = await ensureDemoServices(app.services, demo.email);
    if (made) app.log.info({ services: made }, 'demo services created');
  }
  // The banner is for people: on a terminal (pretty logs), and always in demo mode.
  if (wantsPrettyLogs(config) || demo) {
    process.stdout.write(`\n${bannerLines(config, { port, serving, mcpPort, demo, demoLoginFile: vault?.path ?? null }).join('\n')}\n\n`);
  }
}

main().catch((err) => {
  // Configuration found wrong while starting (e.g. a demo on a store of live data): one line.
  if (err instanceof ConfigError) console.error(`Configuration error: ${err.message}`);
  else console.error(err);
  process.exit(1);
});
