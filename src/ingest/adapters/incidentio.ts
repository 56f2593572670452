// incident.io hosted status pages. Two JSON shapes come from the same pages:
//  - the widget data at `/proxy/<host>`: everything under `summary` (components,
//    affected_components, structure.items, ongoing_incidents, in_progress_maintenances,
//    scheduled_maintenances), and the flatter public widget API that puts the same
//    lists at the top level with `current_worst_impact` / `last_update_*` fields;
//  - a Statuspage-compatible `/api/v2/*.json` shim, handed to the Statuspage parser.
// No recorded widget payload exists (see fixtures SOURCES.md), so field names follow
// the published descriptions and unknown fields are tolerated.
import { Type, type Static } from '@sinclair/typebox';
import type { ComponentRecord, Impact, IncidentRecord, Indicator, MaintenanceRecord, RecordUpdate, SourceSnapshot } from '../../domain/records.ts';
import { AdapterError, defineAdapter, type AdapterInput } from './adapter.ts';
import { parseJsonBody } from './body.ts';
import { orderComponents, type RawComponent, type RawGroup } from './components.ts';
import {
  componentStatusFrom,
  impactOfComponentStatus,
  incidentStatusFrom,
  indicatorFromComponents,
  INDICATOR_DESCRIPTIONS,
  joinUrl,
  maintenanceStatusFrom,
  newestFirst,
  ownWord,
  originOf,
  recordId,
  worstImpact,
} from './mapping.ts';
import { isStatuspageShape, parseStatuspagePayload } from './statuspage-v2.ts';
import { collapseWhitespace, htmlToText } from './text.ts';
import { earliestIso, firstIso, isoOrNull, latestIso, requireIso } from './time.ts';
import { check, Nullable, OptStr } from './validate.ts';

const SOURCE = 'incidentio';

const ComponentRefSchema = Type.Object({
  id: OptStr,
  component_id: OptStr,
  name: OptStr,
  status: OptStr,
  current_status: OptStr,
  group_name: OptStr,
  hidden: Type.Optional(Nullable(Type.Boolean())),
});

const UpdateSchema = Type.Object({
  message: Type.Optional(Type.Unknown()),
  published_at: OptStr,
  status: OptStr,
  to_status: OptStr,
});

const EventSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  status: OptStr,
  url: OptStr,
  published_at: OptStr,
  last_update_at: OptStr,
  last_update_message: OptStr,
  current_worst_impact: OptStr,
  affected_components: Type.Optional(Nullable(Type.Array(ComponentRefSchema))),
  component_impacts: Type.Optional(Nullable(Type.Array(ComponentRefSchema))),
  updates: Type.Optional(Nullable(Type.Array(UpdateSchema))),
  // maintenance windows, under the names both widget shapes use
  starts_at: OptStr,
  started_at: OptStr,
  scheduled_start_at: OptStr,
  ends_at: OptStr,
  scheduled_end_at: OptStr,
});

const StructureItemSchema = Type.Object({
  group: Type.Optional(
    Nullable(
      Type.Object({
        id: OptStr,
        name: Type.String(),
        hidden: Type.Optional(Nullable(Type.Boolean())),
        components: Type.Optional(Nullable(Type.Array(ComponentRefSchema))),
      }),
    ),
  ),
  component: Type.Optional(Nullable(ComponentRefSchema)),
});

const WidgetSchema = Type.Object({
  page_url: OptStr,
  public_url: OptStr,
  components: Type.Optional(Nullable(Type.Array(ComponentRefSchema))),
  affected_components: Type.Optional(Nullable(Type.Array(ComponentRefSchema))),
  structure: Type.Optional(Nullable(Type.Object({ items: Type.Array(StructureItemSchema) }))),
  ongoing_incidents: Type.Optional(Nullable(Type.Array(EventSchema))),
  in_progress_maintenances: Type.Optional(Nullable(Type.Array(EventSchema))),
  scheduled_maintenances: Type.Optional(Nullable(Type.Array(EventSchema))),
});

type Widget = Static<typeof WidgetSchema>;
type RawEvent = Static<typeof EventSchema>;
type ComponentRef = Static<typeof ComponentRefSchema>;

const WIDGET_KEYS = ['ongoing_incidents', 'in_progress_maintenances', 'scheduled_maintenances', 'structure', 'affected_components'];

function widgetRoot(data: unknown): Record<string, unknown> | null {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return null;
  const obj = data as Record<string, unknown>;
  const inner = obj.summary;
  const root = typeof inner === 'object' && inner !== null && !Array.isArray(inner) ? (inner as Record<string, unknown>) : obj;
  return WIDGET_KEYS.some((k) => k in root) ? root : null;
}

/** Plain text of an update message: a string, or incident.io's rich-text document tree. */
function messageText(message: unknown): string {
  return collapseWhitespace(rawText(message));
}

