// Better Stack (Better Uptime) status page `index.json`, a JSON:API document:
// data = the page (aggregate_state), included[] = sections, resources (components),
// status_reports (incidents and maintenances) and their status_updates.
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import type {
  ComponentRecord,
  ComponentStatus,
  Impact,
  IncidentRecord,
  Indicator,
  MaintenanceRecord,
  MaintenanceStatus,
  RecordUpdate,
  SourceSnapshot,
} from '../../domain/records.ts';
import { defineAdapter, type AdapterInput } from './adapter.ts';
import { parseJsonBody } from './body.ts';
import { orderComponents, type RawComponent, type RawGroup } from './components.ts';
import { indicatorFromComponents, INDICATOR_DESCRIPTIONS, newestFirst, recordId, worstImpact } from './mapping.ts';
import { htmlToText } from './text.ts';
import { isoOrNull, latestIso, requireIso } from './time.ts';
import { check, Nullable, OptStr } from './validate.ts';

const SOURCE = 'betterstack';

const Ref = Type.Object({ id: Type.String(), type: Type.String() });
const AffectedSchema = Type.Array(Type.Object({ status_page_resource_id: Type.Union([Type.String(), Type.Number()]), status: Type.String() }));

const IncludedSchema = Type.Object({
  id: Type.String(),
  type: Type.String(),
  attributes: Type.Record(Type.String(), Type.Unknown()),
  relationships: Type.Optional(Nullable(Type.Record(Type.String(), Type.Unknown()))),
});

const DocumentSchema = Type.Object({
  data: Type.Object({
    type: Type.Literal('status_page'),
    attributes: Type.Object({ aggregate_state: Type.String(), company_name: OptStr }),
  }),
  included: Type.Optional(Type.Array(IncludedSchema)),
});

const SectionAttrs = Type.Object({ name: OptStr, position: Type.Optional(Nullable(Type.Number())) });
const ResourceAttrs = Type.Object({
  public_name: Type.String(),
  status: OptStr,
  position: Type.Optional(Nullable(Type.Number())),
  status_page_section_id: Type.Optional(Nullable(Type.Union([Type.String(), Type.Number()]))),
});
const ReportAttrs = Type.Object({
  title: Type.String(),
  report_type: OptStr,
  starts_at: Type.String(),
  ends_at: OptStr,
  aggregate_state: OptStr,
  affected_resources: Type.Optional(Nullable(AffectedSchema)),
});
const UpdateAttrs = Type.Object({
  message: OptStr,
  published_at: Type.String(),
  affected_resources: Type.Optional(Nullable(AffectedSchema)),
});
const ReportRelations = Type.Object({
  status_updates: Type.Optional(Type.Object({ data: Type.Array(Ref) })),
});

type Included = Static<typeof IncludedSchema>;

/** Resource status words: operational, degraded, downtime, maintenance. */
function betterstackComponentStatus(word: string | null | undefined): ComponentStatus {
  switch ((word ?? '').toLowerCase()) {
    case 'operational':
      return 'operational';
    case 'degraded':
      return 'degraded_performance';
    case 'downtime':
      return 'major_outage';
    case 'maintenance':
      return 'under_maintenance';
    default:
      return 'unknown';
  }
}

const IMPACT_OF_STATE: Record<string, Impact> = { downtime: 'major', degraded: 'minor' };

/**
 * Page aggregate_state. `downtime` is a full outage only when every resource is down;
 * one monitor down among several is a partial outage.
 */
function pageIndicator(state: string, components: ComponentRecord[]): Indicator {
  switch (state.toLowerCase()) {
    case 'operational':
      return 'operational';
    case 'degraded':
      return 'degraded';
    case 'maintenance':
      return 'maintenance';
    case 'downtime':
      return components.length > 0 && components.some((c) => c.status !== 'major_outage') ? 'partial_outage' : 'major_outage';
    default:
      return components.length > 0 ? indicatorFromComponents(components.map((c) => c.status)) : 'unknown';
  }
}

function attrs<T extends TSchema>(item: Included, schema: T): Static<T> {
  return check(`${SOURCE}: ${item.type} ${item.id}`, schema, item.attributes);
}

/** Resources grouped by section, sections in page order; also id → name for reports. */
function readComponents(included: Included[]): { components: ComponentRecord[]; names: Map<string, string> } {
  const groups = new Map<string, RawGroup>();
  for (const s of included.filter((i) => i.type === 'status_page_section')) {
    const a = attrs(s, SectionAttrs);
    groups.set(s.id, { id: s.id, name: a.name ?? '', position: a.position ?? null, children: [] });
  }
  const ungrouped: RawComponent[] = [];
  const names = new Map<string, string>();
  for (const r of included.filter((i) => i.type === 'status_page_resource')) {
    const a = attrs(r, ResourceAttrs);
    names.set(r.id, a.public_name);
    const leaf = { id: r.id, name: a.public_name, status: betterstackComponentStatus(a.status), position: a.position ?? null };
    const group = a.status_page_section_id != null ? groups.get(String(a.status_page_section_id)) : undefined;
    if (group) group.children.push(leaf);
    else ungrouped.push(leaf);
  }
  return { components: orderComponents(ungrouped, [...groups.values()]), names };
}

