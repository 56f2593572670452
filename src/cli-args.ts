import { ConfigError, parseRoles, ROLES, type Role } from './infra/config.ts';

// Command-line flags of the server process (`npm start -- --role api`). A flag
// overrides the environment variable of the same setting; mistakes stop start-up
// like a bad environment value does.

export interface ServerArgs {
  /** `--role api` / `--role ingest,deliver` / `--role=…`; null = ROLES decides. */
  roles: Role[] | null;
  /** `--help` / `-h`: print HELP and exit. */
  help?: true;
}

const USAGE = `usage: npm start -- [--role ${ROLES.join(',')}]`;

export const HELP = `${USAGE} [--help]

Runs the Vendor Infrastructure Status API (REST API, event stream, alerts, MCP, web dashboard).

Options:
  --role LIST   which parts this process runs, comma-separated: ${ROLES.join(', ')}
                (default: all; overrides ROLES). Without api the port answers only
                /healthz, /readyz and /metrics.
  -h, --help    print this help and exit

Everything else is configured by environment variables (README "Configuration"), e.g.
  PORT=3000 HOST=0.0.0.0 DATA_DIR=./data DATABASE_URL=postgres://… REDIS_URL=redis://…
  LOG_LEVEL=info LOG_FORMAT=auto|json|pretty DEMO=true (or: npm run demo)

Operator commands (accounts, keys, sources, one polling round): npm run cli -- help`;

export function parseServerArgs(argv: string[]): ServerArgs {
  let roles: Role[] | null = null;
  if (argv.includes('--help') || argv.includes('-h')) return { roles: null, help: true };
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
