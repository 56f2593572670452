// RSS 2.0 and Atom 1.0 writers plus the item builders for the three feed families the
// demo fleet serves: Statuspage incident history, security advisories, release notes.
import type { AdvisoryRecord, IncidentRecord, MaintenanceRecord, RecordUpdate, UpdateRecord } from '../../../domain/records.ts';
import { escapeXml } from '../../../domain/html-escape.ts';
import { joinUrl } from '../../adapters/mapping.ts';
import { MONTHS } from '../../adapters/time.ts';
import { upstreamIdOf } from './ids.ts';

export interface FeedItemOut {
  id: string;
  title: string;
  link: string | null;
  published: string;
  updated?: string;
  /** HTML body; escaped into the document. */
  html: string;
  categories?: string[];
}

export interface FeedDocumentOut {
  title: string;
  /** The site the feed belongs to. */
  link: string;
  /** Atom feed id; defaults to the link. */
  id?: string;
  updated: string;
  description?: string;
  items: FeedItemOut[];
}

const rfc822 = (iso: string) => new Date(iso).toUTCString();

export function renderRss(doc: FeedDocumentOut): string {
  const items = doc.items.map((item) =>
    [
      '    <item>',
      `      <title>${escapeXml(item.title)}</title>`,
      item.link ? `      <link>${escapeXml(item.link)}</link>` : null,
      `      <guid isPermaLink="false">${escapeXml(item.id)}</guid>`,
      `      <pubDate>${rfc822(item.published)}</pubDate>`,
      // RSS has no modification date; the Atom namespace element is the usual extension.
      item.updated && item.updated !== item.published ? `      <atom:updated>${item.updated}</atom:updated>` : null,
      ...(item.categories ?? []).map((c) => `      <category>${escapeXml(c)}</category>`),
      `      <description>${escapeXml(item.html)}</description>`,
      '    </item>',
    ]
      .filter((line) => line !== null)
      .join('\n'),
  );
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">',
    '  <channel>',
    `    <title>${escapeXml(doc.title)}</title>`,
    `    <link>${escapeXml(doc.link)}</link>`,
    `    <description>${escapeXml(doc.description ?? doc.title)}</description>`,
    `    <lastBuildDate>${rfc822(doc.updated)}</lastBuildDate>`,
    ...items,
    '  </channel>',
    '</rss>',
    '',
  ].join('\n');
}

export function renderAtom(doc: FeedDocumentOut): string {
  const entries = doc.items.map((item) =>
    [
      '  <entry>',
      `    <id>${escapeXml(item.id)}</id>`,
      `    <published>${item.published}</published>`,
      `    <updated>${item.updated ?? item.published}</updated>`,
      item.link ? `    <link rel="alternate" type="text/html" href="${escapeXml(item.link)}"/>` : null,
      `    <title>${escapeXml(item.title)}</title>`,
      ...(item.categories ?? []).map((c) => `    <category term="${escapeXml(c)}"/>`),
      `    <content type="html">${escapeXml(item.html)}</content>`,
      '  </entry>',
    ]
      .filter((line) => line !== null)
      .join('\n'),
  );
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<feed xml:lang="en-US" xmlns="http://www.w3.org/2005/Atom">',
    `  <id>${escapeXml(doc.id ?? doc.link)}</id>`,
    `  <link rel="alternate" type="text/html" href="${escapeXml(doc.link)}"/>`,
    `  <title>${escapeXml(doc.title)}</title>`,
    `  <updated>${doc.updated}</updated>`,
    ...entries,
    '</feed>',
    '',
  ].join('\n');
}

// ---- Statuspage history -------------------------------------------------------------

const MONTH_NAMES = MONTHS.map((m) => m[0]!.toUpperCase() + m.slice(1));
const pad = (n: number) => String(n).padStart(2, '0');