function rawText(message: unknown): string {
  if (typeof message === 'string') return ` ${htmlToText(message)} `;
  if (typeof message !== 'object' || message === null) return '';
  const node = message as { text?: unknown; text_node?: unknown; content?: unknown; type?: unknown };
  if (node.text_node !== undefined) return rawText(node.text_node);
  // Text runs keep their own spacing: "looking into " + "slow responses".
  if (typeof node.text === 'string') return node.text;
  // Leaf nodes without text (hardBreak, horizontalRule) still separate words.
  if (!Array.isArray(node.content)) return ' ';
  const inner = node.content.map((child) => rawText(child)).join('');
  // Block nodes (paragraphs, list items) end with a break so adjacent blocks don't merge.
  return node.type === 'text' || node.type === undefined ? inner : `${inner} `;
}

const refId = (c: ComponentRef) => c.component_id ?? c.id ?? null;
const refStatus = (c: ComponentRef) => componentStatusFrom(c.status ?? c.current_status);

/** Component id → name, from the component list and the structure tree. */
function componentNames(w: Widget): Map<string, string> {
  const names = new Map<string, string>();
  const structured = (w.structure?.items ?? []).flatMap((i) => [...(i.group?.components ?? []), ...(i.component ? [i.component] : [])]);
  for (const c of [...(w.components ?? []), ...structured]) {
    const id = refId(c);
    if (id && c.name && !names.has(id)) names.set(id, c.name);
  }
  return names;
}

function mapComponents(w: Widget, names: Map<string, string>): ComponentRecord[] | undefined {
  const live = new Map<string, string>();
  for (const a of w.affected_components ?? []) {
    const id = refId(a);
    if (id) live.set(id, a.status ?? a.current_status ?? 'operational');
  }
  const leaf = (c: ComponentRef, position: number): RawComponent | null => {
    const id = refId(c);
    const name = c.name ?? (id ? names.get(id) : undefined);
    if (!id || !name || c.hidden) return null;
    return { id, name, status: componentStatusFrom(live.get(id) ?? 'operational'), position };
  };
  if (w.structure) {
    const ungrouped: RawComponent[] = [];
    const groups: RawGroup[] = [];
    w.structure.items.forEach((item, index) => {
      if (item.group && !item.group.hidden) {
        const children = (item.group.components ?? []).map((c, i) => leaf(c, i)).filter((c) => c !== null);
        groups.push({ id: item.group.id ?? item.group.name, name: item.group.name, position: index, children });
      } else if (item.component) {
        const c = leaf(item.component, index);
        if (c) ungrouped.push(c);
      }
    });
    return orderComponents(ungrouped, groups);
  }
  if (w.components) {
    return orderComponents(
      w.components.map((c, i) => leaf(c, i)).filter((c) => c !== null),
      [],
    );
  }
  return undefined;
}

/**
 * Each update keeps the phase it was written in. An update that names no status of its own
 * did not change the phase, so it was written in the phase of the update before it, or in
 * the opening phase when none came before; the event's current status belongs to the
 * newest update that set it, not to every update (docs/mappings.md "incident.io").
 */
function eventUpdates(e: RawEvent, status: (word: string | null | undefined) => string, openingWord: string, fallbackAt: string | null): RecordUpdate[] {
  const dated = (e.updates ?? []).flatMap((u) => {
    const createdAt = isoOrNull(u.published_at) ?? fallbackAt;
    return createdAt ? [{ u, createdAt }] : [];
  });
  let phase = openingWord;
  const oldestFirst = [...dated].sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0));
  const updates = oldestFirst.map(({ u, createdAt }) => {
    const own = u.to_status ?? u.status;
    if (own) phase = own;
    return { status: status(phase), ...ownWord(own), body: messageText(u.message), createdAt };
  });
  const lastAt = isoOrNull(e.last_update_at);
  if (updates.length === 0 && e.last_update_message && lastAt) {
    updates.push({ status: status(e.status), ...ownWord(e.status), body: htmlToText(e.last_update_message), createdAt: lastAt });
  }
  return newestFirst(updates);
}

function eventComponents(e: RawEvent, names: Map<string, string>): string[] {
  const out: string[] = [];
  for (const c of [...(e.affected_components ?? []), ...(e.component_impacts ?? [])]) {
    const id = refId(c);
    const name = c.name ?? (id ? names.get(id) : undefined);
    if (name && !out.includes(name)) out.push(name);
  }
  return out;
}

function eventUrl(e: RawEvent, origin: string | null): string | null {
  if (e.url) return e.url;
  return origin ? joinUrl(origin, `incidents/${e.id}`) : null;
}

