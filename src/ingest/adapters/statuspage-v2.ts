// Atlassian Statuspage public API v2 (summary, status, components, incidents,
// incidents/unresolved, single incident, scheduled-maintenances[/upcoming|/active]).
// Every endpoint shares the same building blocks, so the payload's keys decide what
// the snapshot contains; the URL path only tells the unresolved list apart from the
// full incident history.
import { Type, type Static } from '@sinclair/typebox';
import type { ComponentRecord, IncidentRecord, MaintenanceRecord, RecordUpdate, SourceSnapshot } from '../../domain/records.ts';
import { AdapterError, defineAdapter, type AdapterInput } from './adapter.ts';
import { parseJsonBody } from './body.ts';
import { orderComponents, type RawComponent, type RawGroup } from './components.ts';
import {
  componentStatusFrom,
  impactFrom,
  incidentStatusFrom,
  indicatorFrom,
  joinUrl,
  maintenanceStatusFrom,
  newestFirst,
  ownWord,
  recordId,
} from './mapping.ts';
import { htmlToText } from './text.ts';
import { earliestIso, firstIso, isoOrNull, latestIso, requireIso } from './time.ts';
import { check, Nullable, OptStr } from './validate.ts';

const PageSchema = Type.Object({ id: Type.Optional(Type.String()), name: Type.Optional(Type.String()), url: OptStr });

const UpdateSchema = Type.Object({
  status: Type.Optional(Nullable(Type.String())),
  body: OptStr,
  created_at: OptStr,
  display_at: OptStr,
});

const ComponentSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  status: Type.Optional(Nullable(Type.String())),
  position: Type.Optional(Nullable(Type.Number())),
  group_id: OptStr,
  group: Type.Optional(Nullable(Type.Boolean())),
});

const IncidentSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  status: Type.String(),
  impact: OptStr,
  created_at: OptStr,
  updated_at: OptStr,
  started_at: OptStr,
  resolved_at: OptStr,
  shortlink: OptStr,
  incident_updates: Type.Optional(Nullable(Type.Array(UpdateSchema))),
  components: Type.Optional(Nullable(Type.Array(Type.Object({ name: Type.String() })))),
});

const MaintenanceSchema = Type.Composite([IncidentSchema, Type.Object({ scheduled_for: OptStr, scheduled_until: OptStr })]);

const PayloadSchema = Type.Object({
  page: PageSchema,
  status: Type.Optional(Type.Object({ indicator: Type.String(), description: Type.Optional(Type.String()) })),
  components: Type.Optional(Type.Array(ComponentSchema)),
  incidents: Type.Optional(Type.Array(IncidentSchema)),
  incident: Type.Optional(IncidentSchema),
  scheduled_maintenances: Type.Optional(Type.Array(MaintenanceSchema)),
});

type Payload = Static<typeof PayloadSchema>;
type RawIncident = Static<typeof IncidentSchema>;
type RawMaintenance = Static<typeof MaintenanceSchema>;

const SECTIONS = ['status', 'components', 'incidents', 'incident', 'scheduled_maintenances'] as const;

/** True when a parsed JSON value has the Statuspage v2 layout (used by the incident.io fallback). */
export function isStatuspageShape(data: unknown): boolean {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return false;
  const obj = data as Record<string, unknown>;
  return typeof obj.page === 'object' && obj.page !== null && SECTIONS.some((k) => k in obj);
}

export interface StatuspageContext {
  vendor: string;
  url: string;
  /** SourceType written into `source` (incident.io pages reuse this parser). */
  source: string;
}

export function parseStatuspagePayload(data: unknown, ctx: StatuspageContext): SourceSnapshot {
  const context = ctx.source;
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new AdapterError(`${context}: expected a JSON object`, { kind: 'expected a JSON object' });
  }
  const keys = Object.keys(data);
  if (!SECTIONS.some((k) => keys.includes(k))) {
    // e.g. the undocumented metrics-display endpoints: not a format we ingest.
    throw new AdapterError(
      `${context}: not a Statuspage v2 payload (expected one of ${SECTIONS.join(', ')}; got keys ${keys.slice(0, 8).join(', ') || 'none'})`,
      { kind: 'not a Statuspage v2 payload' },
    );
  }
  const payload = check(context, PayloadSchema, data);
  const pageUrl = payload.page.url ?? null;
  const snapshot: SourceSnapshot = {};

  if (payload.status) {
    snapshot.status = {
      indicator: indicatorFrom(payload.status.indicator),
      description: payload.status.description ?? '',
    };
  }
  if (payload.components) snapshot.components = mapComponents(payload.components);

  const incidents = payload.incidents ?? (payload.incident ? [payload.incident] : undefined);
  if (incidents) snapshot.incidents = incidents.map((i) => mapIncident(i, ctx, pageUrl));
  if (payload.scheduled_maintenances) {
    snapshot.maintenances = payload.scheduled_maintenances.map((m) => mapMaintenance(m, ctx, pageUrl));
  }
  if (snapshot.incidents) snapshot.incidentsAreCompleteUnresolvedSet = isCompleteUnresolvedSet(payload, ctx.url);
  // summary.json lists every maintenance not yet completed (upcoming and in progress).
  if (snapshot.maintenances && isSummary(payload)) snapshot.maintenancesAreCompleteOpenSet = true;
  return snapshot;
}

/** summary.json: page status, components, open incidents and open maintenances together. */
function isSummary(payload: Payload): boolean {
  return payload.status !== undefined && payload.components !== undefined && payload.incidents !== undefined;
}

