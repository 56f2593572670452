// Parse time of hostile vendor pages (docs/security.md, "Vendor pages are untrusted input"):
// 256 KB bodies made of unclosed `<!--`, `<a`, `<script` and `<small>` openings, in the
// formats whose text goes through the HTML helpers. Prints one line per payload.
//   npx tsx bench/hostile-parse.ts
import { performance } from 'node:perf_hooks';
import { parseSource } from '../src/ingest/adapters/index.ts';
import type { SourceType } from '../src/domain/records.ts';
import { hostileHtml, statuspageHistoryRss, statuspageIncidents } from '../test/helpers/hostile-vendor.ts';

const HOSTILE_BYTES = 256 * 1024;

const HOSTILE_OPENINGS = ['<!--', '<a ', '<script>', '<small>x'] as const;

function time(type: SourceType, body: Buffer): number {
  const t0 = performance.now();
  try {
    parseSource(type, { vendor: 'x', url: 'https://status.example.com/api/v2/incidents.json', body, contentType: null, now: new Date('2026-01-02T00:00:00Z') });
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
    console.log(`${JSON.stringify(opening).padEnd(12)} 256 KB: statuspage-v2 ${json.toFixed(0)} ms, statuspage-rss ${rss.toFixed(0)} ms`);
  }
}
