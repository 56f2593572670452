import type { Config } from '../config.ts';
import type { Services } from '../services/index.ts';
import type { Store } from '../store/db.ts';

/** What an operator command gets: configuration, the services over a migrated store, and output. */
export interface CliContext {
  config: Config;
  store: Store;
  services: Services;
  out(line: string): void;
  err(line: string): void;
}

export type CliCommand = (args: string[], ctx: CliContext) => Promise<number>;

/** `--name value` options; a flag without a value is 'true'. */
export function parseOptions(args: string[]): { positional: string[]; options: Record<string, string> } {
  const positional: string[] = [];
  const options: Record<string, string> = {};
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      if (eq > 0) options[a.slice(2, eq)] = a.slice(eq + 1);
      else if (i + 1 < args.length && !args[i + 1].startsWith('--')) options[a.slice(2)] = args[++i];
      else options[a.slice(2)] = 'true';
    } else positional.push(a);
  }
  return { positional, options };
}
