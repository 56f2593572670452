import type { PollOutcome } from '../ingest/index.ts';

// Per-source report of a polling round: plain lines when the output is not a
// terminal (logs, pipes, tests), plus a progress bar on stderr when it is.

const LABEL: Record<PollOutcome['status'], string> = {
  updated: 'updated',
  unchanged: 'unchanged',
  not_modified: 'not-modified',
  failed: 'FAILED',
  skipped: 'skipped',
};

function written(o: PollOutcome): string {
  const w = o.written;
  if (!w) return 'content unchanged (304)';
  const parts = [
    w.status ? 'status' : '',
    w.components ? 'components' : '',
    w.incidents ? `${w.incidents} incidents` : '',
    w.maintenances ? `${w.maintenances} maintenance` : '',
    w.advisories ? `${w.advisories} advisories` : '',
    w.updates ? `${w.updates} release notes` : '',
  ].filter(Boolean);
  const events = o.events ? `; ${o.events} event${o.events === 1 ? '' : 's'}` : '';
  return parts.length ? `wrote ${parts.join(', ')}${events}` : 'nothing new';
}

export function outcomeLine(o: PollOutcome): string {
  const detail = o.status === 'failed' || o.status === 'skipped' ? (o.error ?? '') : written(o);
  return [
    LABEL[o.status].padEnd(12),
    o.vendor.padEnd(24),
    o.type.padEnd(17),
    String(o.httpStatus ?? '-').padStart(3),
    `${o.durationMs} ms`.padStart(8),
    ` ${detail}`,
  ].join(' ');
}

export interface Reporter {
  planned(total: number): void;
  result(o: PollOutcome): void;
  done(): void;
}

export function createReporter(out: NodeJS.WriteStream = process.stdout, err: NodeJS.WriteStream = process.stderr): Reporter {
  const tty = Boolean(err.isTTY);
  let total = 0;
  let done = 0;
  let failed = 0;
  const bar = () => {
    const width = 30;
    const filled = total ? Math.round((done / total) * width) : width;
    err.write(`\r[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${done}/${total}${failed ? `, ${failed} failed` : ''}`);
  };
  const clear = () => err.write('\r\x1b[2K');
  return {
    planned(n) {
      total = n;
      if (tty) bar();
    },
    result(o) {
      done++;
      if (o.status === 'failed') failed++;
      if (tty) clear();
      out.write(`${outcomeLine(o)}\n`);
      if (tty) bar();
    },
    done() {
      if (tty) {
        bar();
        err.write('\n');
      }
    },
  };
}
