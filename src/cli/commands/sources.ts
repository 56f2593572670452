import fs from 'node:fs';
import { DomainError } from '../../domain/errors.ts';
import { DEFAULT_CATALOG_PATH, readCatalog } from '../../services/vendors/catalog-loader.ts';
import { systemClock } from '../../domain/clock.ts';
import { withSourceAdmin } from '../../services/operator.ts';
import { type Command, cliConfig, parseOptions, UsageError } from '../command.ts';
import { printTable } from '../table.ts';

const state = (s: { lastSuccessAt: string | null; lastErrorAt: string | null; consecutiveFailures: number }) =>
  s.consecutiveFailures > 0 ? 'failing' : s.lastSuccessAt ? 'ok' : s.lastErrorAt ? 'failing' : 'never polled';

const PROMOTE_USAGE =
  'sources promote SLUG --category CATEGORY [--slug PUBLIC_SLUG] [--name NAME] [--description TEXT] [--website URL] [--catalog FILE] [--trust]';

/**
 * `sources promote`: a user-added page becomes a public catalog vendor (docs/catalog.md
 * "Promoted pages"): in the store at once, and appended to the catalog file so the next
 * start keeps it.
 */
async function promote(argv: string[]): Promise<number> {
  const [slug, ...rest] = argv;
  if (!slug || slug.startsWith('-')) throw new UsageError(`Name the page to promote.\nUsage: npm run cli -- ${PROMOTE_USAGE}`);
  const opts = parseOptions(
    rest,
    {
      category: { type: 'string' },
      slug: { type: 'string' },
      name: { type: 'string' },
      description: { type: 'string' },
      website: { type: 'string' },
      catalog: { type: 'string' },
      trust: { type: 'boolean' },
    },
    PROMOTE_USAGE,
  );
  if (!opts.category) throw new UsageError(`--category is required.\nUsage: npm run cli -- ${PROMOTE_USAGE}`);
  const config = cliConfig();
  const file = opts.catalog ?? config.catalogFile ?? DEFAULT_CATALOG_PATH;
  const catalog = readCatalog(file);
  try {
    const entry = await withSourceAdmin(config, systemClock, (admin) =>
      admin.promote({
        slug,
        publicSlug: opts.slug,
        name: opts.name,
        category: opts.category!,
        description: opts.description,
        website: opts.website,
        catalog,
        trust: opts.trust === true,
      }),
    );
    fs.writeFileSync(file, `${JSON.stringify([...catalog, entry], null, 2)}\n`);
    console.log(`Promoted '${slug}' to '${entry.slug}' (${entry.sources.map((s) => s.type).join(', ')}); added to ${file}.`);
    console.log(
      opts.trust
        ? 'Trusted: polled as a catalog source, without the outbound guard (--trust).'
        : 'Still guarded: every poll checks the address its name resolves to (--trust to vouch for the host).',
    );
    return 0;
  } catch (err) {
    if (err instanceof DomainError) {
      console.error(err.message);
      return 1;
    }
    throw err;
  }
}

export const command: Command = {
  usage: 'sources [--vendor SLUG] [--json] | sources promote SLUG --category C',
  summary: 'List every polled source with its health; `promote` makes a user-added page a public catalog vendor',
  async run(argv) {
    if (argv[0] === 'promote') return promote(argv.slice(1));
    const opts = parseOptions(argv, { vendor: { type: 'string' }, json: { type: 'boolean' } }, this.usage);
    const config = cliConfig();
    const rows = await withSourceAdmin(config, systemClock, (admin) => admin.list(opts.vendor));
    if (opts.json) {
      console.log(
        JSON.stringify(
          rows.map((r) => ({ ...r, state: state(r) })),
          null,
          2,
        ),
      );
      return 0;
    }
    if (!rows.length) {
      console.log(opts.vendor ? `No sources for '${opts.vendor}'.` : 'No sources (start the server or run `migrate` and `ingest --once` first).');
      return 0;
    }
    const head = ['STATE', 'VENDOR', 'TYPE', 'LAST SUCCESS', 'FAILS', 'EVERY', 'NEXT POLL', 'LAST ERROR', 'URL'];
    const table = rows.map((r) => [
      state(r),
      r.vendor,
      r.type,
      r.lastSuccessAt ?? '-',
      String(r.consecutiveFailures),
      // The adaptive schedule of the last poll (docs/ingestion.md "Adaptive polling").
      r.scheduleSeconds !== null ? `${r.scheduleSeconds}s ${r.scheduleReason ?? ''}`.trim() : '-',
      r.nextPollAt ?? 'due',
      r.lastError ? `${r.lastErrorAt} ${r.lastError.slice(0, 60)}` : '-',
      r.url,
    ]);
    printTable((line) => console.log(line), head, table);
    const failing = rows.filter((r) => state(r) === 'failing').length;
    console.log(`\n${rows.length} sources, ${failing} failing.`);
    return 0;
  },
};
