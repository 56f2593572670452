// sorry™ status pages' public JSON on the page's own host (docs/mappings.md "sorry™"):
//  - `/api/v1/` or `/api/v1/status` → `{page: {name, state, state_text, updated_at, links}}`,
//    page state operational | degraded | maintenance;
//  - `/api/v1/components` → `{components: [{id, name, state, parent_id}], meta}`,
//    state operational | degraded | partially-degraded (an under-maintenance word is tolerated);
//  - `/api/v1/notices` → `{notices: [{id, type: planned|unplanned, state, subject, url, began_at,
//    begins_at, ends_at, ended_at, updated_at, latest_update{content}}], meta}`.
// The body's top-level key says which one arrived, so the same adapter reads all three.
import { Type, type Static } from '@sinclair/typebox';
import type { ComponentStatus, IncidentRecord, IncidentStatus, Indicator, MaintenanceRecord, MaintenanceStatus, SourceSnapshot } from '../../domain/records.ts';
import { AdapterError, defineAdapter, type AdapterInput } from './adapter.ts';
import { parseJsonBody } from './body.ts';
import { orderComponents, type RawComponent, type RawGroup } from './components.ts';
import { INDICATOR_DESCRIPTIONS, recordId } from './mapping.ts';
import { htmlToText } from './text.ts';
import { firstIso, isoOrNull, latestIso, requireIso } from './time.ts';
import { check, Nullable, OptStr } from './validate.ts';

const SOURCE = 'sorry';

const Id = Type.Union([Type.String(), Type.Number()]);

const PageSchema = Type.Object({ page: Type.Object({ name: OptStr, state: Type.String(), state_text: OptStr }) });

const ComponentsSchema = Type.Object({
  components: Type.Array(
    Type.Object({ id: Id, name: Type.String(), state: OptStr, parent_id: Type.Optional(Nullable(Id)), position: Type.Optional(Nullable(Type.Number())) }),
  ),
});

const NoticeSchema = Type.Object({
  id: Id,
  type: Type.String(),
  state: Type.String(),
  subject: Type.String(),
  url: OptStr,
  began_at: OptStr,
  begins_at: OptStr,
  ends_at: OptStr,
  ended_at: OptStr,
  updated_at: OptStr,
  synopsis: OptStr,
  latest_update: Type.Optional(Nullable(Type.Object({ content: OptStr, created_at: OptStr }))),
  components: Type.Optional(Nullable(Type.Array(Type.Object({ name: OptStr })))),
});

const NoticesSchema = Type.Object({ notices: Type.Array(NoticeSchema) });

type RawNotice = Static<typeof NoticeSchema>;

const norm = (w: string | null | undefined) =>
  (w ?? '')
    .trim()
    .toLowerCase()
    .replace(/[\s_]+/g, '-');

function sorryPageIndicator(state: string): Indicator {
  switch (norm(state)) {
    case 'operational':
      return 'operational';
    case 'degraded':
    case 'partially-degraded':
      return 'degraded';
    case 'maintenance':
    case 'under-maintenance':
      return 'maintenance';
    default:
      return 'unknown';
  }
}

/** `degraded` is the stronger word: `partially-degraded` comes from a linked parent or child. */
function sorryComponentStatus(state: string | null | undefined): ComponentStatus {
  switch (norm(state)) {
    case 'operational':
      return 'operational';
    case 'degraded':
      return 'partial_outage';
    case 'partially-degraded':
      return 'degraded_performance';
    case 'maintenance':
    case 'under-maintenance':
      return 'under_maintenance';
    default:
      return 'unknown';
  }
}

function sorryIncidentStatus(state: string): IncidentStatus {
  switch (norm(state)) {
    case 'recovering':
      return 'monitoring';
    case 'resolved':
    case 'false-alarm':
      return 'resolved';
    default:
      return 'investigating';
  }
}

function sorryMaintenanceStatus(state: string): MaintenanceStatus {
  switch (norm(state)) {
    case 'underway':
      return 'in_progress';
    case 'complete':
    case 'completed':
    case 'cancelled':
      return 'completed';
    default:
      return 'scheduled';
  }
}

function noticeUpdates(n: RawNotice, status: string) {
  const body = htmlToText(n.latest_update?.content ?? n.synopsis);
  const at = firstIso(isoOrNull(n.latest_update?.created_at), isoOrNull(n.updated_at));
  return body && at ? [{ status, body, createdAt: at }] : [];
}

