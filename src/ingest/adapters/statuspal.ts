// Statuspal-hosted status pages: the public summary of Statuspal's API v2,
// `https://statuspal.io/api/v2/status_pages/<subdomain>/summary` (`statuspal.eu` for pages
// on its EU servers), documented at statuspal.io/api-docs. It holds the page with its
// `current_incident_type`, the services (with `children`), the incidents open now, the
// maintenances under way and the upcoming ones. Dates are ISO-8601 in UTC, written without
// a zone ("2022-01-01T00:00:00"), which is read as UTC here. Mapping: docs/mappings.md "Statuspal".
import { Type, type Static } from '@sinclair/typebox';
import type { ComponentRecord, ComponentStatus, Impact, IncidentRecord, Indicator, MaintenanceRecord } from '../../domain/records.ts';
import { defineAdapter, type AdapterInput } from './adapter.ts';
import { parseJsonBody } from './body.ts';
import { INDICATOR_DESCRIPTIONS, incidentStatusFrom, newestFirst, recordId } from './mapping.ts';
import { collapseWhitespace, htmlToText } from './text.ts';
import { isoOrNull, latestIso, requireIso } from './time.ts';
import { check, Nullable, OptStr } from './validate.ts';

const SOURCE = 'statuspal';
const Id = Type.Union([Type.String(), Type.Number()]);

const ServiceSchema = Type.Recursive((Self) =>
  Type.Object({
    id: Id,
    name: Type.String(),
    current_incident_type: Type.Optional(Nullable(Type.String())),
    children: Type.Optional(Nullable(Type.Array(Self))),
  }),
);

const NoticeSchema = Type.Object({
  id: Id,
  title: Type.String(),
  type: Type.Optional(Nullable(Type.String())),
  starts_at: Type.Optional(Nullable(Type.String())),
  ends_at: Type.Optional(Nullable(Type.String())),
  inserted_at: OptStr,
  updated_at: OptStr,
  url: OptStr,
  service_ids: Type.Optional(Nullable(Type.Array(Id))),
  services: Type.Optional(Nullable(Type.Array(Type.Object({ id: Type.Optional(Id), name: OptStr })))),
  updates: Type.Optional(Nullable(Type.Array(Type.Object({ type: OptStr, description: OptStr, inserted_at: OptStr })))),
});

const PayloadSchema = Type.Object({
  status_page: Type.Object({ name: OptStr, url: OptStr, current_incident_type: Type.Optional(Nullable(Type.String())) }),
  services: Type.Optional(Nullable(Type.Array(ServiceSchema))),
  incidents: Type.Optional(Nullable(Type.Array(NoticeSchema))),
  maintenances: Type.Optional(Nullable(Type.Array(NoticeSchema))),
  upcoming_maintenances: Type.Optional(Nullable(Type.Array(NoticeSchema))),
});

type Notice = Static<typeof NoticeSchema>;
type Service = Static<typeof ServiceSchema>;

/** Statuspal writes UTC without a zone; a string without one is read as UTC, not local time. */
function utc(value: string | null | undefined): string | null {
  if (typeof value !== 'string') return null;
  const v = value.trim();
  return isoOrNull(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(v) ? `${v}Z` : v);
}

/** A service's or page's `current_incident_type`: none, minor, major, or scheduled (maintenance). */
export function statuspalComponentStatus(type: string | null | undefined): ComponentStatus {
  switch ((type ?? '').trim().toLowerCase()) {
    case '':
      return 'operational';
    case 'minor':
      return 'degraded_performance';
    case 'major':
      return 'major_outage';
    case 'scheduled':
      return 'under_maintenance';
    default:
      return 'unknown';
  }
}

function statuspalIndicator(type: string | null | undefined): Indicator {
  switch ((type ?? '').trim().toLowerCase()) {
    case '':
      return 'operational';
    case 'minor':
      return 'degraded';
    case 'major':
      return 'major_outage';
    case 'scheduled':
      return 'maintenance';
    default:
      return 'unknown';
  }
}

const impactOf = (type: string | null | undefined): Impact => {
  const t = (type ?? '').trim().toLowerCase();
  return t === 'major' ? 'major' : t === 'minor' ? 'minor' : 'none';
};

