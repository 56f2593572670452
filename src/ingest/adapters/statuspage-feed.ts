// Statuspage `/history.rss` and `/history.atom`. Each entry is one incident or
// maintenance; its HTML body lists the updates newest first as
//   <p><small>Jun <var>8</var>, <var>19:13</var> UTC</small><br><strong>Resolved</strong> - text</p>
// Labels Investigating/Identified/Monitoring/Resolved/Postmortem mark incidents,
// Scheduled/In progress/Verifying/Completed mark maintenances, and "Update" keeps
// the previous state. Impact is not published in feeds.
import type { IncidentRecord, MaintenanceRecord, SourceSnapshot, SourceType } from '../../domain/records.ts';
import { defineAdapter, type AdapterInput } from './adapter.ts';
import { entryUpstreamId } from './feed-entry.ts';
import { parseFeedBody, type FeedEntry } from './feed.ts';
import { incidentStatusFrom, maintenanceStatusFrom, ownWord, recordId } from './mapping.ts';
import { collapseWhitespace, htmlToText } from './text.ts';
import { earliestIso, firstIso, latestIso, monthIndex, requireIso, trailingOffsetMinutes, wallClockToIso, ZONE_OFFSETS_MINUTES } from './time.ts';

const MAINTENANCE_WORDS = new Set(['scheduled', 'in_progress', 'verifying', 'completed']);

interface Block {
  /** Upstream word with "update" replaced by the state it continues. */
  word: string;
  label: string;
  body: string;
  createdAt: string;
}

const LEAD_RE = /^\s*(?:<br\s*\/?>)?\s*<strong>/i;
const STAMP_RE = /^([A-Za-z]{3})[a-z]*\.?\s+(\d{1,2}),?\s*(?:(\d{4})\s*[,-]?\s*)?(\d{1,2}):(\d{2})\s*(AM|PM)?\s*([A-Za-z]{1,5})?/;
// "Mar 3, 22:00 - 23:30 UTC" on one day; "Jan 8, 21:00 UTC - Jan 9, 01:00 UTC" across
// two, where the zone may also follow the start (docs/mappings.md "Statuspage history feeds").
const SCHEDULED_RE =
  /SCHEDULED EVENT\s+([A-Za-z]{3})\s+(\d{1,2}),?\s*(\d{1,2}):(\d{2})\s*(?:([A-Za-z]{1,5})\s*)?-\s*(?:([A-Za-z]{3})\s+(\d{1,2}),?\s*)?(\d{1,2}):(\d{2})\s*([A-Za-z]{1,5})?/i;

/**
 * The zone printed next to update times is the page's zone label, which Statuspage
 * does not adjust for DST (Parse prints "PST" in August). An entry date written with
 * a numeric offset (-0700) has the real one, so that wins; the label is the fallback
 * (entry dates in Z say nothing about the page's zone).
 */
function offsetFor(zone: string | undefined, entry: FeedEntry): number {
  const label = (zone ?? '').toUpperCase();
  if (label === 'UTC' || label === 'GMT' || label === 'Z') return 0;
  return trailingOffsetMinutes(entry.publishedRaw ?? entry.updatedRaw) ?? ZONE_OFFSETS_MINUTES[label] ?? 0;
}

function stampToIso(text: string, entry: FeedEntry, reference: string): string | null {
  const m = STAMP_RE.exec(collapseWhitespace(htmlToText(text)));
  if (!m) return null;
  const month = monthIndex(m[1]!);
  if (month < 0) return null;
  let hour = Number(m[4]);
  if (m[6]) hour = (hour % 12) + (m[6].toUpperCase() === 'PM' ? 12 : 0);
  return wallClockToIso({ month, day: Number(m[2]), hour, minute: Number(m[5]), ...(m[3] ? { year: Number(m[3]) } : {}) }, offsetFor(m[7], entry), reference);
}

/**
 * The `<small>stamp</small><br><strong>Label</strong> - body` blocks of an entry, found
 * with indexOf scans (linear: a lazy regular expression over unclosed `<small>`
 * openings is quadratic, docs/security.md).
 */
function splitBlocks(html: string): { stamp: string; label: string; body: string }[] {
  const lower = html.toLowerCase();
  // toLowerCase keeps positions only when no character changes length; else give up on blocks.
  if (lower.length !== html.length) return [];
  const out: { stamp: string; label: string; body: string }[] = [];
  let at = lower.indexOf('<small>');
  // The next `</small>` is searched again only once passed, so each scan moves forward.
  let close = -2;
  while (at >= 0) {
    const next = lower.indexOf('<small>', at + 7);
    const end = next < 0 ? html.length : next;
    if (close !== -1 && close < at + 7) close = lower.indexOf('</small>', at + 7);
    if (close >= 0 && close < end) {
      const rest = html.slice(close + 8, end);
      const lead = LEAD_RE.exec(rest);
      const strongClose = lead ? rest.toLowerCase().indexOf('</strong>', lead[0].length) : -1;
      if (lead && strongClose >= 0) {
        out.push({
          stamp: html.slice(at + 7, close),
          label: rest.slice(lead[0].length, strongClose),
          body: rest.slice(strongClose + 9).replace(/^\s*-?\s*/, ''),
        });
      }
    }
    at = next;
  }
  return out;
}

function parseBlocks(entry: FeedEntry, reference: string): Block[] {
  const found: Omit<Block, 'word'>[] = [];
  for (const m of splitBlocks(entry.html)) {
    const createdAt = stampToIso(m.stamp, entry, reference);
    if (!createdAt) continue;
    found.push({ label: htmlToText(m.label).toLowerCase().replace(/\s+/g, '_'), body: htmlToText(m.body), createdAt });
  }
  // Oldest first to carry the state forward through "Update" blocks, then back to newest first.
  const blocks: Block[] = [];
  let state: string | null = null;
  for (const b of [...found].reverse()) {
    state = b.label === 'update' ? (state ?? 'investigating') : b.label;
    blocks.push({ ...b, word: state });
  }
  return blocks.reverse();
}

