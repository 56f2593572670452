import fs from 'node:fs';
import { DomainError } from '../../domain/errors.ts';
import type { Command } from '../command.ts';
import { type CliContext, parseOptions, requiredOption, servicesCommand } from '../context.ts';

// Config as code (docs/services.md "Config as code"): apply a file of services, named
// watchlists and alert routes to an organisation, printing the plan (create / update /
// delete / unchanged per item). `--dry-run` writes nothing; `--prune` deletes what the
// file does not name, exactly what the dry run with `--prune` shows.

const USAGE = 'apply -f FILE --org ORG_ID [--dry-run] [--prune] [--backstage] [--json]';

async function run(args: string[], ctx: CliContext): Promise<number> {
  const at = args.findIndex((a) => a === '-f' || a === '--file');
  const file = at >= 0 ? args[at + 1] : undefined;
  const rest = at >= 0 ? [...args.slice(0, at), ...args.slice(at + 2)] : args;
  const { options } = parseOptions(rest);
  if (!file) {
    ctx.err(`usage: ${USAGE}`);
    return 2;
  }
  const orgId = requiredOption(options, 'org');
  let yaml: string;
  try {
    yaml = fs.readFileSync(file, 'utf8');
  } catch (err) {
    ctx.err(`error: cannot read ${file}: ${(err as Error).message}`);
    return 2;
  }
  try {
    const input = { yaml, dryRun: options['dry-run'] === 'true', prune: options.prune === 'true' };
    // --backstage: a catalog-info.yaml, its entities read as services (docs/services.md "From a Backstage catalog").
    const r =
      options.backstage === 'true'
        ? await ctx.services.orgConfig.applyBackstageAsOperator(orgId, input)
        : await ctx.services.orgConfig.applyAsOperator(orgId, input);
    if (options.json === 'true') {
      ctx.out(JSON.stringify(r, null, 2));
      return 0;
    }
    for (const i of r.items) ctx.out(`${i.action.padEnd(9)} ${i.kind.padEnd(9)} ${i.name}${i.fields ? ` (${i.fields.join(', ')})` : ''}`);
    const s = r.summary;
    ctx.out(
      `${s.create} to create, ${s.update} to update, ${s.delete} to delete, ${s.unchanged} unchanged${r.dryRun ? ' (dry run: nothing written)' : r.applied ? ': applied' : ': nothing to change'}`,
    );
    return 0;
  } catch (err) {
    const problems = err instanceof DomainError ? (err.details.problems as { path: string; line: number | null; message: string }[] | undefined) : undefined;
    if (!problems) throw err;
    for (const p of problems) ctx.err(`${file}:${p.line ?? '?'}: ${p.path}: ${p.message}`);
    ctx.err(`${problems.length} problem${problems.length === 1 ? '' : 's'}; nothing was applied.`);
    return 1;
  }
}

export const command: Command = servicesCommand(USAGE, "Apply a configuration file to an organisation's services, watchlists and alert routes", run);
