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
const AffectedSchema = Type.Array(
  Type.Object({ status_page_resource_id: Type.Union([Type.String(), Type.Number()]), status: Type.String() }),
);

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
export function betterstackComponentStatus(word: string | null | undefined): ComponentStatus {
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
      return components.length > 0 && components.some((c) => c.status !== 'major_outage')
        ? 'partial_outage'
        : 'major_outage';
    default:
      return components.length > 0 ? indicatorFromComponents(components.map((c) => c.status)) : 'unknown';
  }
}

function attrs<T extends TSchema>(item: Included, schema: T): Static<T> {
  return check(`${SOURCE}: ${item.type} ${item.id}`, schema, item.attributes);
}

export const betterstackAdapter = defineAdapter('betterstack', (input: AdapterInput) => {
  const doc = check(SOURCE, DocumentSchema, parseJsonBody(SOURCE, input.body, input.contentType));
  const included = doc.included ?? [];
  const ofType = (type: string) => included.filter((i) => i.type === type);
  const byId = new Map(included.map((i) => [`${i.type}/${i.id}`, i]));

  // Components: resources grouped by section, sections in page order.
  const groups = new Map<string, RawGroup>();
  for (const s of ofType('status_page_section')) {
    const a = attrs(s, SectionAttrs);
    groups.set(s.id, { id: s.id, name: a.name ?? '', position: a.position ?? null, children: [] });
  }
  const ungrouped: RawComponent[] = [];
  const resourceNames = new Map<string, string>();
  for (const r of ofType('status_page_resource')) {
    const a = attrs(r, ResourceAttrs);
    resourceNames.set(r.id, a.public_name);
    const leaf = { id: r.id, name: a.public_name, status: betterstackComponentStatus(a.status), position: a.position ?? null };
    const group = a.status_page_section_id != null ? groups.get(String(a.status_page_section_id)) : undefined;
    if (group) group.children.push(leaf);
    else ungrouped.push(leaf);
  }
  const components = orderComponents(ungrouped, [...groups.values()]);

  const incidents: IncidentRecord[] = [];
  const maintenances: MaintenanceRecord[] = [];
  for (const report of ofType('status_report')) {
    const a = attrs(report, ReportAttrs);
    const where = `${SOURCE}: status_report ${report.id}`;
    const relations = check(where, ReportRelations, report.relationships ?? {});
    const rawUpdates = (relations.status_updates?.data ?? [])
      .map((ref) => byId.get(`${ref.type}/${ref.id}`))
      .filter((u) => u !== undefined)
      .map((u) => attrs(u, UpdateAttrs));
    const startedAt = requireIso(`${where} starts_at`, a.starts_at);
    const state = (a.aggregate_state ?? '').toLowerCase();
    const resolved = state === 'resolved';
    const affected = [...(a.affected_resources ?? []), ...rawUpdates.flatMap((u) => u.affected_resources ?? [])];
    const componentNames = [...new Set(affected.map((r) => resourceNames.get(String(r.status_page_resource_id))))].filter(
      (n) => n !== undefined,
    );
    const updateTimes = rawUpdates.map((u) => isoOrNull(u.published_at));
    const lastUpdate = latestIso(updateTimes);
    const updatedAt = latestIso([lastUpdate, startedAt]) ?? startedAt;
    const text = (u: Static<typeof UpdateAttrs>) => htmlToText(u.message);

    if (a.report_type === 'maintenance') {
      const status: MaintenanceStatus = resolved
        ? 'completed'
        : input.now.toISOString() < startedAt
          ? 'scheduled'
          : 'in_progress';
      const completedAt = resolved ? (isoOrNull(a.ends_at) ?? lastUpdate ?? startedAt) : null;
      const updates: RecordUpdate[] = newestFirst(
        rawUpdates.flatMap((u) => {
          const at = isoOrNull(u.published_at);
          if (!at) return [];
          // An update never reports more progress than the maintenance itself has made.
          const s: MaintenanceStatus =
            completedAt && at >= completedAt ? 'completed' : status === 'scheduled' || at < startedAt ? 'scheduled' : 'in_progress';
          return [{ status: s, body: text(u), createdAt: at }];
        }),
      );
      maintenances.push({
        id: recordId(input.vendor, report.id),
        vendor: input.vendor,
        title: a.title,
        status,
        sourceStatus: a.aggregate_state ?? '',
        impact: 'none',
        scheduledFor: startedAt,
        scheduledUntil: isoOrNull(a.ends_at),
        startedAt: status === 'scheduled' ? null : startedAt,
        completedAt,
        components: componentNames,
        updates,
        url: null,
        source: SOURCE,
      });
      continue;
    }

    // Incident: Better Stack has no investigating/monitoring phases, only open or resolved.
    const resolvedAt = resolved ? (isoOrNull(a.ends_at) ?? lastUpdate ?? updatedAt) : null;
    const updates: RecordUpdate[] = newestFirst(
      rawUpdates.flatMap((u) => {
        const at = isoOrNull(u.published_at);
        if (!at) return [];
        const states = (u.affected_resources ?? []).map((r) => r.status.toLowerCase());
        const s = states.length > 0 && states.every((x) => x === 'resolved') ? 'resolved' : 'investigating';
        return [{ status: s, body: text(u), createdAt: at }];
      }),
    );
    incidents.push({
      id: recordId(input.vendor, report.id),
      vendor: input.vendor,
      title: a.title,
      status: resolved ? 'resolved' : 'investigating',
      sourceStatus: a.aggregate_state ?? '',
      impact: worstImpact(
        affected.map((r) => IMPACT_OF_STATE[r.status.toLowerCase()] ?? 'none').filter((i) => i !== 'none'),
        'minor',
      ),
      startedAt,
      updatedAt,
      resolvedAt,
      components: componentNames,
      updates,
      url: null,
      source: SOURCE,
    });
  }

  const indicator = pageIndicator(doc.data.attributes.aggregate_state, components);
  const snapshot: SourceSnapshot = {
    status: { indicator, description: INDICATOR_DESCRIPTIONS[indicator] },
    components,
    incidents,
    maintenances,
  };
  return snapshot;
});
