import { DomainError } from '../../domain/errors.ts';
import { isUserPlan, USER_PLANS, type UserPlan } from '../../domain/plans.ts';
import type { Command } from '../command.ts';
import { type CliContext, parseOptions, servicesCommand } from '../context.ts';

const USAGE = [
  'users create --email E --password P --plan PLAN   prints the new user id',
  'users set-plan --email E --plan PLAN',
].join('\n');

function plan(value: string | undefined): UserPlan {
  if (!value || !isUserPlan(value)) throw new DomainError('invalid_parameter', `--plan must be one of ${USER_PLANS.join(', ')}`);
  return value;
}

function required(options: Record<string, string>, name: string): string {
  const v = options[name];
  if (!v || v === 'true') throw new DomainError('invalid_parameter', `--${name} is required`);
  return v;
}

async function run(args: string[], ctx: CliContext): Promise<number> {
  const { positional, options } = parseOptions(args);
  try {
    switch (positional[0]) {
      case 'create': {
        const user = await ctx.services.accounts.createUser({
          email: required(options, 'email'),
          password: required(options, 'password'),
          plan: plan(options.plan ?? 'free'),
        });
        ctx.out(user.id);
        return 0;
      }
      case 'set-plan': {
        const user = await ctx.services.accounts.setPlan(required(options, 'email'), plan(options.plan));
        ctx.out(`${user.email}: ${user.plan}`);
        return 0;
      }
      default:
        ctx.err(USAGE);
        return 2;
    }
  } catch (err) {
    if (err instanceof DomainError) {
      ctx.err(`error: ${err.message}`);
      return 1;
    }
    throw err;
  }
}

export const command: Command = servicesCommand('users create|set-plan --email E [--password P] --plan PLAN', "Create an account (prints its id) or change an account's plan", run);
