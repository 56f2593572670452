// Instatus `summary.json` (also served at `/api/v2/summary.json` by Instatus pages):
// page{name, url, status}, activeIncidents[], activeMaintenances[]. It carries no
// components and no update history, only the currently active items.
import { Type, type Static } from '@sinclair/typebox';
import type { Impact, IncidentRecord, Indicator, MaintenanceRecord, SourceSnapshot } from '../../domain/records.ts';
import { AdapterError, defineAdapter, type AdapterInput } from './adapter.ts';
import { parseJsonBody } from './body.ts';
import { incidentStatusFrom, INDICATOR_DESCRIPTIONS, maintenanceStatusFrom, recordId } from './mapping.ts';
import { addMinutes, isoOrNull, latestIso, requireIso } from './time.ts';
import { check, Nullable, OptStr } from './validate.ts';

const SOURCE = 'instatus';

const IncidentSchema = Type.Object({
  id: OptStr,
  name: Type.String(),
  started: Type.String(),
  status: Type.String(),
  impact: OptStr,
  url: OptStr,
  updatedAt: OptStr,
});

const MaintenanceSchema = Type.Object({
  id: OptStr,
  name: Type.String(),
  start: Type.String(),
  status: Type.String(),
  duration: Type.Optional(Nullable(Type.Union([Type.String(), Type.Number()]))),
  url: OptStr,
  updatedAt: OptStr,
});

const SummarySchema = Type.Object({
  page: Type.Object({ name: Type.Optional(Type.String()), url: OptStr, status: Type.String() }),
  activeIncidents: Type.Optional(Nullable(Type.Array(IncidentSchema))),
  activeMaintenances: Type.Optional(Nullable(Type.Array(MaintenanceSchema))),
});

/**
 * Page status. Besides the documented UP / HASISSUES / UNDERMAINTENANCE, live pages
 * send component-level words, optionally prefixed with ONE when a single component
 * is affected (ONEMAJOROUTAGE): one component down is a partial outage of the page.
 */
export function instatusIndicator(word: string): Indicator {
  const w = word.trim().toUpperCase();
  if (w === 'UP' || w === 'OPERATIONAL' || w === 'ALLUP') return 'operational';
  if (w === 'HASISSUES') return 'degraded';
  if (w.endsWith('UNDERMAINTENANCE')) return 'maintenance';
  if (w === 'MAJOROUTAGE') return 'major_outage';
  if (w === 'ONEMAJOROUTAGE' || w.endsWith('PARTIALOUTAGE')) return 'partial_outage';
  if (w.endsWith('MINOROUTAGE') || w.endsWith('DEGRADEDPERFORMANCE')) return 'degraded';
  return 'unknown';
}

/** Incident impact. PARTIALOUTAGE sits with Statuspage's "major" (our partial_outage indicator). */
export function instatusImpact(word: string | null | undefined): Impact {
  switch ((word ?? '').trim().toUpperCase()) {
    case 'MAJOROUTAGE':
    case 'PARTIALOUTAGE':
      return 'major';
    case 'MINOROUTAGE':
    case 'DEGRADEDPERFORMANCE':
      return 'minor';
    case 'OPERATIONAL':
    case 'UNDERMAINTENANCE':
      return 'none';
    default:
      // An active incident with an unknown impact word still hurts someone.
      return 'minor';
  }
}

/** The summary omits ids on older pages; the last path segment of the item URL is its id. */
function itemId(item: { id?: string | null; url?: string | null; name: string }, kind: string): string {
  if (item.id) return item.id;
  const fromUrl = item.url?.replace(/\/+$/, '').split('/').pop();
  if (fromUrl) return fromUrl;
  throw new AdapterError(`${SOURCE}: ${kind} "${item.name}" has neither id nor url`, { kind: `${kind} has neither id nor url` });
}

function mapIncident(raw: Static<typeof IncidentSchema>, vendor: string): IncidentRecord {
  const id = itemId(raw, 'incident');
  const startedAt = requireIso(`${SOURCE}: incident ${id} started`, raw.started);
  const status = incidentStatusFrom(raw.status);
  const updatedAt = latestIso([isoOrNull(raw.updatedAt), startedAt]) ?? startedAt;
  return {
    id: recordId(vendor, id),
    vendor,
    title: raw.name,
    status,
    sourceStatus: raw.status,
    impact: instatusImpact(raw.impact),
    startedAt,
    updatedAt,
    resolvedAt: status === 'resolved' ? updatedAt : null,
    components: [],
    updates: [],
    url: raw.url ?? null,
    source: SOURCE,
  };
}

function mapMaintenance(raw: Static<typeof MaintenanceSchema>, vendor: string): MaintenanceRecord {
  const id = itemId(raw, 'maintenance');
  const scheduledFor = requireIso(`${SOURCE}: maintenance ${id} start`, raw.start);
  const status = maintenanceStatusFrom(raw.status);
  // duration is in minutes (a numeric string on live pages).
  const minutes = raw.duration === null || raw.duration === undefined ? NaN : Number(raw.duration);
  const updatedAt = isoOrNull(raw.updatedAt);
  return {
    id: recordId(vendor, id),
    vendor,
    title: raw.name,
    status,
    sourceStatus: raw.status,
    impact: 'none',
    scheduledFor,
    scheduledUntil: Number.isFinite(minutes) && minutes > 0 ? addMinutes(scheduledFor, minutes) : null,
    startedAt: status === 'scheduled' ? null : scheduledFor,
    completedAt: status === 'completed' ? (updatedAt ?? scheduledFor) : null,
    components: [],
    updates: [],
    url: raw.url ?? null,
    source: SOURCE,
  };
}

export const instatusAdapter = defineAdapter('instatus', (input: AdapterInput) => {
  const summary = check(SOURCE, SummarySchema, parseJsonBody(SOURCE, input.body, input.contentType));
  const indicator = instatusIndicator(summary.page.status);
  const snapshot: SourceSnapshot = {
    status: { indicator, description: INDICATOR_DESCRIPTIONS[indicator] },
    incidents: (summary.activeIncidents ?? []).map((i) => mapIncident(i, input.vendor)),
    // activeIncidents is every open incident of the page.
    incidentsAreCompleteUnresolvedSet: true,
  };
  // A page without maintenances omits the key; an empty list then says the same thing.
  snapshot.maintenances = (summary.activeMaintenances ?? []).map((m) => mapMaintenance(m, input.vendor));
  return snapshot;
});
