import { isUserPlan, USER_PLANS, type UserPlan } from '../domain/plans.ts';
import type { Config } from '../infra/config.ts';
import { DomainError } from '../domain/errors.ts';
import { systemClock } from '../domain/clock.ts';
import type { Services } from '../services/index.ts';
import { withMigratedServices } from '../services/operator.ts';
import { type Command, cliConfig } from './command.ts';

/** What an operator command gets: configuration, the services over a migrated store, and output. */
export interface CliContext {
  config: Config;
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

/**
 * A Command whose body works on services over the configured, migrated store.
 * The catalog is not loaded: account and key commands need no vendors, and loading
 * it would point the sources of a running demo's store back at the real vendors
 * (docs/operations.md "Operator CLI").
 */
export function servicesCommand(usage: string, summary: string, run: CliCommand): Command {
  return {
    usage,
    summary,
    async run(argv) {
      const config = cliConfig();
      return withMigratedServices(config, systemClock, async ({ services }) => {
        const ctx: CliContext = {
          config,
          services,
          out: (line) => process.stdout.write(`${line}\n`),
          err: (line) => process.stderr.write(`${line}\n`),
        };
        try {
          return await run(argv, ctx);
        } catch (err) {
          if (!(err instanceof DomainError)) throw err;
          ctx.err(`error: ${err.message}`);
          return 1;
        }
      });
    },
  };
}

/** An option's value; undefined when absent or given as a bare flag. */
export const optionValue = (options: Record<string, string>, name: string): string | undefined =>
  options[name] && options[name] !== 'true' ? options[name] : undefined;

/** An option the command cannot do without (`--name value`); a bare flag does not count. */
export function requiredOption(options: Record<string, string>, name: string): string {
  const v = options[name];
  if (!v || v === 'true') throw new DomainError('invalid_parameter', `--${name} is required`);
  return v;
}

/** A `--plan` value, checked against the plans an account or organisation can have. */
export function planOption(value: string | undefined): UserPlan {
  if (!value || !isUserPlan(value)) throw new DomainError('invalid_parameter', `--plan must be one of ${USER_PLANS.join(', ')}`);
  return value;
}
