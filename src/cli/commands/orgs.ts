import { DomainError } from '../../domain/errors.ts';
import type { Command } from '../command.ts';
import { type CliContext, parseOptions, planOption, requiredOption, servicesCommand } from '../context.ts';
import { printTable } from '../table.ts';

// Organisations for the operator (docs/teams.md, "Operator"): list them, create a team
// organisation for an existing account, set a plan. Changes are audited as the operator.

const USAGE = [
  'orgs list [--json]',
  'orgs create --name N --owner-email E [--plan PLAN]   prints the new organisation id',
  'orgs set-plan --id ID --plan PLAN',
].join('\n');

async function run(args: string[], ctx: CliContext): Promise<number> {
  const { positional, options } = parseOptions(args);
  switch (positional[0]) {
    case 'list': {
      const orgs = await ctx.services.orgs.listAll();
      if (options.json === 'true') {
        ctx.out(JSON.stringify(orgs, null, 2));
        return 0;
      }
      printTable(
        ctx.out,
        ['ID', 'NAME', 'PLAN', 'MEMBERS', 'KIND', 'CREATED'],
        orgs.map((o) => [o.id, o.name, o.plan, String(o.members), o.personal ? 'personal' : 'team', o.createdAt]),
      );
      ctx.out(`\n${orgs.length} organisation${orgs.length === 1 ? '' : 's'}.`);
      return 0;
    }
    case 'create': {
      const owner = await ctx.services.accounts.findByEmail(requiredOption(options, 'owner-email'));
      if (!owner) throw new DomainError('not_found', `No account with email ${options['owner-email']}`);
      const org = await ctx.services.orgs.createFor(owner.id, requiredOption(options, 'name'), planOption(options.plan ?? ctx.config.newOrgPlan));
      ctx.out(org.id);
      return 0;
    }
    case 'set-plan': {
      const org = await ctx.services.orgs.setPlan(requiredOption(options, 'id'), planOption(requiredOption(options, 'plan')));
      ctx.out(`${org.name} (${org.id}): ${org.plan}`);
      return 0;
    }
    default:
      ctx.err(USAGE);
      return 2;
  }
}

export const command: Command = servicesCommand(
  'orgs list|create|set-plan [--id ID] [--name N] [--owner-email E] [--plan PLAN]',
  'List organisations, create one for an account, or set its plan',
  run,
);