const componentNames = (n: RawNotice) => [...new Set((n.components ?? []).map((c) => c.name).filter((x): x is string => !!x))];

function toIncident(n: RawNotice, vendor: string): IncidentRecord {
  const status = sorryIncidentStatus(n.state);
  const startedAt = requireIso(`${SOURCE}: notice ${n.id} began_at`, firstIso(isoOrNull(n.began_at), isoOrNull(n.updated_at)));
  const updatedAt = latestIso([isoOrNull(n.updated_at), isoOrNull(n.ended_at), startedAt]) ?? startedAt;
  return {
    id: recordId(vendor, n.id),
    vendor,
    title: n.subject,
    status,
    sourceStatus: n.state,
    impact: status === 'resolved' && norm(n.state) === 'false-alarm' ? 'none' : 'minor',
    startedAt,
    updatedAt,
    resolvedAt: status === 'resolved' ? (isoOrNull(n.ended_at) ?? updatedAt) : null,
    components: componentNames(n),
    updates: noticeUpdates(n, status),
    url: n.url ?? null,
    source: SOURCE,
  };
}

function toMaintenance(n: RawNotice, vendor: string): MaintenanceRecord {
  const status = sorryMaintenanceStatus(n.state);
  const start = requireIso(`${SOURCE}: notice ${n.id} begins_at`, firstIso(isoOrNull(n.begins_at), isoOrNull(n.began_at)));
  return {
    id: recordId(vendor, n.id),
    vendor,
    title: n.subject,
    status,
    sourceStatus: n.state,
    impact: 'none',
    scheduledFor: start,
    scheduledUntil: isoOrNull(n.ends_at),
    startedAt: status === 'scheduled' ? null : (isoOrNull(n.began_at) ?? start),
    completedAt: status === 'completed' ? (isoOrNull(n.ended_at) ?? isoOrNull(n.ends_at) ?? isoOrNull(n.updated_at)) : null,
    components: componentNames(n),
    updates: noticeUpdates(n, status),
    url: n.url ?? null,
    source: SOURCE,
  };
}

export const sorryAdapter = defineAdapter('sorry', (input: AdapterInput): SourceSnapshot => {
  const data = parseJsonBody(SOURCE, input.body, input.contentType);
  const keys = typeof data === 'object' && data !== null && !Array.isArray(data) ? Object.keys(data) : [];
  if (keys.includes('notices')) {
    const { notices } = check(SOURCE, NoticesSchema, data);
    return {
      incidents: notices.filter((n) => norm(n.type) !== 'planned').map((n) => toIncident(n, input.vendor)),
      maintenances: notices.filter((n) => norm(n.type) === 'planned').map((n) => toMaintenance(n, input.vendor)),
    };
  }
  if (keys.includes('components')) {
    const { components } = check(SOURCE, ComponentsSchema, data);
    const groups = new Map<string, RawGroup>();
    const parents = new Set(
      components
        .map((c) => c.parent_id)
        .filter((p) => p !== null && p !== undefined)
        .map(String),
    );
    components.forEach((c, i) => {
      if (parents.has(String(c.id))) groups.set(String(c.id), { id: String(c.id), name: c.name, position: c.position ?? i, children: [] });
    });
    const ungrouped: RawComponent[] = [];
    components.forEach((c, i) => {
      if (groups.has(String(c.id))) return;
      const leaf = { id: String(c.id), name: c.name, status: sorryComponentStatus(c.state), position: c.position ?? i };
      const group = c.parent_id !== null && c.parent_id !== undefined ? groups.get(String(c.parent_id)) : undefined;
      if (group) group.children.push(leaf);
      else ungrouped.push(leaf);
    });
    return { components: orderComponents(ungrouped, [...groups.values()]) };
  }
  if (keys.includes('page')) {
    const { page } = check(SOURCE, PageSchema, data);
    const indicator = sorryPageIndicator(page.state);
    return { status: { indicator, description: page.state_text?.trim() || INDICATOR_DESCRIPTIONS[indicator] } };
  }
  throw new AdapterError(
    `${SOURCE}: not a sorry™ page payload (expected a page, components or notices key; got ${keys.length ? `keys ${keys.slice(0, 5).join(', ')}` : 'no object'})`,
  );
});