function mapIncident(e: RawEvent, vendor: string, origin: string | null, names: Map<string, string>): IncidentRecord {
  const updates = eventUpdates(e, (w) => incidentStatusFrom(w), 'investigating', isoOrNull(e.last_update_at));
  const startedAt = requireIso(
    `${SOURCE}: incident ${e.id} published_at`,
    firstIso(isoOrNull(e.published_at), earliestIso(updates.map((u) => u.createdAt)), isoOrNull(e.last_update_at)),
  );
  const status = incidentStatusFrom(e.status);
  const updatedAt = latestIso([isoOrNull(e.last_update_at), updates[0]?.createdAt, startedAt]) ?? startedAt;
  const impacts: Impact[] = [
    ...(e.current_worst_impact ? [impactOfComponentStatus(componentStatusFrom(e.current_worst_impact))] : []),
    ...[...(e.component_impacts ?? []), ...(e.affected_components ?? [])].map((c) => impactOfComponentStatus(refStatus(c))),
  ];
  return {
    id: recordId(vendor, e.id),
    vendor,
    title: e.name,
    status,
    sourceStatus: e.status ?? 'investigating',
    // An ongoing incident without any component impact still affects someone.
    impact: worstImpact(
      impacts.filter((i) => i !== 'none'),
      'minor',
    ),
    startedAt,
    updatedAt,
    resolvedAt: status === 'resolved' ? updatedAt : null,
    components: eventComponents(e, names),
    updates,
    url: eventUrl(e, origin),
    source: SOURCE,
  };
}

function mapMaintenance(e: RawEvent, list: 'in_progress' | 'scheduled', vendor: string, origin: string | null, names: Map<string, string>): MaintenanceRecord {
  const fallbackWord = list === 'in_progress' ? 'maintenance_in_progress' : 'maintenance_scheduled';
  const status = maintenanceStatusFrom(e.status ?? fallbackWord);
  const scheduledFor = requireIso(`${SOURCE}: maintenance ${e.id} starts_at`, e.starts_at ?? e.scheduled_start_at ?? e.started_at ?? e.published_at);
  const updates = eventUpdates(e, (w) => maintenanceStatusFrom(w ?? fallbackWord), 'maintenance_scheduled', isoOrNull(e.last_update_at));
  const updatedAt = latestIso([isoOrNull(e.last_update_at), updates[0]?.createdAt]);
  return {
    id: recordId(vendor, e.id),
    vendor,
    title: e.name,
    status,
    sourceStatus: e.status ?? fallbackWord,
    impact: 'none',
    scheduledFor,
    scheduledUntil: isoOrNull(e.ends_at ?? e.scheduled_end_at),
    startedAt: status === 'scheduled' ? null : (isoOrNull(e.started_at) ?? scheduledFor),
    completedAt: status === 'completed' ? (updatedAt ?? scheduledFor) : null,
    components: eventComponents(e, names),
    updates,
    url: eventUrl(e, origin),
    source: SOURCE,
  };
}

const INDICATOR_RANK: Record<Indicator, number> = {
  unknown: -1,
  operational: 0,
  maintenance: 1,
  degraded: 2,
  partial_outage: 3,
  major_outage: 4,
};
const INDICATOR_OF_IMPACT: Record<Impact, Indicator> = {
  none: 'operational',
  minor: 'degraded',
  major: 'partial_outage',
  critical: 'major_outage',
};

function pageIndicator(components: ComponentRecord[] | undefined, incidents: IncidentRecord[], maintenances: MaintenanceRecord[]): Indicator {
  const candidates: Indicator[] = incidents.map((i) => INDICATOR_OF_IMPACT[i.impact]);
  if (components && components.length > 0) candidates.push(indicatorFromComponents(components.map((c) => c.status)));
  if (maintenances.some((m) => m.status === 'in_progress')) candidates.push('maintenance');
  return candidates.reduce<Indicator>((a, b) => (INDICATOR_RANK[b] > INDICATOR_RANK[a] ? b : a), 'operational');
}

function parseWidget(root: Record<string, unknown>, input: AdapterInput): SourceSnapshot {
  const w = check(SOURCE, WidgetSchema, root);
  const origin = originOf(w.page_url ?? w.public_url) ?? originOf(input.url);
  const names = componentNames(w);
  const components = mapComponents(w, names);
  const incidents = (w.ongoing_incidents ?? []).map((e) => mapIncident(e, input.vendor, origin, names));
  const maintenances = [
    ...(w.in_progress_maintenances ?? []).map((e) => mapMaintenance(e, 'in_progress', input.vendor, origin, names)),
    ...(w.scheduled_maintenances ?? []).map((e) => mapMaintenance(e, 'scheduled', input.vendor, origin, names)),
  ];
  const indicator = pageIndicator(components, incidents, maintenances);
  return {
    status: { indicator, description: INDICATOR_DESCRIPTIONS[indicator] },
    ...(components ? { components } : {}),
    incidents,
    maintenances,
    // ongoing_incidents is, by definition, every open incident on the page.
    incidentsAreCompleteUnresolvedSet: true,
  };
}

export const incidentioAdapter = defineAdapter('incidentio', (input: AdapterInput) => {
  const data = parseJsonBody(SOURCE, input.body, input.contentType);
  const root = widgetRoot(data);
  if (root) return parseWidget(root, input);
  if (isStatuspageShape(data)) {
    const snapshot = parseStatuspagePayload(data, { vendor: input.vendor, url: input.url, source: SOURCE });
    return snapshot;
  }
  throw new AdapterError(
    `${SOURCE}: unrecognised payload (expected the /proxy widget with summary.ongoing_incidents, or a Statuspage-compatible page object)`,
    { kind: 'unrecognised payload' },
  );
});
