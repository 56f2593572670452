// Regenerates catalog/vendors.json from public vendor lists downloaded by the operator
// (they are inputs, never committed): docs/catalog.md "How the catalog is generated".
//
//   npx tsx scripts/catalog-build.ts --probo data.json [--vsw snapshot.json] \
//     [--statusphere status_pages.go] [--stts services.json] [--multistatus feeds.opml] \
//     [--statuspile providers.js] [--statuswatch catalog.js] [--sentry DATA_DIR] [--awesome README.md] \
//     [--catalog catalog/vendors.json] [--out FILE] [--report FILE]
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { CatalogVendor } from '../src/domain/records.ts';
import { readCatalog } from '../src/services/vendors/catalog-loader.ts';
import { AWESOME_COMMIT, hostedFromInputs, hostedPages, readAwesome, readSentryFile, SENTRY_COMMIT } from './catalog/hosted.ts';
import { mergeListed } from './catalog/listed.ts';
import { type ListedPage, readMultiStatus, readStatuspile, readStts } from './catalog/lists.ts';
import { mergeCatalog, type ProboVendor, type VswVendor } from './catalog/merge.ts';
import { readStatuswatch } from './catalog/statuswatch.ts';
import { addUnmonitored } from './catalog/unmonitored.ts';

const { values: o } = parseArgs({
  options: {
    vsw: { type: 'string' },
    probo: { type: 'string' },
    statusphere: { type: 'string' },
    stts: { type: 'string' },
    multistatus: { type: 'string' },
    statuspile: { type: 'string' },
    statuswatch: { type: 'string' },
    sentry: { type: 'string' },
    awesome: { type: 'string' },
    catalog: { type: 'string', default: 'catalog/vendors.json' },
    out: { type: 'string' },
    report: { type: 'string' },
  },
});
if (!o.probo) {
  console.error(
    'Usage: npx tsx scripts/catalog-build.ts --probo data.json [--vsw snapshot.json] [--statusphere status_pages.go] [--stts services.json] [--multistatus feeds.opml] [--statuspile providers.js] [--statuswatch catalog.js] [--sentry DATA_DIR] [--awesome README.md] [--catalog FILE] [--out FILE] [--report FILE]',
  );
  process.exit(2);
}

const readJson = (file: string) => JSON.parse(fs.readFileSync(file, 'utf8')) as unknown;

// Without --vsw the snapshot's step adds nothing: the entries it gave are in the catalog
// already and keep every field (merge rule 1).
const snapshot = (o.vsw ? readJson(o.vsw) : { vendors: [] }) as { vendors?: VswVendor[] };
if (!Array.isArray(snapshot.vendors)) throw new Error(`${o.vsw}: expected vendor-status-watch's snapshot ({vendors: [...]})`);
const probo = readJson(o.probo) as ProboVendor[];
if (!Array.isArray(probo)) throw new Error(`${o.probo}: expected PROBO's data.json (an array)`);

/** statusphere lists `{ URL: "...", Name: "..." }` Go literals. */
function readStatusphere(file: string | undefined): { url: string; name: string }[] {
  if (!file) return [];
  const text = fs.readFileSync(file, 'utf8');
  return [...text.matchAll(/URL:\s*"([^"]+)",\s*Name:\s*"([^"]*)"/g)].map((m) => ({ url: m[1]!, name: m[2]! }));
}

const existing: CatalogVendor[] = readCatalog(path.resolve(o.catalog));
const merged = mergeCatalog(existing, { vsw: snapshot.vendors, probo, statusphere: readStatusphere(o.statusphere) });
const report = merged.report;
const unmonitored = addUnmonitored(merged.catalog);
const readText = (file: string | undefined) => (file ? fs.readFileSync(file, 'utf8') : null);
const pages: ListedPage[] = [
  ...(o.stts ? readStts(readText(o.stts)!) : []),
  ...(o.statuspile ? readStatuspile(readText(o.statuspile)!) : []),
  ...(o.multistatus ? readMultiStatus(readText(o.multistatus)!) : []),
];
/** getsentry/status-page-list's `data` folder (under `src`): one `<vendor>.ts` file per page. */
function readSentry(dir: string | undefined): { name: string; url: string }[] {
  if (!dir) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.ts'))
    .sort()
    .flatMap((f) => readSentryFile(fs.readFileSync(path.join(dir, f), 'utf8')) ?? []);
}
pages.push(
  ...(o.statuswatch ? readStatuswatch(readText(o.statuswatch)!) : []),
  // URL-only lists: only the pages on a platform's own hosting domain (hosted.ts).
  ...hostedPages('SENTRY', SENTRY_COMMIT, readSentry(o.sentry)),
  ...hostedPages('AWESOME', AWESOME_COMMIT, o.awesome ? readAwesome(readText(o.awesome)!) : []),
  ...hostedFromInputs(readStatusphere(o.statusphere), probo),
);
const listed = mergeListed(unmonitored.catalog, pages, probo);
// A second pass over the whole result records PROBO and statusphere evidence for the entries
// the lists added, exactly as the next run would: running again changes nothing.
const catalog = mergeCatalog(listed.catalog, { vsw: [], probo, statusphere: readStatusphere(o.statusphere) }).catalog;

const out = path.resolve(o.out ?? o.catalog);
fs.writeFileSync(out, `${JSON.stringify(catalog, null, 2)}\n`);
readCatalog(out);

const withSource = catalog.filter((v) => v.availableDataTypes.includes('incidents')).length;
const byType: Record<string, number> = {};
for (const v of catalog) for (const t of new Set(v.sources.map((s) => s.type))) byType[t] = (byType[t] ?? 0) + 1;
const byCategory: Record<string, number> = {};
for (const v of catalog) byCategory[v.category] = (byCategory[v.category] ?? 0) + 1;
const summary = {
  vendors: catalog.length,
  withStatusSource: withSource,
  kept: report.kept,
  added: report.added,
  categoryBy: report.categoryBy,
  platformsAdded: report.platforms,
  unmonitoredAdded: unmonitored.added,
  listedAdded: listed.report.byKey,
  listedEnriched: listed.report.enriched,
  listedGaveASource: listed.report.sourced,
  vendorsBySourceType: byType,
  vendorsByCategory: byCategory,
  skipped: report.skipped.length + listed.report.skipped.length,
};
console.log(JSON.stringify(summary, null, 2));
if (o.report) fs.writeFileSync(o.report, `${JSON.stringify({ ...summary, skipped: [...report.skipped, ...listed.report.skipped] }, null, 2)}\n`);
