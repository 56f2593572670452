import type { Command } from '../command.ts';
import { type CliContext, parseOptions, servicesCommand } from '../context.ts';

// The audit log for the operator (docs/teams.md, "Audit log"): verify every
// organisation's hash chain (exit 1 when any is broken), or apply AUDIT_RETENTION_DAYS.

const USAGE = ['audit verify [--json]   exit code 1 when a chain is broken', 'audit prune             removes entries older than AUDIT_RETENTION_DAYS'].join(
  '\n',
);

async function run(args: string[], ctx: CliContext): Promise<number> {
  const { positional, options } = parseOptions(args);
  switch (positional[0]) {
    case 'verify': {
      const result = await ctx.services.audit.verify();
      if (options.json === 'true') ctx.out(JSON.stringify(result, null, 2));
      else {
        for (const p of result.problems) ctx.out(`organisation ${p.orgId}: ${p.problem} at entry ${p.seq}`);
        ctx.out(
          `${result.entries} entr${result.entries === 1 ? 'y' : 'ies'} in ${result.organisations} organisation${result.organisations === 1 ? '' : 's'}: ${
            result.problems.length ? `${result.problems.length} problem${result.problems.length === 1 ? '' : 's'}` : 'every chain intact'
          }`,
        );
      }
      return result.problems.length ? 1 : 0;
    }
    case 'prune': {
      const days = ctx.config.auditRetentionDays;
      if (!days) {
        ctx.out('AUDIT_RETENTION_DAYS is 0: entries are kept forever, nothing removed.');
        return 0;
      }
      const removed = await ctx.services.audit.pruneAll(days);
      ctx.out(`${removed} entr${removed === 1 ? 'y' : 'ies'} older than ${days} days removed.`);
      return 0;
    }
    default:
      ctx.err(USAGE);
      return 2;
  }
}

export const command: Command = servicesCommand('audit verify|prune [--json]', "Check every organisation's audit chain, or apply the retention setting", run);
