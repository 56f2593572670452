// Parse time of hostile vendor pages (docs/security.md, "Vendor pages are untrusted"):
// 256 KB bodies made of unclosed `<!--`, `<a`, `<script` and `<small>` openings, in the
// formats whose text goes through the HTML helpers. Prints one line per payload.
//   npx tsx bench/hostile-parse.ts
import { performance } from 'node:perf_hooks';
import { parseSource } from '../src/ingest/adapters/index.ts';
import type { SourceType } from '../src/domain/records.ts';

export const HOSTILE_BYTES = 256 * 1024;

/** An HTML fragment of about `bytes` characters that is all unclosed openings. */
export function hostileHtml(bytes: number, opening: string): string {
  return opening.repeat(Math.ceil(bytes / opening.length)).slice(0, bytes);
}

/** A Statuspage incidents.json whose one update body is `html`. */
export function hostileStatuspage(html: string): Buffer {
  const at = '2026-01-01T00:00:00Z';
  return Buffer.from(
    JSON.stringify({
      page: { id: 'p', name: 'P', url: 'https://status.example.com', updated_at: at },
      incidents: [
        {
          id: 'x1', name: 'Hostile', status: 'investigating', impact: 'minor', created_at: at, updated_at: at, started_at: at,
          resolved_at: null, shortlink: null, components: [],
          incident_updates: [{ id: 'u1', status: 'investigating', body: html, created_at: at, updated_at: at, display_at: at }],
        },
      ],
    }),
  );
}

/** A Statuspage history.rss whose one item description is `html`. */
export function hostileFeed(html: string): Buffer {
  const esc = html.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return Buffer.from(
    `<?xml version="1.0"?><rss version="2.0"><channel><title>T</title><link>https://status.example.com</link>` +
      `<item><title>Hostile</title><guid>g1</guid><pubDate>Thu, 01 Jan 2026 00:00:00 GMT</pubDate>` +
      `<link>https://status.example.com/incidents/abc</link><description>${esc}</description></item></channel></rss>`,
  );
}

export const HOSTILE_OPENINGS = ['<!--', '<a ', '<script>', '<small>x'] as const;

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
    const json = time('statuspage-v2', hostileStatuspage(html));
    const rss = time('statuspage-rss', hostileFeed(html));
    console.log(`${JSON.stringify(opening).padEnd(12)} 256 KB: statuspage-v2 ${json.toFixed(0)} ms, statuspage-rss ${rss.toFixed(0)} ms`);
  }
}
