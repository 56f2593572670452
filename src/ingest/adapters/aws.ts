// AWS Health Dashboard, three generations:
//  - `health.aws.amazon.com/public/currentevents`: UTF-16 (BOM) JSON array of open events;
//  - legacy `status.aws.amazon.com/data.json`: {archive, current} with an HTML log per event;
//  - legacy `status.aws.amazon.com/rss/*.rss`: one item per posted update.
// AWS status codes are severities: 0 = operating normally (resolved), 1 = informational,
// 2 = performance issues, 3 = service disruption. Every generation identifies an event
// by `<service key>_<epoch of its first post>` (the RSS guid fragment), which becomes
// the upstream id, so the same event keeps one id across formats.
import { Type, type Static } from '@sinclair/typebox';
import type { ComponentStatus, Impact, IncidentRecord } from '../../domain/records.ts';
import { AdapterError, defineAdapter, type AdapterInput } from './adapter.ts';
import { awsComponent, awsComponentStatus } from './aws-components.ts';
import { parseAwsLog } from './aws-legacy-log.ts';
import { parseJsonBody } from './body.ts';
import { CloudComponentList, cloudComponentName, recordComponentNames } from './cloud-components.ts';
import { parseFeedBody, type FeedEntry } from './feed.ts';
import { newestFirst, recordId, worstImpact } from './mapping.ts';
import { collapseWhitespace, htmlToText } from './text.ts';
import { epochSecondsToIso, firstIso, latestIso, requireIso } from './time.ts';
import { check, Nullable, OptStr } from './validate.ts';

export function awsImpact(code: string | number | null | undefined): Impact {
  switch (String(code ?? '').trim()) {
    case '1':
      return 'minor';
    case '2':
      return 'major';
    case '3':
      return 'critical';
    default:
      return 'none';
  }
}

const stripResolved = (title: string) => collapseWhitespace(title.replace(/^\s*\[RESOLVED\]\s*/i, ''));

// ---- currentevents ---------------------------------------------------------------

const CodeSchema = Type.Union([Type.String(), Type.Number()]);

const CurrentEventSchema = Type.Object({
  date: CodeSchema,
  arn: OptStr,
  region_name: OptStr,
  status: CodeSchema,
  service: Type.String(),
  service_name: OptStr,
  summary: Type.String(),
  impacted_services: Type.Optional(
    Nullable(Type.Record(Type.String(), Type.Object({ service_name: OptStr, current: Type.Optional(CodeSchema), max: Type.Optional(CodeSchema) }))),
  ),
  event_log: Type.Optional(Nullable(Type.Array(Type.Object({ message: OptStr, status: Type.Optional(CodeSchema), timestamp: CodeSchema })))),
});

function mapCurrentEvent(e: Static<typeof CurrentEventSchema>, vendor: string, named: ReturnType<typeof eventComponents>): IncidentRecord {
  const key = `${e.service}_${e.date}`;
  const startedAt = requireIso(`aws-currentevents: event ${key} date`, epochSecondsToIso(e.date));
  const resolved = String(e.status) === '0';
  const log = e.event_log ?? [];
  const updates = newestFirst(
    log.map((l) => ({
      status: String(l.status) === '0' ? 'resolved' : 'investigating',
      body: htmlToText(l.message),
      createdAt: epochSecondsToIso(l.timestamp) ?? startedAt,
    })),
  );
  const updatedAt = latestIso([updates[0]?.createdAt, startedAt]) ?? startedAt;
  const impacted = Object.values(e.impacted_services ?? {});
  const severities = [e.status, ...log.map((l) => l.status), ...impacted.map((s) => s.max)].map((c) => awsImpact(c));
  return {
    id: recordId(vendor, key),
    vendor,
    title: stripResolved(e.summary),
    status: resolved ? 'resolved' : 'investigating',
    sourceStatus: String(e.status),
    impact: worstImpact(
      severities.filter((i) => i !== 'none'),
      'minor',
    ),
    startedAt,
    updatedAt,
    resolvedAt: resolved ? updatedAt : null,
    components: recordComponentNames(named.map((x) => x.component)),
    updates,
    url: null,
    source: 'aws-currentevents',
  };
}

