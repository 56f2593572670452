import type { Command } from '../command.ts';
import { type CliContext, optionValue, parseOptions, servicesCommand } from '../context.ts';
import { printTable } from '../table.ts';

// Push URLs for vendors' subscriber webhooks (docs/ingestion.md "Push from vendors").

const USAGE = ['push create --vendor SLUG   prints the secret URL once, on its last line', 'push list [--vendor SLUG] [--json]', 'push revoke --id ID'].join(
  '\n',
);

async function run(args: string[], ctx: CliContext): Promise<number> {
  const { positional, options } = parseOptions(args);
  const action = positional[0];
  const vendor = optionValue(options, 'vendor');
  const id = optionValue(options, 'id');
  if (!((action === 'create' && vendor) || action === 'list' || (action === 'revoke' && id))) {
    ctx.err(USAGE);
    return 2;
  }
  if (action === 'create') {
    const { hook, path } = await ctx.services.push.create(vendor!);
    const base = ctx.config.publicUrl ?? `http://localhost:${ctx.config.port}`;
    ctx.out(`push URL ${hook.id} for ${hook.vendor}; give it to the vendor's status page as a webhook subscriber. Shown once:`);
    ctx.out(`${base}${path}`);
  } else if (action === 'list') {
    const hooks = await ctx.services.push.list(vendor);
    if (options.json === 'true') ctx.out(JSON.stringify(hooks, null, 2));
    else if (!hooks.length) ctx.out('No push URLs.');
    else
      printTable(
        ctx.out,
        ['ID', 'VENDOR', 'CREATED', 'LAST PUSH', 'PUSHES'],
        hooks.map((h) => [h.id, h.vendor, h.createdAt, h.lastPushAt ?? 'never', String(h.pushes)]),
      );
  } else {
    await ctx.services.push.revoke(id!);
    ctx.out(`push URL ${id} revoked`);
  }
  return 0;
}

export const command: Command = servicesCommand(
  'push create|list|revoke [--vendor SLUG] [--id ID]',
  "Secret URLs for vendors' status-page webhooks: a push polls the vendor at once",
  run,
);
