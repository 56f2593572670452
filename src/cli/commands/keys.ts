import { DomainError } from '../../domain/errors.ts';
import type { Command } from '../command.ts';
import { type CliContext, parseOptions, servicesCommand } from '../context.ts';

const USAGE = 'keys create --email E [--name N]   prints the secret alone on its last line';

async function run(args: string[], ctx: CliContext): Promise<number> {
  const { positional, options } = parseOptions(args);
  if (positional[0] !== 'create' || !options.email || options.email === 'true') {
    ctx.err(USAGE);
    return 2;
  }
  try {
    const user = await ctx.services.accounts.findByEmail(options.email);
    if (!user) throw new DomainError('not_found', `No account with email ${options.email}`);
    const name = options.name && options.name !== 'true' ? options.name : undefined;
    // The operator acts for the account, so the same plan rule applies as in the account area.
    const { key, secret } = await ctx.services.keys.create({ userId: user.id, plan: user.plan }, name);
    ctx.out(`key ${key.id} (${key.prefix}…) for ${user.email}; the secret is shown once:`);
    ctx.out(secret);
    return 0;
  } catch (err) {
    if (err instanceof DomainError) {
      ctx.err(`error: ${err.message}`);
      return 1;
    }
    throw err;
  }
}

export const command: Command = servicesCommand('keys create --email E [--name N]', "Create an API key for an account (the secret is printed once, on the last line)", run);