/** Services and their children, one level of groups as the page shows them; ids stay unique. */
function components(services: readonly Service[]): { records: ComponentRecord[]; names: Map<string, string> } {
  const records: ComponentRecord[] = [];
  const names = new Map<string, string>();
  const walk = (list: readonly Service[], group: string | null, depth: number) => {
    for (const s of list) {
      const id = String(s.id);
      if (names.has(id) || depth > 8) continue;
      const name = collapseWhitespace(s.name) || id;
      names.set(id, name);
      records.push({ id, name, status: statuspalComponentStatus(s.current_incident_type), group, position: records.length });
      if (s.children?.length) walk(s.children, name, depth + 1);
    }
  };
  walk(services, null, 0);
  return { records, names };
}

function noticeComponents(n: Notice, names: ReadonlyMap<string, string>): string[] {
  const out = new Set<string>();
  for (const id of n.service_ids ?? []) {
    const name = names.get(String(id));
    if (name) out.add(name);
  }
  for (const s of n.services ?? []) {
    const name = s.name ? collapseWhitespace(s.name) : s.id !== undefined ? names.get(String(s.id)) : undefined;
    if (name) out.add(name);
  }
  return [...out];
}

const updatesOf = (n: Notice, fallback: string) =>
  newestFirst(
    (n.updates ?? []).map((u) => ({
      // Update types are Statuspal's words (`issue`, `update`, `resolved` ...): kept beside the normalised phase.
      status: incidentStatusFrom(u.type === 'issue' ? 'investigating' : u.type),
      ...(u.type ? { sourceStatus: u.type } : {}),
      body: htmlToText(u.description),
      createdAt: utc(u.inserted_at) ?? fallback,
    })),
  );

function mapIncident(n: Notice, vendor: string, names: ReadonlyMap<string, string>): IncidentRecord {
  const startedAt = requireIso(`${SOURCE}: incident ${n.id} starts_at`, utc(n.starts_at) ?? utc(n.inserted_at));
  const updates = updatesOf(n, startedAt);
  const ended = utc(n.ends_at);
  const latest = updates[0];
  const resolved = ended !== null || latest?.status === 'resolved';
  return {
    id: recordId(vendor, n.id),
    vendor,
    title: collapseWhitespace(n.title),
    status: resolved ? 'resolved' : latest?.status === 'monitoring' ? 'monitoring' : 'investigating',
    sourceStatus: latest?.sourceStatus ?? (resolved ? 'resolved' : (n.type ?? 'issue')),
    impact: impactOf(n.type) === 'none' ? 'minor' : impactOf(n.type),
    startedAt,
    updatedAt: latestIso([utc(n.updated_at), latest?.createdAt, startedAt]) ?? startedAt,
    resolvedAt: resolved ? (ended ?? latest?.createdAt ?? startedAt) : null,
    components: noticeComponents(n, names),
    updates,
    url: n.url ?? null,
    source: SOURCE,
  };
}

function mapMaintenance(n: Notice, vendor: string, names: ReadonlyMap<string, string>, underWay: boolean): MaintenanceRecord {
  const scheduledFor = requireIso(`${SOURCE}: maintenance ${n.id} starts_at`, utc(n.starts_at) ?? utc(n.inserted_at));
  const updates = updatesOf(n, scheduledFor).map((u) => ({ ...u, status: underWay ? 'in_progress' : 'scheduled' }));
  return {
    id: recordId(vendor, n.id),
    vendor,
    title: collapseWhitespace(n.title),
    status: underWay ? 'in_progress' : 'scheduled',
    sourceStatus: underWay ? 'maintenances' : 'upcoming_maintenances',
    impact: impactOf(n.type),
    scheduledFor,
    scheduledUntil: utc(n.ends_at),
    startedAt: underWay ? scheduledFor : null,
    completedAt: null,
    components: noticeComponents(n, names),
    updates,
    url: n.url ?? null,
    source: SOURCE,
  };
}

export const statuspalAdapter = defineAdapter('statuspal', (input: AdapterInput) => {
  const data = check(SOURCE, PayloadSchema, parseJsonBody(SOURCE, input.body, input.contentType));
  const { records, names } = components(data.services ?? []);
  const indicator = statuspalIndicator(data.status_page.current_incident_type);
  return {
    status: { indicator, description: INDICATOR_DESCRIPTIONS[indicator] },
    components: records,
    // The summary lists the incidents open now and every maintenance not over yet.
    incidents: (data.incidents ?? []).map((n) => mapIncident(n, input.vendor, names)),
    incidentsAreCompleteUnresolvedSet: true,
    maintenances: [
      ...(data.maintenances ?? []).map((n) => mapMaintenance(n, input.vendor, names, true)),
      ...(data.upcoming_maintenances ?? []).map((n) => mapMaintenance(n, input.vendor, names, false)),
    ],
    maintenancesAreCompleteOpenSet: true,
  };
});
