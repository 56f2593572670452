// Which status platform a fetched body comes from, by its shape (docs/catalog.md
// "Checking the catalog"): the probes of docs/mappings.md read backwards. JSON shapes are
// told apart by the keys each platform's documented payload has; HTML pages by the
// markers their platform leaves in them. Pure: no I/O.
import type { SourceType } from './records.ts';
import { firstServerSentEvent, HUND_INIT_EVENT, hundStreamComplete } from './server-sent-events.ts';

/** A source type, `feed` (any RSS/Atom document), `html` (a page without a known marker), or null. */
export type DetectedPlatform = SourceType | 'feed' | 'html' | null;

const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/;
const INSTATUS_WORDS = /^(UP|HASISSUES|UNDERMAINTENANCE|ALLUP|MINOROUTAGE|MAJOROUTAGE|PARTIALOUTAGE|ONEMAJOROUTAGE|DEGRADEDPERFORMANCE)$/;

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function detectJson(data: unknown): DetectedPlatform {
  if (Array.isArray(data)) {
    const first = data.find(isObj);
    if (!first) return null;
    if ('IncidentImpacts' in first || 'instanceKeys' in first || 'plannedStartTime' in first || ('key' in first && 'isActive' in first))
      return 'salesforce-trust';
    if ('external_desc' in first && 'begin' in first) return 'gcp-json';
    if ('service' in first && 'summary' in first && 'date' in first) return 'aws-currentevents';
    if ('title' in first && 'notes' in first && 'services' in first) return 'slack-status';
    return null;
  }
  if (!isObj(data)) return null;
  // cState's index.json (its theme's template) and UptimeRobot's monitor list (docs/mappings.md).
  if (data.is === 'index' && Array.isArray(data.systems)) return 'cstate';
  if (
    data.status === 'ok' &&
    (isObj(data.psp) ? Array.isArray(data.psp.monitors) : Array.isArray(data.data) && data.data.some((m) => isObj(m) && 'statusClass' in m))
  )
    return 'uptimerobot';
  if (isObj(data.status_page) && ('current_incident_type' in data.status_page || Array.isArray(data.services))) return 'statuspal';
  if (data.is === 'index' && typeof data.summaryStatus === 'string' && Array.isArray(data.systems)) return 'cstate';
  if (isObj(data.data) && Array.isArray(data.data.current_status)) return 'site24x7';
  if (typeof data.UptimeStatus === 'string') return 'stripe-status';
  if (isObj(data.global) && typeof data.global.status === 'string') return 'algolia-status';
  if (Array.isArray(data.result) && data.result.some((r) => isObj(r) && isObj(r.category) && isObj(r.status))) return 'paypal-status';
  if (Array.isArray(data.data) && data.data.some((i) => isObj(i) && isObj(i.attributes) && typeof i.attributes.outage === 'boolean')) return 'zendesk-status';
  if (Array.isArray(data.TestData)) return 'statuscake';
  if (isObj(data.counters) && 'count_status_1' in data.counters) return 'statushub';
  const result = data.result;
  if (isObj(result) && isObj(result.status_overall)) return 'statusio';
  const page = data.page;
  if (isObj(page)) {
    if (typeof page.state === 'string' && (isObj(page.links) || 'state_text' in page)) return 'sorry';
    const status = isObj(data.status) ? data.status : null;
    if (typeof page.status === 'string' && INSTATUS_WORDS.test(page.status)) return 'instatus';
    if (status && typeof status.type === 'string' && INSTATUS_WORDS.test(status.type)) return 'instatus';
    if ('activeIncidents' in data || 'activeMaintenances' in data) return 'instatus';
    if (typeof page.id === 'string') return ULID.test(page.id) ? 'incidentio' : 'statuspage-v2';
  }
  const summary = isObj(data.summary) ? data.summary : data;
  if (['ongoing_incidents', 'in_progress_maintenances', 'affected_components', 'structure'].some((k) => k in summary)) return 'incidentio';
  if (isObj(data.data) && data.data.type === 'status_page') return 'betterstack';
  if (data.data === 'Pong!' || (isObj(data.meta) && isObj((data.meta as Record<string, unknown>).pagination) && Array.isArray(data.data))) return 'cachet';
  if ('active_incidents' in data && typeof data.status === 'string') return 'slack-status';
  if (Array.isArray(data.status) && data.status.some((s) => isObj(s) && 'system' in s)) return 'heroku-status';
  if (Array.isArray(data.notices)) return 'sorry';
  return null;
}

