import fs from 'node:fs';
import { readCatalog } from '../../services/vendors/catalog-loader.ts';
import { VERDICTS, verifyCatalog, type SourceCheck } from '../../services/vendors/catalog-verify-service.ts';
import { createHttpFetcher } from '../../infra/fetch.ts';
import { httpPageDetector, parseSource } from '../../ingest/index.ts';
import { type Command, cliConfig, parseOptions, UsageError } from '../command.ts';
import { systemClock } from '../../domain/clock.ts';
import { DomainError } from '../../domain/errors.ts';
import type { SourceRepair } from '../../domain/source-repair.ts';
import { withSourceRepairs } from '../../services/operator.ts';
import { printTable } from '../table.ts';

// `catalog verify`: polls every source of the catalog (CATALOG_FILE, else the shipped one)
// once and prints ok / moved / wrong-platform / dead per source. It reads the catalog
// file only and never opens the store (docs/operations.md "Checking the catalog").
// `catalog repair`: the self-healing findings in the store, and the operator's decisions
// on them (docs/catalog.md "Self-healing").

const positiveInt = (value: string | undefined, name: string, fallback: number) => {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`--${name} must be a positive integer`);
  return n;
};

function table(rows: SourceCheck[]): string {
  const head = ['VERDICT', 'VENDOR', 'TYPE', 'HTTP', 'DETECTED', 'DETAIL', 'URL'];
  const cells = rows.map((r) => [
    r.verdict,
    r.vendor,
    r.type,
    r.httpStatus === null ? '-' : String(r.httpStatus),
    r.detected ?? '-',
    r.detail.slice(0, 80),
    r.finalUrl ? `${r.url} -> ${r.finalUrl}` : r.url,
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const fmt = (row: string[]) => row.map((c, i) => (i === row.length - 1 ? c : c.padEnd(widths[i]!))).join('  ');
  return [fmt(head), ...cells.map(fmt)].join('\n');
}

const REPAIR_USAGE = 'catalog repair [--scan] [--vendor SLUG] [--accept SLUG | --reject SLUG] [--json]';
const sourcesText = (l: SourceRepair['to']) => (l.length ? l.map((s) => `${s.type} ${s.url}`).join(', ') : '-');

async function repair(rest: string[]): Promise<number> {
  const opts = parseOptions(
    rest,
    { scan: { type: 'boolean' }, vendor: { type: 'string' }, accept: { type: 'string' }, reject: { type: 'string' }, json: { type: 'boolean' } },
    REPAIR_USAGE,
  );
  if (opts.accept && opts.reject) throw new UsageError(`--accept and --reject go one at a time.\nUsage: npm run cli -- ${REPAIR_USAGE}`);
  const config = cliConfig();
  const detectPage = httpPageDetector({
    allowList: config.outboundAllowPrivate,
    timeoutMs: config.customSourcesProbeTimeoutMs,
    maxBytes: config.ingestMaxBytes,
    now: () => new Date(),
  });
  try {
    return await withSourceRepairs(config, systemClock, detectPage, async (repairs) => {
      try {
        if (opts.accept || opts.reject) {
          const r = opts.accept ? await repairs.accept(opts.accept, 'operator') : await repairs.reject(opts.reject!, 'operator');
          console.log(
            `${r.vendor}: ${r.outcome}. ${r.outcome === 'accepted' ? `Now polling ${sourcesText(r.to)}.` : `Polling ${sourcesText(r.from)} as before.`}`,
          );
          return 0;
        }
        if (opts.scan) {
          const s = await repairs.scan({ vendor: opts.vendor });
          console.error(`Scan: ${s.checked} vendors probed, ${s.applied} repaired, ${s.proposed} proposed, ${s.deferred} left for a later scan.`);
        }
        const list = (await repairs.list()).filter((r) => !opts.vendor || r.vendor === opts.vendor);
        if (opts.json) {
          console.log(JSON.stringify(list, null, 2));
          return 0;
        }
        if (!list.length) {
          console.log('No repairs: no vendor has had every status source failing long enough to be probed.');
          return 0;
        }
        printTable(
          (line) => console.log(line),
          ['OUTCOME', 'VENDOR', 'CHECKED', 'PAGE NAME', 'FROM', 'TO', 'WHY'],
          list.map((r) => [r.outcome, r.vendor, r.checkedAt, r.pageName ?? '-', sourcesText(r.from), sourcesText(r.to), r.reason]),
        );
        const waiting = list.filter((r) => r.outcome === 'proposed').length;
        if (waiting) console.log(`\n${waiting} proposed: accept with --accept SLUG, or refuse with --reject SLUG.`);
        return 0;
      } catch (err) {
        if (!(err instanceof DomainError)) throw err;
        console.error(`error: ${err.message}`);
        return 1;
      }
    });
  } finally {
    await detectPage.close();
  }
}

export const command: Command = {
  usage: `catalog verify [--vendor SLUG] [--json FILE] [--concurrency N] [--all] | ${REPAIR_USAGE}`,
  summary: 'Poll every catalog source once and report ok / moved / wrong-platform / dead (exit 1 if any is not ok); list and decide self-healing repairs',
  async run(argv) {
    const [sub, ...rest] = argv;
    if (sub === 'repair') return repair(rest);
    if (sub !== 'verify') throw new UsageError(`Unknown subcommand '${sub ?? ''}'.\nUsage: npm run cli -- ${this.usage}`);
    const opts = parseOptions(
      rest,
      { vendor: { type: 'string' }, json: { type: 'string' }, concurrency: { type: 'string' }, all: { type: 'boolean' } },
      this.usage,
    );
    const config = cliConfig();
    let catalog = readCatalog(config.catalogFile ?? undefined);
    if (opts.vendor) {
      catalog = catalog.filter((v) => v.slug === opts.vendor);
      if (catalog.length === 0) throw new UsageError(`No catalog vendor '${opts.vendor}'.`);
    }
    const fetcher = createHttpFetcher({
      connectionsPerOrigin: config.ingestHostConcurrency,
      allowList: config.outboundAllowPrivate,
      connectTimeoutMs: config.ingestTimeoutMs,
    });
    const total = catalog.reduce((n, v) => n + v.sources.length, 0);
    let done = 0;
    try {
      const report = await verifyCatalog(catalog, {
        fetcher,
        parse: parseSource,
        concurrency: positiveInt(opts.concurrency, 'concurrency', config.ingestConcurrency),
        perHost: config.ingestHostConcurrency,
        timeoutMs: config.ingestTimeoutMs,
        maxBytes: config.ingestMaxBytes,
        now: () => new Date(),
        onResult: () => {
          done++;
          if (process.stderr.isTTY) process.stderr.write(`\r${done}/${total} sources checked`);
        },
      });
      if (process.stderr.isTTY) process.stderr.write('\n');
      if (opts.json) fs.writeFileSync(opts.json, `${JSON.stringify({ catalogFile: config.catalogFile ?? 'catalog/vendors.json', ...report }, null, 2)}\n`);
      // By default only the problems are listed: with hundreds of vendors, "ok" rows drown them.
      const shown = opts.all ? report.results : report.results.filter((r) => r.verdict !== 'ok');
      const order = (r: SourceCheck) => VERDICTS.indexOf(r.verdict);
      shown.sort((a, b) => order(b) - order(a) || a.vendor.localeCompare(b.vendor) || a.url.localeCompare(b.url));
      if (shown.length) console.log(table(shown));
      const vendorsAffected = new Set(report.results.filter((r) => r.verdict !== 'ok').map((r) => r.vendor)).size;
      console.log(
        `\n${report.results.length} sources of ${catalog.length} vendors: ` +
          VERDICTS.map((v) => `${report.totals[v]} ${v}`).join(', ') +
          `. ${vendorsAffected} vendors need attention.${opts.json ? ` Report: ${opts.json}` : ''}`,
      );
      return report.results.every((r) => r.verdict === 'ok') ? 0 : 1;
    } finally {
      await fetcher.close();
    }
  },
};
