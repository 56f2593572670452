import { loadCatalog, readCatalog } from '../services/catalog-loader.ts';
import { ConfigError, loadConfig } from '../config.ts';
import { DomainError } from '../domain/errors.ts';
import { systemClock } from '../services/context.ts';
import { createServices } from '../services/index.ts';
import { openStore } from '../store/db.ts';
import type { CliCommand, CliContext } from './context.ts';

// Operator CLI: `npm run cli -- <command> [...]`. Each command lives in
// ./commands/<name>.ts and exports `run(args, ctx)` returning the exit code.

const COMMAND = /^[a-z][a-z-]{0,30}$/;

async function main(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  if (!name || !COMMAND.test(name)) {
    console.error('usage: npm run cli -- <command> [options]   (commands: users, keys, ...)');
    return 2;
  }
  let mod: { run: CliCommand };
  try {
    mod = await import(`./commands/${name}.ts`);
  } catch (err) {
    if ((err as { code?: string }).code === 'ERR_MODULE_NOT_FOUND') {
      console.error(`unknown command '${name}'`);
      return 2;
    }
    throw err;
  }
  const config = loadConfig();
  const store = openStore(config);
  try {
    await store.migrate();
    const services = createServices(store, config, systemClock);
    await loadCatalog(services.repos.vendors, readCatalog(), systemClock.now());
    const ctx: CliContext = {
      config,
      store,
      services,
      out: (line) => process.stdout.write(`${line}\n`),
      err: (line) => process.stderr.write(`${line}\n`),
    };
    return await mod.run(args, ctx);
  } finally {
    await store.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    if (err instanceof ConfigError) console.error(`Configuration error: ${err.message}`);
    else if (err instanceof DomainError) console.error(`error: ${err.message}`);
    else console.error(err);
    process.exit(1);
  },
);
