import type { Command } from '../command.ts';
import { type CliContext, parseOptions, requiredOption, servicesCommand } from '../context.ts';

// Config as code (docs/services.md "Config as code"): the organisation's services, named
// watchlists and alert routes as one YAML file on standard output; destinations are
// written as `{channel, ref: <route id>}`, never their secrets.

async function run(args: string[], ctx: CliContext): Promise<number> {
  const { options } = parseOptions(args);
  const orgId = requiredOption(options, 'org');
  ctx.out((await ctx.services.orgConfig.exportAsOperator(orgId)).trimEnd());
  return 0;
}

export const command: Command = servicesCommand(
  'export --org ORG_ID',
  "Write an organisation's services, watchlists and alert routes as a configuration file",
  run,
);
