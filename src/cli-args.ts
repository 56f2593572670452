import { ConfigError, parseRoles, ROLES, type Role } from './config.ts';

// Command-line flags of the server process (`npm start -- --role api`). A flag
// overrides the environment variable of the same setting; mistakes stop start-up
// like a bad environment value does.

export interface ServerArgs {
  /** `--role api` / `--role ingest,deliver` / `--role=…`; null = ROLES decides. */
  roles: Role[] | null;
}

const USAGE = `usage: npm start -- [--role ${ROLES.join(',')}]`;

export function parseServerArgs(argv: string[]): ServerArgs {
  let roles: Role[] | null = null;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    let value: string | undefined;
    if (arg === '--role' || arg === '--roles') {
      value = argv[++i];
      if (value === undefined || value.startsWith('--')) throw new ConfigError('--role', `expects a comma-separated list of roles (${ROLES.join(', ')})`);
    } else if (arg.startsWith('--role=') || arg.startsWith('--roles=')) {
      value = arg.slice(arg.indexOf('=') + 1);
    } else {
      throw new ConfigError(arg, `unknown argument (${USAGE})`);
    }
    if (roles !== null) throw new ConfigError('--role', 'given twice; list every role in one flag, e.g. --role ingest,deliver');
    const names = value
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    if (!names.length) throw new ConfigError('--role', `needs at least one role (${ROLES.join(', ')})`);
    roles = parseRoles(names, '--role');
  }
  return { roles };
}
