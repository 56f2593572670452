import { DomainError } from '../../domain/errors.ts';
import type { Command } from '../command.ts';
import { type CliContext, parseOptions, planOption, requiredOption, servicesCommand } from '../context.ts';
import { PasswordSourceError, readPassword } from '../password.ts';
import { printTable } from '../table.ts';

const USAGE = [
  'users create --email E [--password P | --password-stdin] --plan PLAN   prints the new user id',
  '  (without --password: prompts on a terminal, or reads the first line of stdin with --password-stdin)',
  'users set-plan --email E --plan PLAN',
  'users list [--json]',
].join('\n');

async function run(args: string[], ctx: CliContext): Promise<number> {
  const { positional, options } = parseOptions(args);
  try {
    switch (positional[0]) {
      case 'create': {
        const email = requiredOption(options, 'email');
        const user = await ctx.services.accounts.createUser({ email, password: await readPassword(options), plan: planOption(options.plan ?? 'free') });
        ctx.out(user.id);
        return 0;
      }
      case 'set-plan': {
        const user = await ctx.services.accounts.setPlan(requiredOption(options, 'email'), planOption(options.plan));
        ctx.out(`${user.email}: ${user.plan}`);
        return 0;
      }
      case 'list': {
        const users = await ctx.services.accounts.list();
        if (options.json === 'true') {
          ctx.out(JSON.stringify(users, null, 2));
          return 0;
        }
        if (!users.length) {
          ctx.out('No accounts yet (`users create`, or sign up on the web).');
          return 0;
        }
        printTable(
          ctx.out,
          ['ID', 'EMAIL', 'PLAN', 'CREATED'],
          users.map((u) => [u.id, u.email, u.plan, u.createdAt]),
        );
        ctx.out(`\n${users.length} account${users.length === 1 ? '' : 's'}.`);
        return 0;
      }
      default:
        ctx.err(USAGE);
        return 2;
    }
  } catch (err) {
    if (err instanceof DomainError || err instanceof PasswordSourceError) {
      ctx.err(`error: ${err.message}`);
      return 1;
    }
    throw err;
  }
}

export const command: Command = servicesCommand(
  'users create|set-plan|list [--email E] [--password P | --password-stdin] [--plan PLAN]',
  "Create an account (prints its id), change an account's plan, or list accounts",
  run,
);
