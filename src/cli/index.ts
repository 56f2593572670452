import '../runtime.ts';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ConfigError } from '../infra/config.ts';
import type { Command } from './command.ts';

// Operator CLI: `npm run cli -- <command> [options]`. Each command is a module in
// ./commands/<name>.ts exporting a Command, so commands are added without touching
// this file.

const COMMANDS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'commands');
// `.ts` when run from source (tests), `.js` in the build (docs/deployment.md, "Runtime").
const EXT = path.extname(fileURLToPath(import.meta.url));

function commandNames(): string[] {
  return fs
    .readdirSync(COMMANDS_DIR)
    .filter((f) => f.endsWith(EXT) && /^[a-z][a-z0-9-]*$/.test(f.slice(0, -EXT.length)))
    .map((f) => f.slice(0, -EXT.length))
    .sort();
}

async function loadCommand(name: string): Promise<Command> {
  const mod = (await import(pathToFileURL(path.join(COMMANDS_DIR, `${name}${EXT}`)).href)) as { command: Command };
  return mod.command;
}

async function usage(): Promise<string> {
  const lines = ['Usage: npm run cli -- [--demo] <command> [options]', '', "--demo (or DEMO=true) works on the demo's store (./data/demo).", '', 'Commands:'];
  for (const name of commandNames()) {
    const c = await loadCommand(name);
    lines.push(`  ${c.usage.padEnd(44)} ${c.summary}`);
  }
  return lines.join('\n');
}

async function main(argv: string[]): Promise<number> {
  // `--demo` anywhere = DEMO=true: the demo's store (./data/demo unless DATA_DIR says
  // otherwise). No simulator starts for account commands (docs/operations.md).
  if (argv.includes('--demo')) {
    process.env.DEMO = 'true';
    argv = argv.filter((a) => a !== '--demo');
  }
  const [name, ...rest] = argv;
  if (!name || name === 'help' || name === '--help' || name === '-h') {
    console.log(await usage());
    return name ? 0 : 2;
  }
  if (!commandNames().includes(name)) {
    console.error(`Unknown command '${name}'.\n\n${await usage()}`);
    return 2;
  }
  const command = await loadCommand(name);
  if (rest.includes('--help') || rest.includes('-h')) {
    console.log(`Usage: npm run cli -- ${command.usage}\n\n${command.summary}`);
    return 0;
  }
  return command.run(rest);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    if (err instanceof ConfigError) console.error(`Configuration error: ${err.message}`);
    else if (err instanceof Error && err.name === 'UsageError') console.error(err.message);
    else console.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
    process.exitCode = err instanceof Error && err.name === 'UsageError' ? 2 : 1;
  },
);