/** summary.json and incidents/unresolved.json list every open incident; incidents.json is history. */
function isCompleteUnresolvedSet(payload: Payload, url: string): boolean {
  if (payload.incident) return false;
  let path = '';
  try {
    path = new URL(url).pathname;
  } catch {
    path = url;
  }
  return isSummary(payload) || /\/incidents\/unresolved(\.json)?\/?$/.test(path) || /\/summary(\.json)?\/?$/.test(path);
}

function mapComponents(raw: Static<typeof ComponentSchema>[]): ComponentRecord[] {
  // Group rows are containers (`group: true`); their children point at them via group_id.
  const groups = new Map<string, RawGroup>();
  for (const c of raw) {
    if (c.group === true) groups.set(c.id, { id: c.id, name: c.name, position: c.position ?? null, children: [] });
  }
  const ungrouped: RawComponent[] = [];
  for (const c of raw) {
    if (c.group === true) continue;
    const leaf: RawComponent = { id: c.id, name: c.name, status: componentStatusFrom(c.status), position: c.position ?? null };
    const group = c.group_id ? groups.get(c.group_id) : undefined;
    // A group_id whose group row is absent (trimmed payloads) leaves the component ungrouped.
    if (group) group.children.push(leaf);
    else ungrouped.push(leaf);
  }
  return orderComponents(ungrouped, [...groups.values()]);
}

function incidentUrl(raw: RawIncident, pageUrl: string | null): string | null {
  if (raw.shortlink) return raw.shortlink;
  return pageUrl ? joinUrl(pageUrl, `incidents/${raw.id}`) : null;
}

function mapUpdates<S extends string>(raw: RawIncident, normalise: (word: string | null | undefined) => S, fallbackAt: string) {
  const updates: (RecordUpdate & { raw: string })[] = (raw.incident_updates ?? []).map((u) => ({
    raw: (u.status ?? '').toLowerCase(),
    status: normalise(u.status),
    body: htmlToText(u.body),
    // display_at is what the page shows (editors can back-date an update); created_at otherwise.
    createdAt: firstIso(isoOrNull(u.display_at), isoOrNull(u.created_at)) ?? fallbackAt,
  }));
  return newestFirst(updates);
}

const stripRaw = (updates: (RecordUpdate & { raw: string })[]): RecordUpdate[] =>
  updates.map(({ status, body, createdAt, raw }) => ({ status, ...ownWord(raw), body, createdAt }));

function mapIncident(raw: RawIncident, ctx: StatuspageContext, pageUrl: string | null): IncidentRecord {
  const where = `${ctx.source}: incident ${raw.id}`;
  const startedAt = requireIso(`${where} started_at/created_at`, raw.started_at ?? raw.created_at);
  const updatedAtRaw = isoOrNull(raw.updated_at);
  const resolvedAtRaw = isoOrNull(raw.resolved_at);
  const status = incidentStatusFrom(raw.status, resolvedAtRaw !== null);
  const updates = mapUpdates(raw, (w) => incidentStatusFrom(w), updatedAtRaw ?? startedAt);
  const updatedAt = latestIso([updatedAtRaw, updates[0]?.createdAt, startedAt]) ?? startedAt;
  const resolvedUpdate = updates.find((u) => u.raw === 'resolved') ?? updates.find((u) => u.status === 'resolved');
  return {
    id: recordId(ctx.vendor, raw.id),
    vendor: ctx.vendor,
    title: raw.name,
    status,
    sourceStatus: raw.status,
    impact: impactFrom(raw.impact),
    startedAt,
    updatedAt,
    resolvedAt: status === 'resolved' ? (resolvedAtRaw ?? resolvedUpdate?.createdAt ?? updatedAt) : null,
    components: (raw.components ?? []).map((c) => c.name),
    updates: stripRaw(updates),
    url: incidentUrl(raw, pageUrl),
    source: ctx.source,
  };
}

function mapMaintenance(raw: RawMaintenance, ctx: StatuspageContext, pageUrl: string | null): MaintenanceRecord {
  const where = `${ctx.source}: maintenance ${raw.id}`;
  const scheduledFor = requireIso(`${where} scheduled_for`, raw.scheduled_for ?? raw.started_at ?? raw.created_at);
  const resolvedAtRaw = isoOrNull(raw.resolved_at);
  const status = maintenanceStatusFrom(raw.status, resolvedAtRaw !== null);
  const updatedAt = isoOrNull(raw.updated_at) ?? scheduledFor;
  const updates = mapUpdates(raw, (w) => maintenanceStatusFrom(w), updatedAt);
  // Statuspage's started_at on a maintenance is when it was announced, not when work began;
  // the first in_progress update is the real start.
  const begun = status === 'in_progress' || status === 'verifying' || status === 'completed';
  const firstInProgress = earliestIso(updates.filter((u) => u.status === 'in_progress').map((u) => u.createdAt));
  const completedUpdate = updates.find((u) => u.status === 'completed');
  return {
    id: recordId(ctx.vendor, raw.id),
    vendor: ctx.vendor,
    title: raw.name,
    status,
    sourceStatus: raw.status,
    impact: impactFrom(raw.impact),
    scheduledFor,
    scheduledUntil: isoOrNull(raw.scheduled_until),
    startedAt: begun ? (firstInProgress ?? scheduledFor) : null,
    completedAt: status === 'completed' ? (resolvedAtRaw ?? completedUpdate?.createdAt ?? updatedAt) : null,
    components: (raw.components ?? []).map((c) => c.name),
    updates: stripRaw(updates),
    url: incidentUrl(raw, pageUrl),
    source: ctx.source,
  };
}

export const statuspageV2Adapter = defineAdapter('statuspage-v2', (input: AdapterInput) =>
  parseStatuspagePayload(parseJsonBody('statuspage-v2', input.body, input.contentType), {
    vendor: input.vendor,
    url: input.url,
    source: 'statuspage-v2',
  }),
);
