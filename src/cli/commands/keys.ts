import { DomainError } from '../../domain/errors.ts';
import type { Command } from '../command.ts';
import { type CliContext, optionValue, parseOptions, servicesCommand } from '../context.ts';
import { printTable } from '../table.ts';

const USAGE = [
  'keys create --email E [--name N]   prints the secret alone on its last line',
  'keys list --email E [--json]       active keys of an account (never their secrets)',
  'keys revoke --id ID',
].join('\n');

async function account(ctx: CliContext, email: string) {
  const user = await ctx.services.accounts.findByEmail(email);
  if (!user) throw new DomainError('not_found', `No account with email ${email}`);
  return user;
}

async function run(args: string[], ctx: CliContext): Promise<number> {
  const { positional, options } = parseOptions(args);
  const email = optionValue(options, 'email');
  const id = optionValue(options, 'id');
  const action = positional[0];
  if (!((action === 'create' || action === 'list') && email) && !(action === 'revoke' && id)) {
    ctx.err(USAGE);
    return 2;
  }
  if (action === 'create') {
    const user = await account(ctx, email!);
    // The operator acts for the account, so the same plan rule applies as in the account area.
    const { key, secret } = await ctx.services.keys.create(await ctx.services.accounts.personalViewer(user.id), optionValue(options, 'name'));
    ctx.out(`key ${key.id} (${key.prefix}…) for ${user.email}; the secret is shown once:`);
    ctx.out(secret);
  } else if (action === 'list') {
    const keys = await ctx.services.keys.list(await ctx.services.accounts.personalViewer((await account(ctx, email!)).id));
    if (options.json === 'true') ctx.out(JSON.stringify(keys, null, 2));
    else if (!keys.length) ctx.out(`No active keys for ${email}.`);
    else
      printTable(
        ctx.out,
        ['ID', 'PREFIX', 'NAME', 'CREATED', 'LAST USED'],
        keys.map((k) => [k.id, `${k.prefix}…`, k.name, k.createdAt, k.lastUsedAt ?? 'never']),
      );
  } else {
    await ctx.services.keys.revokeById(id!);
    ctx.out(`key ${id} revoked`);
  }
  return 0;
}

export const command: Command = servicesCommand(
  'keys create|list|revoke [--email E] [--name N] [--id ID]',
  'Create an API key for an account (the secret is printed once, on the last line), list its keys, or revoke one',
  run,
);