/**
 * The services and regions an event names, each with its status now: every impacted service
 * by its own key (`ec2-me-central-1`, a global `route53`), else the event's own service.
 */
function eventComponents(e: Static<typeof CurrentEventSchema>) {
  const impacted = Object.entries(e.impacted_services ?? {});
  if (impacted.length > 0) {
    return impacted.map(([key, s]) => ({ component: awsComponent(key, s.service_name ?? key), status: awsComponentStatus(s.current ?? e.status) }));
  }
  return [{ component: awsComponent(e.service, e.service_name ?? e.service), status: awsComponentStatus(e.status) }];
}

// ---- legacy data.json --------------------------------------------------------------

const LegacyEventSchema = Type.Object({
  service: Type.String(),
  service_name: OptStr,
  summary: Type.String(),
  date: CodeSchema,
  status: CodeSchema,
  description: OptStr,
});

const LegacySchema = Type.Object({
  archive: Type.Array(LegacyEventSchema),
  current: Type.Array(LegacyEventSchema),
});

function mapLegacyEvent(e: Static<typeof LegacyEventSchema>, vendor: string, archived: boolean): IncidentRecord {
  const key = `${e.service}_${e.date}`;
  const startedAt = requireIso(`aws-currentevents: data.json event ${key} date`, epochSecondsToIso(e.date));
  // Archived events are over; a current one may already say [RESOLVED] in its summary.
  const resolved = archived || /^\s*\[RESOLVED\]/i.test(e.summary);
  const log = parseAwsLog(e.description ?? '', startedAt);
  const updates = newestFirst(
    log.map((l, i) => ({
      status: resolved && i === log.length - 1 ? 'resolved' : 'investigating',
      body: l.body,
      createdAt: l.createdAt,
    })),
  );
  const updatedAt = latestIso([updates[0]?.createdAt, startedAt]) ?? startedAt;
  return {
    id: recordId(vendor, key),
    vendor,
    title: stripResolved(e.summary),
    status: resolved ? 'resolved' : 'investigating',
    sourceStatus: String(e.status),
    impact: worstImpact(
      [awsImpact(e.status)].filter((i) => i !== 'none'),
      'minor',
    ),
    startedAt,
    updatedAt,
    resolvedAt: resolved ? updatedAt : null,
    components: [cloudComponentName(awsComponent(e.service, e.service_name ?? e.service))],
    updates,
    url: null,
    source: 'aws-currentevents',
  };
}

export const awsCurrentEventsAdapter = defineAdapter('aws-currentevents', (input: AdapterInput) => {
  const data = parseJsonBody('aws-currentevents', input.body, input.contentType);
  if (Array.isArray(data)) {
    const events = check('aws-currentevents', Type.Array(CurrentEventSchema), data);
    // The endpoint lists exactly the events that are open now, so a service it does not name
    // is operating normally by AWS's own account: components seen before stay listed as such.
    const named = events.map(eventComponents);
    const components = new CloudComponentList();
    for (const list of named) for (const { component, status } of list) components.add(component, status);
    return {
      incidents: events.map((e, i) => mapCurrentEvent(e, input.vendor, named[i]!)),
      incidentsAreCompleteUnresolvedSet: true,
      components: components.records(),
      componentsKeepUnlisted: true,
    };
  }
  if (typeof data === 'object' && data !== null && 'archive' in data) {
    const legacy = check('aws-currentevents', LegacySchema, data);
    const incidents = [
      ...legacy.current.map((e) => mapLegacyEvent(e, input.vendor, false)),
      ...legacy.archive.map((e) => mapLegacyEvent(e, input.vendor, true)),
    ];
    const components = new CloudComponentList();
    const legacyStatus = (e: Static<typeof LegacyEventSchema>, archived: boolean): ComponentStatus =>
      archived || /^\s*\[RESOLVED\]/i.test(e.summary) ? 'operational' : awsComponentStatus(e.status);
    for (const e of legacy.current) components.add(awsComponent(e.service, e.service_name ?? e.service), legacyStatus(e, false));
    for (const e of legacy.archive) components.add(awsComponent(e.service, e.service_name ?? e.service), legacyStatus(e, true));
    return { incidents, incidentsAreCompleteUnresolvedSet: true, components: components.records(), componentsKeepUnlisted: true };
  }
  throw new AdapterError('aws-currentevents: expected the currentevents array or the legacy {archive, current} object', { kind: 'unrecognised payload' });
});