function upstreamId(entry: FeedEntry): string {
  // The incident code in the link is the same id the JSON API uses, so records from
  // the feed and from /api/v2 of the same page coincide.
  const code = /\/incidents\/([A-Za-z0-9]+)\/?(?:[?#].*)?$/.exec(entry.link ?? '')?.[1];
  return code ?? entryUpstreamId(entry);
}

function toIncident(entry: FeedEntry, blocks: Block[], source: string, vendor: string, id: string): IncidentRecord {
  const context = `${source}: entry ${id}`;
  const startedAt = requireIso(`${context} date`, earliestIso(blocks.map((b) => b.createdAt)) ?? firstIso(entry.published, entry.updated));
  const updatedAt = latestIso([entry.updated, blocks[0]?.createdAt, entry.published, startedAt]) ?? startedAt;
  const sourceStatus = blocks[0]?.word ?? 'investigating';
  const status = incidentStatusFrom(sourceStatus);
  const updates =
    blocks.length > 0
      ? blocks.map((b) => ({ status: incidentStatusFrom(b.word), ...ownWord(b.word), body: b.body, createdAt: b.createdAt }))
      : [{ status, body: htmlToText(entry.html), createdAt: startedAt }];
  const resolvedBlock = blocks.find((b) => b.label === 'resolved') ?? blocks.find((b) => incidentStatusFrom(b.word) === 'resolved');
  return {
    id: recordId(vendor, id),
    vendor,
    title: collapseWhitespace(entry.title),
    status,
    sourceStatus,
    // Feeds do not publish impact; an incident on the history page affected someone.
    impact: 'minor',
    startedAt,
    updatedAt,
    resolvedAt: status === 'resolved' ? (resolvedBlock?.createdAt ?? updatedAt) : null,
    components: [],
    updates,
    url: entry.link,
    source,
  };
}

function scheduledWindow(entry: FeedEntry, reference: string): { from: string; until: string } | null {
  const m = SCHEDULED_RE.exec(collapseWhitespace(htmlToText(entry.html)));
  if (!m) return null;
  const offset = offsetFor(m[10] ?? m[5], entry);
  const from = wallClockToIso({ month: monthIndex(m[1]!), day: Number(m[2]), hour: Number(m[3]), minute: Number(m[4]) }, offset, reference);
  const until = wallClockToIso({ month: monthIndex(m[6] ?? m[1]!), day: Number(m[7] ?? m[2]), hour: Number(m[8]), minute: Number(m[9]) }, offset, from);
  return { from, until };
}

function toMaintenance(entry: FeedEntry, blocks: Block[], source: string, vendor: string, id: string, reference: string): MaintenanceRecord {
  const context = `${source}: entry ${id}`;
  const sourceStatus = blocks[0]?.word ?? 'scheduled';
  const status = maintenanceStatusFrom(sourceStatus);
  const window = scheduledWindow(entry, reference);
  const firstInProgress = earliestIso(blocks.filter((b) => b.word === 'in_progress').map((b) => b.createdAt));
  // Without the "SCHEDULED EVENT" line the feed does not state the window; the first
  // In progress update (else the announcement) is the best available start.
  const scheduledFor = requireIso(
    `${context} date`,
    window?.from ?? firstInProgress ?? earliestIso(blocks.map((b) => b.createdAt)) ?? firstIso(entry.published, entry.updated),
  );
  const updatedAt = latestIso([entry.updated, blocks[0]?.createdAt, entry.published]) ?? scheduledFor;
  const completedBlock = blocks.find((b) => b.word === 'completed');
  const completedAt = status === 'completed' ? (completedBlock?.createdAt ?? updatedAt) : null;
  return {
    id: recordId(vendor, id),
    vendor,
    title: collapseWhitespace(entry.title),
    status,
    sourceStatus,
    impact: 'none',
    scheduledFor,
    scheduledUntil: window?.until ?? completedAt,
    startedAt: status === 'scheduled' ? null : (firstInProgress ?? scheduledFor),
    completedAt,
    components: [],
    updates: blocks.map((b) => ({ status: maintenanceStatusFrom(b.word), ...ownWord(b.word), body: b.body, createdAt: b.createdAt })),
    url: entry.link,
    source,
  };
}

function parseStatuspageFeed(type: SourceType, input: AdapterInput): SourceSnapshot {
  const feed = parseFeedBody(type, input.body, input.contentType);
  const incidents: IncidentRecord[] = [];
  const maintenances: MaintenanceRecord[] = [];
  for (const entry of feed.entries) {
    const reference = firstIso(entry.published, entry.updated, feed.updated) ?? input.now.toISOString();
    const blocks = parseBlocks(entry, reference);
    const id = upstreamId(entry);
    if (blocks.some((b) => MAINTENANCE_WORDS.has(b.label)) || SCHEDULED_RE.test(htmlToText(entry.html))) {
      maintenances.push(toMaintenance(entry, blocks, type, input.vendor, id, reference));
    } else {
      incidents.push(toIncident(entry, blocks, type, input.vendor, id));
    }
  }
  return { incidents, maintenances };
}

export const statuspageRssAdapter = defineAdapter('statuspage-rss', (input) => parseStatuspageFeed('statuspage-rss', input));
export const statuspageAtomAdapter = defineAdapter('statuspage-atom', (input) => parseStatuspageFeed('statuspage-atom', input));
