import type { AdvisoryRecord, ComponentRecord, IncidentRecord, MaintenanceRecord, RecordUpdate, SourceSnapshot, UpdateRecord } from './records.ts';

// Vendor pages are untrusted input (docs/security.md). Their text is cleaned once,
// when a poll's snapshot is ingested, so every output (REST, stream, MCP, feeds,
// e-mail, Slack) starts from the same clean records:
// - control characters (C0 but newline and tab, DEL, C1), bidi overrides and
//   isolates, zero-width characters and lone surrogates are removed;
// - one-line fields (titles, component names, status words) have their whitespace
//   collapsed, so a title cannot carry a line break into a line-based format;
// - lengths and counts are capped (LIMITS);
// - links are kept only when they are absolute http(s) URLs;
// - a record dated more than a year ahead of the poll is refused.

export const LIMITS = {
  title: 300,
  /** Component names, groups, status words, categories, CVE ids. */
  label: 200,
  /** Ids keep their identity: only stripped, never cut below this. */
  id: 500,
  body: 10_000,
  updatesPerRecord: 100,
  url: 2048,
  futureMs: 366 * 24 * 3600 * 1000,
} as const;

// C0 but \t and \n, DEL and C1; LRM/RLM/ALM marks, LRE..RLO overrides, LRI..PDI
// isolates; zero-width space/joiners, word joiner, invisible operators, BOM;
// unpaired surrogates (invalid in XML and in JSON consumers).
const UNSAFE =
  /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u061C\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF\uFFF9-\uFFFB]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Removes the characters above; keeps newlines and tabs. */
export function stripUnsafe(text: string): string {
  return text.replace(UNSAFE, '');
}

/** Cuts at `max` UTF-16 units without splitting a surrogate pair, marking the cut. */
function cap(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = text.slice(0, max - 1);
  if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
  return `${cut}…`;
}

/** A one-line field: cleaned, whitespace collapsed, capped. */
export function cleanLine(text: string, max: number = LIMITS.title): string {
  return cap(stripUnsafe(text).replace(/\s+/g, ' ').trim(), max);
}

/** A multi-line field: cleaned, capped. */
export function cleanBody(text: string, max: number = LIMITS.body): string {
  return cap(stripUnsafe(text).trim(), max);
}

/** The URL when it is an absolute http(s) URL of sane length, else null. */
export function httpUrlOrNull(value: string | null | undefined): string | null {
  if (!value || value.length > LIMITS.url) return null;
  try {
    const url = new URL(value.trim());
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    // As written when it is plain; the encoded form when it holds spaces or markup characters.
    return /[\s<>"`{}|\\^]/.test(value) ? url.href.replace(/\|/g, '%7C') : value.trim();
  } catch {
    return null;
  }
}

const tooFar = (iso: string | null | undefined, limit: number) => !!iso && Date.parse(iso) > limit;

function cleanUpdates(updates: RecordUpdate[], limit: number): RecordUpdate[] {
  return updates
    .filter((u) => !tooFar(u.createdAt, limit))
    .slice(0, LIMITS.updatesPerRecord)
    .map((u) => {
      const { sourceStatus, ...rest } = u;
      const word = typeof sourceStatus === 'string' ? cleanLine(sourceStatus, LIMITS.label) : '';
      return { ...rest, status: cleanLine(u.status, LIMITS.label), ...(word ? { sourceStatus: word } : {}), body: cleanBody(u.body) };
    });
}

const cleanId = (id: string) => cleanLine(id, LIMITS.id);
const labels = (list: string[]) => list.map((c) => cleanLine(c, LIMITS.label)).filter((c) => c !== '');

/** What incidents and maintenances share: id, title, status word, components, updates, link. */
function cleanEvent<T extends IncidentRecord | MaintenanceRecord>(r: T, limit: number): T {
  return {
    ...r,
    id: cleanId(r.id),
    title: cleanLine(r.title),
    sourceStatus: cleanLine(r.sourceStatus, LIMITS.label),
    components: labels(r.components),
    updates: cleanUpdates(r.updates, limit),
    url: httpUrlOrNull(r.url),
  };
}

function incident(r: IncidentRecord, limit: number): IncidentRecord | null {
  if ([r.startedAt, r.updatedAt, r.resolvedAt].some((d) => tooFar(d, limit))) return null;
  return cleanEvent(r, limit);
}

function maintenance(r: MaintenanceRecord, limit: number): MaintenanceRecord | null {
  if ([r.scheduledFor, r.scheduledUntil, r.startedAt, r.completedAt].some((d) => tooFar(d, limit))) return null;
  return cleanEvent(r, limit);
}

function advisory(r: AdvisoryRecord, limit: number): AdvisoryRecord | null {
  if (tooFar(r.publishedAt, limit) || tooFar(r.updatedAt, limit)) return null;
  return { ...r, id: cleanId(r.id), title: cleanLine(r.title), cves: labels(r.cves), summary: cleanBody(r.summary), url: httpUrlOrNull(r.url) };
}

function update(r: UpdateRecord, limit: number): UpdateRecord | null {
  if (tooFar(r.publishedAt, limit)) return null;
  return { ...r, id: cleanId(r.id), title: cleanLine(r.title), categories: labels(r.categories), summary: cleanBody(r.summary), url: httpUrlOrNull(r.url) };
}

const component = (c: ComponentRecord): ComponentRecord => ({
  ...c,
  id: cleanId(c.id),
  name: cleanLine(c.name, LIMITS.label),
  group: c.group === null ? null : cleanLine(c.group, LIMITS.label),
});

const keep = <T, U>(list: T[] | undefined, f: (x: T) => U | null): U[] | undefined => (list ? list.map(f).filter((x): x is U => x !== null) : undefined);

/** The snapshot as it may be stored: every upstream string cleaned, links checked, far-future records refused. */
export function cleanSnapshot(s: SourceSnapshot, now: Date): SourceSnapshot {
  const limit = now.getTime() + LIMITS.futureMs;
  const out: SourceSnapshot = { ...s };
  if (s.status) out.status = { ...s.status, description: cleanLine(s.status.description, LIMITS.label) };
  if (s.components) out.components = s.components.map(component);
  if (s.incidents) {
    out.incidents = keep(s.incidents, (r) => incident(r, limit));
    // A list missing a refused incident is no longer the complete unresolved set:
    // nothing may be resolved for being absent from it.
    if (out.incidents!.length < s.incidents.length) out.incidentsAreCompleteUnresolvedSet = false;
  }
  if (s.maintenances) out.maintenances = keep(s.maintenances, (r) => maintenance(r, limit));
  if (s.advisories) out.advisories = keep(s.advisories, (r) => advisory(r, limit));
  if (s.updates) out.updates = keep(s.updates, (r) => update(r, limit));
  return out;
}