/** What incidents and maintenances both need from a status_report. */
interface Report {
  id: string;
  attrs: Static<typeof ReportAttrs>;
  updates: { at: string; body: string; states: string[] }[];
  startedAt: string;
  lastUpdate: string | null;
  resolved: boolean;
  affected: { status_page_resource_id: string | number; status: string }[];
  componentNames: string[];
}

function readReport(report: Included, byId: Map<string, Included>, names: Map<string, string>): Report {
  const a = attrs(report, ReportAttrs);
  const where = `${SOURCE}: status_report ${report.id}`;
  const relations = check(where, ReportRelations, report.relationships ?? {});
  const rawUpdates = (relations.status_updates?.data ?? [])
    .map((ref) => byId.get(`${ref.type}/${ref.id}`))
    .filter((u) => u !== undefined)
    .map((u) => attrs(u, UpdateAttrs));
  const affected = [...(a.affected_resources ?? []), ...rawUpdates.flatMap((u) => u.affected_resources ?? [])];
  const updates = rawUpdates.flatMap((u) => {
    const at = isoOrNull(u.published_at);
    const states = (u.affected_resources ?? []).map((r) => r.status.toLowerCase());
    return at ? [{ at, body: htmlToText(u.message), states }] : [];
  });
  return {
    id: report.id,
    attrs: a,
    updates,
    startedAt: requireIso(`${where} starts_at`, a.starts_at),
    lastUpdate: latestIso(updates.map((u) => u.at)),
    resolved: (a.aggregate_state ?? '').toLowerCase() === 'resolved',
    affected,
    componentNames: [...new Set(affected.map((r) => names.get(String(r.status_page_resource_id))))].filter((n) => n !== undefined),
  };
}

function toMaintenance(r: Report, vendor: string, now: Date): MaintenanceRecord {
  const status: MaintenanceStatus = r.resolved ? 'completed' : now.toISOString() < r.startedAt ? 'scheduled' : 'in_progress';
  const completedAt = r.resolved ? (isoOrNull(r.attrs.ends_at) ?? r.lastUpdate ?? r.startedAt) : null;
  // An update never reports more progress than the maintenance itself has made.
  const updateStatus = (at: string): MaintenanceStatus =>
    completedAt && at >= completedAt ? 'completed' : status === 'scheduled' || at < r.startedAt ? 'scheduled' : 'in_progress';
  return {
    id: recordId(vendor, r.id),
    vendor,
    title: r.attrs.title,
    status,
    sourceStatus: r.attrs.aggregate_state ?? '',
    impact: 'none',
    scheduledFor: r.startedAt,
    scheduledUntil: isoOrNull(r.attrs.ends_at),
    startedAt: status === 'scheduled' ? null : r.startedAt,
    completedAt,
    components: r.componentNames,
    updates: newestFirst(r.updates.map((u) => ({ status: updateStatus(u.at), body: u.body, createdAt: u.at }))),
    url: null,
    source: SOURCE,
  };
}

/** Better Stack has no investigating/monitoring phases, only open or resolved. */
function toIncident(r: Report, vendor: string): IncidentRecord {
  const updatedAt = latestIso([r.lastUpdate, r.startedAt]) ?? r.startedAt;
  const updates: RecordUpdate[] = r.updates.map((u) => ({
    status: u.states.length > 0 && u.states.every((x) => x === 'resolved') ? 'resolved' : 'investigating',
    body: u.body,
    createdAt: u.at,
  }));
  return {
    id: recordId(vendor, r.id),
    vendor,
    title: r.attrs.title,
    status: r.resolved ? 'resolved' : 'investigating',
    sourceStatus: r.attrs.aggregate_state ?? '',
    impact: worstImpact(
      r.affected.map((x) => IMPACT_OF_STATE[x.status.toLowerCase()] ?? 'none').filter((i) => i !== 'none'),
      'minor',
    ),
    startedAt: r.startedAt,
    updatedAt,
    resolvedAt: r.resolved ? (isoOrNull(r.attrs.ends_at) ?? r.lastUpdate ?? updatedAt) : null,
    components: r.componentNames,
    updates: newestFirst(updates),
    url: null,
    source: SOURCE,
  };
}

export const betterstackAdapter = defineAdapter('betterstack', (input: AdapterInput): SourceSnapshot => {
  const doc = check(SOURCE, DocumentSchema, parseJsonBody(SOURCE, input.body, input.contentType));
  const included = doc.included ?? [];
  const byId = new Map(included.map((i) => [`${i.type}/${i.id}`, i]));
  const { components, names } = readComponents(included);
  const reports = included.filter((i) => i.type === 'status_report').map((r) => readReport(r, byId, names));
  const indicator = pageIndicator(doc.data.attributes.aggregate_state, components);
  return {
    status: { indicator, description: INDICATOR_DESCRIPTIONS[indicator] },
    components,
    incidents: reports.filter((r) => r.attrs.report_type !== 'maintenance').map((r) => toIncident(r, input.vendor)),
    maintenances: reports.filter((r) => r.attrs.report_type === 'maintenance').map((r) => toMaintenance(r, input.vendor, input.now)),
  };
});
