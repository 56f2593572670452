// Parse time of hostile vendor pages (docs/security.md, "Vendor pages are untrusted input"):
// 256 KB bodies made of unclosed `<!--`, `<a`, `<script` and `<small>` openings, in the
// formats whose text goes through the HTML helpers; and whole pages at the poll's 5 MiB cap
// for the formats read from a vendor's HTML page (Okta, Fastly). Prints one line per payload.
//   npx tsx bench/hostile-parse.ts
import { performance } from 'node:perf_hooks';
import { parseSource } from '../src/ingest/adapters/index.ts';
import type { SourceType } from '../src/domain/records.ts';
import { hostileHtml, statuspageHistoryRss, statuspageIncidents } from '../test/helpers/hostile-vendor.ts';

const HOSTILE_BYTES = 256 * 1024;

const HOSTILE_OPENINGS = ['<!--', '<a ', '<script>', '<small>x'] as const;

/** The poll's default byte cap (docs/ingestion.md): the largest page an HTML adapter is given. */
const PAGE_BYTES = 5 * 1024 * 1024;

function time(type: SourceType, body: Buffer): number {
  const t0 = performance.now();
  try {
    const url = type === 'statuspage-html' ? 'https://status.example.com/' : 'https://status.example.com/api/v2/incidents.json';
    parseSource(type, { vendor: 'x', url, body, contentType: null, now: new Date('2026-01-02T00:00:00Z') });
  } catch {
    // A refused payload is a result too: what is measured is the time to decide.
  }
  return performance.now() - t0;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const opening of HOSTILE_OPENINGS) {
    const html = hostileHtml(HOSTILE_BYTES, opening);
    const json = time('statuspage-v2', Buffer.from(statuspageIncidents([{ id: 'x1', name: 'Hostile', createdAt: '2026-01-01T00:00:00Z', body: html }])));
    const rss = time('statuspage-rss', Buffer.from(statuspageHistoryRss(html)));
    const page = time('statuspage-html', Buffer.from(`<html><body><div class="page-status status-none">${html}`));
    console.log(
      `${JSON.stringify(opening).padEnd(12)} 256 KB: statuspage-v2 ${json.toFixed(0)} ms, statuspage-rss ${rss.toFixed(0)} ms, statuspage-html ${page.toFixed(0)} ms`,
    );
  }
  // Whole pages read from their HTML (docs/mappings.md "Statuspage pages in HTML"): the size and
  // nesting bounds, at the largest page still read.
  const FOUR_MB = 4 * 1024 * 1024 - 64;
  const component = (i: number) => `<div data-component-id="c${i}" data-component-status="operational"><span class="name">Component ${i}</span></div>`;
  const pages: [string, string][] = [
    ['2000 components (largest page read)', `<html><body>${Array.from({ length: 2000 }, (_, i) => component(i)).join('')}</body></html>`],
    ['4 MB of nested <div> (refused at depth 256)', `<html><body>${'<div>'.repeat(FOUR_MB / 5)}`],
    ['4 MB, 200 open then stray </span>', `<html><body><div class="page-status status-none">${'<div>'.repeat(200)}${'</span>'.repeat((FOUR_MB - 1100) / 7)}`],
    ['4 MB of text in one component name', `<html><body>${component(0).replace('Component 0', 'x'.repeat(FOUR_MB - 200))}`],
  ];
  for (const [label, body] of pages) console.log(`statuspage-html, ${label}: ${time('statuspage-html', Buffer.from(body)).toFixed(0)} ms`);
  for (const opening of [...HOSTILE_OPENINGS, '<tr data-path="1"><td><a>x']) {
    const page = Buffer.from(hostileHtml(PAGE_BYTES, opening));
    console.log(
      `${JSON.stringify(opening).padEnd(30)} 5 MiB page: okta-status ${time('okta-status', page).toFixed(0)} ms, fastly-status ${time('fastly-status', page).toFixed(0)} ms`,
    );
  }
  const row = (i: number) =>
    `<tr data-path="${i}" data-pid="1"><td><a href="#">Component ${i}</a></td><td></td><td><i class="component-available"></i></td></tr>`;
  const rows: string[] = [];
  for (let i = 0, size = 0; size < PAGE_BYTES; i++) {
    rows.push(row(i));
    size += rows[rows.length - 1]!.length;
  }
  const table = Buffer.from(`<html><body><table>${rows.join('')}</table></body></html>`);
  console.log(`${rows.length} component rows, ${(table.length / 1048576).toFixed(1)} MiB page: fastly-status ${time('fastly-status', table).toFixed(0)} ms`);
  const records = JSON.stringify(
    Array.from({ length: 40_000 }, (_, i) => ({ Status__c: i % 2 ? 'Resolved' : 'Open', Category__c: 'Service Degradation', Service_Feature__c: null })),
  );
  const okta = Buffer.from(`<html><body><span data-id="incidents">${records.replace(/"/g, '&quot;')}</span></body></html>`);
  console.log(`40000 Okta records, ${(okta.length / 1048576).toFixed(1)} MiB page: okta-status ${time('okta-status', okta).toFixed(0)} ms`);
}
