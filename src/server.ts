import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';

// Process shell only: configuration, the app, listen, signals.
async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`Configuration error: ${err.message}`);
      process.exit(1);
    }
    throw err;
  }
  const app = await buildApp(config);
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const timer = setTimeout(() => process.exit(1), 10_000);
    timer.unref();
    await app.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  await app.listen({ port: config.port, host: config.host });
  if (config.mcpPort !== null) {
    const port = await app.mcp.listenOnOwnPort();
    app.log.info({ port }, 'MCP endpoint also listening on its own port');
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