// ---- legacy RSS ----------------------------------------------------------------------

const PREFIX_CODES: Record<string, string> = {
  'service is operating normally': '0',
  'informational message': '1',
  'performance issues': '2',
  'service disruption': '3',
};

/** Items of one event arrive minutes to hours apart; a longer silence starts a new event. */
const MAX_GAP_MS = 12 * 3600 * 1000;

interface AwsItem {
  serviceKey: string;
  epoch: string;
  at: string;
  phrase: string;
  code: string | null;
  title: string;
  closes: boolean;
  entry: FeedEntry;
}

function readItem(entry: FeedEntry): AwsItem {
  const fragment = /#([^#\s]+)_(\d{9,})\s*$/.exec(entry.id ?? '');
  const at = requireIso(`aws-rss: item ${entry.id ?? entry.title}`, firstIso(fragment ? epochSecondsToIso(fragment[2]) : null, entry.published, entry.updated));
  const colon = entry.title.indexOf(':');
  const phrase = colon > 0 ? entry.title.slice(0, colon).trim() : '';
  const code = PREFIX_CODES[phrase.toLowerCase()] ?? null;
  const rest = code !== null ? entry.title.slice(colon + 1) : entry.title;
  return {
    serviceKey: fragment?.[1] ?? 'unknown',
    epoch: fragment?.[2] ?? String(Math.floor(new Date(at).getTime() / 1000)),
    at,
    phrase: phrase || 'unknown',
    code,
    title: stripResolved(rest),
    closes: code === '0' || /\[RESOLVED\]/i.test(rest),
    entry,
  };
}

/**
 * Chains items into events: same service key, at most 12 h after the chain's last
 * item, and — once the chain has closed (operating normally / [RESOLVED]) — only
 * follow-ups carrying the same title (post-event summaries) join it.
 */
function groupAwsItems(items: AwsItem[]): AwsItem[][] {
  const chains: AwsItem[][] = [];
  const open = new Map<string, AwsItem[]>();
  for (const item of [...items].sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0))) {
    const chain = open.get(item.serviceKey);
    const last = chain?.[chain.length - 1];
    const closed = chain?.some((i) => i.closes) ?? false;
    if (chain && last && new Date(item.at).getTime() - new Date(last.at).getTime() <= MAX_GAP_MS && (!closed || item.title === last.title)) {
      chain.push(item);
    } else {
      const fresh = [item];
      chains.push(fresh);
      open.set(item.serviceKey, fresh);
    }
  }
  return chains;
}

function chainToIncident(chain: AwsItem[], vendor: string): IncidentRecord {
  const first = chain[0]!;
  const newest = chain[chain.length - 1]!;
  const closing = chain.find((i) => i.closes);
  const updates = newestFirst(chain.map((i) => ({ status: i.closes ? 'resolved' : 'investigating', body: htmlToText(i.entry.html), createdAt: i.at })));
  return {
    id: recordId(vendor, `${first.serviceKey}_${first.epoch}`),
    vendor,
    title: newest.title || first.title,
    status: closing ? 'resolved' : 'investigating',
    sourceStatus: newest.phrase,
    impact: worstImpact(
      chain.map((i) => awsImpact(i.code)).filter((i) => i !== 'none'),
      'minor',
    ),
    startedAt: first.at,
    updatedAt: newest.at,
    resolvedAt: closing ? closing.at : null,
    // The feed names a service by its key only (`ec2-us-east-1`): the key is the name, with its region tag.
    components: [cloudComponentName(awsComponent(first.serviceKey, null))],
    updates,
    url: newest.entry.link,
    source: 'aws-rss',
  };
}

export const awsRssAdapter = defineAdapter('aws-rss', (input: AdapterInput) => {
  const feed = parseFeedBody('aws-rss', input.body, input.contentType);
  const chains = groupAwsItems(feed.entries.map(readItem));
  // Newest event first, like the feed itself.
  const incidents = chains.map((c) => chainToIncident(c, input.vendor)).sort((a, b) => (a.startedAt < b.startedAt ? 1 : -1));
  return { incidents };
});
