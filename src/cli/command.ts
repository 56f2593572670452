import { parseArgs, type ParseArgsConfig } from 'node:util';
import { type Config, loadConfig } from '../infra/config.ts';

// What every CLI command shares: its contract, argument parsing that reports
// mistakes as usage errors (exit 2), and the configuration. The store is opened through
// services/operator.ts (docs/architecture.md).

export interface Command {
  /** e.g. `ingest --once [--vendor SLUG]` */
  usage: string;
  summary: string;
  /** Returns the exit code. */
  run(argv: string[]): Promise<number>;
}

export class UsageError extends Error {
  override name = 'UsageError';
}

export function parseOptions<T extends NonNullable<ParseArgsConfig['options']>>(argv: string[], options: T, usage: string) {
  try {
    return parseArgs({ args: argv, options, allowPositionals: false, strict: true }).values;
  } catch (err) {
    throw new UsageError(`${err instanceof Error ? err.message : String(err)}\nUsage: npm run cli -- ${usage}`);
  }
}

/** Configuration from the environment, as the server reads it. */
export function cliConfig(): Config {
  return loadConfig(process.env);
}