/** "Jun <var data-var='date'> 8</var>, <var data-var='time'>19:13</var>" in UTC, as Statuspage writes it. */
function stamp(iso: string, withDate = true): string {
  const d = new Date(iso);
  const time = `<var data-var='time'>${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}</var>`;
  if (!withDate) return time;
  return `${MONTH_NAMES[d.getUTCMonth()]} <var data-var='date'>${String(d.getUTCDate()).padStart(2, ' ')}</var>, ${time}`;
}

const LABELS: Record<string, string> = {
  investigating: 'Investigating',
  identified: 'Identified',
  monitoring: 'Monitoring',
  resolved: 'Resolved',
  postmortem: 'Postmortem',
  scheduled: 'Scheduled',
  in_progress: 'In progress',
  verifying: 'Verifying',
  completed: 'Completed',
};

function blocks(updates: RecordUpdate[]): string {
  return updates
    .map((u) => `<p><small>${stamp(u.createdAt)} UTC</small><br><strong>${LABELS[u.status] ?? 'Update'}</strong> - ${escapeXml(u.body)}</p>`)
    .join('');
}

function scheduledLine(m: MaintenanceRecord): string {
  if (!m.scheduledUntil) return '';
  const sameDay = m.scheduledFor.slice(0, 10) === m.scheduledUntil.slice(0, 10);
  return `<p><strong>THIS IS A SCHEDULED EVENT ${stamp(m.scheduledFor)} - ${stamp(m.scheduledUntil, !sameDay)} UTC</strong></p>`;
}

export function statuspageHistoryFeed(page: { name: string; url: string }, incidents: IncidentRecord[], maintenances: MaintenanceRecord[]): FeedDocumentOut {
  const host = new URL(page.url).host;
  const item = (r: IncidentRecord | MaintenanceRecord, html: string, updatedAt: string): FeedItemOut => {
    const code = upstreamIdOf(r);
    const link = joinUrl(page.url, `incidents/${code}`);
    return { id: `tag:${host},2005:Incident/${code}`, title: r.title, link, published: r.updates[0]?.createdAt ?? updatedAt, updated: updatedAt, html };
  };
  const items = [
    ...incidents.map((r) => item(r, blocks(r.updates), r.updatedAt)),
    ...maintenances.map((m) => item(m, scheduledLine(m) + blocks(m.updates), m.updates[0]?.createdAt ?? m.scheduledFor)),
  ].sort((a, b) => (a.published < b.published ? 1 : -1));
  return {
    title: `${page.name} Status - Incident History`,
    link: page.url,
    id: `tag:${host},2005:/history`,
    updated: items.reduce((max, i) => ((i.updated ?? i.published) > max ? (i.updated ?? i.published) : max), items[0]?.published ?? new Date(0).toISOString()),
    items,
  };
}

// ---- advisories and release notes ---------------------------------------------------

/** Severity and CVE ids travel as categories, which readers (ours included) pick up. */
export function advisoryFeed(meta: { title: string; link: string }, advisories: AdvisoryRecord[]): FeedDocumentOut {
  return {
    title: meta.title,
    link: meta.link,
    updated: advisories.reduce((max, a) => (a.updatedAt > max ? a.updatedAt : max), new Date(0).toISOString()),
    items: advisories.map((a) => ({
      id: upstreamIdOf(a),
      title: a.title,
      link: a.url,
      published: a.publishedAt,
      updated: a.updatedAt,
      html: `<p>${escapeXml(a.summary)}</p>`,
      categories: [`severity:${a.severity}`, ...a.cves],
    })),
  };
}

export function releaseFeed(meta: { title: string; link: string }, updates: UpdateRecord[]): FeedDocumentOut {
  return {
    title: meta.title,
    link: meta.link,
    updated: updates.reduce((max, u) => (u.publishedAt > max ? u.publishedAt : max), new Date(0).toISOString()),
    items: updates.map((u) => ({
      id: upstreamIdOf(u),
      title: u.title,
      link: u.url,
      published: u.publishedAt,
      html: `<p>${escapeXml(u.summary)}</p>`,
      categories: u.categories,
    })),
  };
}