const HTML_MARKERS: [RegExp, SourceType][] = [
  [/statuspageId\s*[:=]\s*['"][a-f0-9]{24}['"]|image\.status\.io/i, 'statusio'],
  [/incident\.io/i, 'incidentio'],
  // Statuspage's own component markup: the page can be read from its HTML (docs/mappings.md "Statuspage pages in HTML").
  [/\bdata-component-status\s*=\s*["']?(?:operational|degraded_performance|partial_outage|major_outage|under_maintenance)\b/, 'statuspage-html'],
  [/window\.pspApiPath\s*=/, 'uptimerobot'],
  [/statuspage\.io|stspg-customer\.com/i, 'statuspage-v2'],
  [/instatus\.com/i, 'instatus'],
  [/betteruptime\.com|betterstack\.com/i, 'betterstack'],
  [/sorryapp\.com/i, 'sorry'],
  [/cachethq|powered by cachet/i, 'cachet'],
  // Okta's own page: its incident records sit as JSON in the element marked data-id="incidents".
  [/data-id=["']incidents["']/i, 'okta-status'],
  // Fastly's own page: its component rows carry `component-<state>` icons.
  [/\bcomponent-(?:available|unavailable)\b/i, 'fastly-status'],
];

/** A server-sent event stream: Hund's live stream opens with its page's state and issues. */
function detectEventStream(text: string): DetectedPlatform {
  const init = firstServerSentEvent(text, HUND_INIT_EVENT);
  if (!init) return null;
  try {
    const data: unknown = JSON.parse(init.data);
    return isObj(data) && typeof data.state === 'string' && Array.isArray(data.issues) ? 'hund' : null;
  } catch {
    return null;
  }
}

export function detectPlatform(body: Buffer, contentType: string | null = null): DetectedPlatform {
  const text = body
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trimStart();
  if (text === '') return null;
  if (text[0] === '{' || text[0] === '[') {
    try {
      return detectJson(JSON.parse(text));
    } catch {
      return null;
    }
  }
  if (/^(?:event|data|id|retry)\s*:|^:/.test(text)) return detectEventStream(text);
  const head = text.slice(0, 2048).toLowerCase();
  if (/<rss[\s>]|<feed[\s>]|<rdf:rdf[\s>]/.test(head)) return 'feed';
  if (/<html[\s>]|<!doctype html/.test(head) || /text\/html/i.test(contentType ?? '')) {
    for (const [marker, platform] of HTML_MARKERS) if (marker.test(text)) return platform;
    return 'html';
  }
  return null;
}

/**
 * Source types read from an HTML page (docs/mappings.md "Statuspage pages in HTML", "Okta",
 * "Fastly"): the poller and `catalog verify` ask for HTML for these.
 */
export const HTML_SOURCE_TYPES: ReadonlySet<SourceType> = new Set<SourceType>(['statuspage-html', 'okta-status', 'fastly-status']);

/** The Accept header of a request for an HTML_SOURCE_TYPES page. */
export const ACCEPT_HTML = 'text/html, application/xhtml+xml;q=0.9, */*;q=0.5';

/** Source types whose payload is an RSS/Atom feed. */
export const FEED_SOURCE_TYPES: ReadonlySet<SourceType> = new Set<SourceType>([
  'advisory-feed',
  'release-feed',
  'statuspage-rss',
  'statuspage-atom',
  'azure-rss',
  'aws-rss',
]);

/** True when a detection is consistent with the catalog's declared type (null says nothing). */
export function platformMatches(declared: SourceType, detected: DetectedPlatform): boolean {
  if (detected === null) return true;
  if (FEED_SOURCE_TYPES.has(declared)) return detected === 'feed';
  return detected === declared;
}

const ACCEPT_FEED = 'application/rss+xml, application/atom+xml, application/xml;q=0.9, text/xml;q=0.9, */*;q=0.5';
const ACCEPT_JSON = 'application/json, */*;q=0.5';

/**
 * How a source of this type is asked for, by the poller and by `catalog verify` alike: the
 * Accept header of its format, and for a body that never ends (Hund's event stream) when
 * what was read is complete (docs/mappings.md "Hund").
 */
export function sourceRequest(type: SourceType): { accept: string; complete?: (received: Buffer) => boolean } {
  if (type === 'hund') return { accept: 'text/event-stream', complete: hundStreamComplete };
  if (HTML_SOURCE_TYPES.has(type)) return { accept: ACCEPT_HTML };
  return { accept: FEED_SOURCE_TYPES.has(type) ? ACCEPT_FEED : ACCEPT_JSON };
}

const MAX_PAGE_NAME = 200;

const cleanName = (v: unknown): string | null => {
  if (typeof v !== 'string') return null;
  // A vendor's page is not trusted text: no control characters, bounded, trimmed.
  const s = v
    .replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, MAX_PAGE_NAME);
  return s || null;
};

/**
 * The name a status page gives itself in a fetched body (docs/catalog.md "Self-healing"):
 * `page.name` (Statuspage, incident.io's compatible API, Instatus), Better Stack's
 * `company_name`, status.io's `result.status_overall` has none; a feed's or HTML page's
 * `<title>`. Null when the body names nothing.
 */
export function pageNameOf(body: Buffer): string | null {
  const text = body
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trimStart();
  if (text[0] === '{') {
    try {
      const data = JSON.parse(text) as Record<string, unknown>;
      if (isObj(data.page)) return cleanName(data.page.name);
      const attributes = isObj(data.data) && isObj(data.data.attributes) ? data.data.attributes : null;
      if (attributes) return cleanName(attributes.company_name ?? attributes.name);
      return cleanName(data.name);
    } catch {
      return null;
    }
  }
  const title = /<title[^>]*>([^<]{1,400})<\/title>/i.exec(text.slice(0, 65_536));
  return title ? cleanName(title[1]!.replace(/&amp;/g, '&')) : null;
}
