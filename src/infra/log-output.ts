import pinoPretty from 'pino-pretty';
import type { Config } from './config.ts';

// Where the server's log lines go (docs/operations.md "Logs"): human-readable lines
// on a terminal, JSON (one object a line, for collectors) when stdout is not a
// terminal; LOG_FORMAT=json|pretty forces one.

export function wantsPrettyLogs(config: Pick<Config, 'logFormat'>, stdoutIsTty = Boolean(process.stdout.isTTY)): boolean {
  return config.logFormat === 'pretty' || (config.logFormat === 'auto' && stdoutIsTty);
}

/** The stream for Fastify's logger: pino-pretty for people, undefined (pino's own JSON to stdout) otherwise. */
export function logOutput(config: Pick<Config, 'logFormat'>): NodeJS.WritableStream | undefined {
  if (!wantsPrettyLogs(config)) return undefined;
  return pinoPretty({
    colorize: Boolean(process.stdout.isTTY),
    translateTime: 'SYS:HH:MM:ss',
    ignore: 'pid,hostname',
    // One line per entry, its fields after the message: a console to read, not to scroll.
    singleLine: true,
    // Runs in this thread, writing synchronously: nothing is lost when the process exits.
    sync: true,
  });
}
