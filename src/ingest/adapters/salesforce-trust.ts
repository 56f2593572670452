// Salesforce Trust status API (`https://api.status.salesforce.com/v1`, docs/mappings.md
// "Salesforce Trust"). What a URL returns is told by its path:
//  - `/incidents/active`, `/incidents` → an array of incidents {id, serviceKeys, instanceKeys,
//    IncidentImpacts[{startTime, endTime, severity, type}], IncidentEvents[{type, message,
//    createdAt}], createdAt, updatedAt}; an impact without endTime is still ongoing;
//  - `/maintenances` → an array of maintenances {id, name, plannedStartTime, plannedEndTime, ...};
//  - `/instances/status/preview`, `/instances` → an array of instances {key, status, ...},
//    status OK or <KIND>_<CORE|NONCORE> (e.g. MAJOR_INCIDENT_CORE).
// Trust incidents have no title, so one is built from the impact type and where it hits.
import { Type, type Static } from '@sinclair/typebox';
import type { ComponentStatus, Impact, IncidentRecord, MaintenanceRecord, SourceSnapshot } from '../../domain/records.ts';
import { AdapterError, defineAdapter, type AdapterInput } from './adapter.ts';
import { parseJsonBody } from './body.ts';
import { indicatorFromComponents, INDICATOR_DESCRIPTIONS, newestFirst, recordId, worstImpact } from './mapping.ts';
import { htmlToText } from './text.ts';
import { earliestIso, firstIso, isoOrNull, latestIso, requireIso } from './time.ts';
import { check, Nullable, OptStr } from './validate.ts';

const SOURCE = 'salesforce-trust';
const PAGE = 'https://status.salesforce.com';

const Keys = Type.Optional(Nullable(Type.Array(Type.String())));
const EventSchema = Type.Object({ type: OptStr, message: OptStr, createdAt: OptStr });

const IncidentSchema = Type.Object({
  id: Type.Union([Type.Number(), Type.String()]),
  serviceKeys: Keys,
  instanceKeys: Keys,
  IncidentImpacts: Type.Optional(Nullable(Type.Array(Type.Object({ startTime: OptStr, endTime: OptStr, severity: OptStr, type: OptStr })))),
  IncidentEvents: Type.Optional(Nullable(Type.Array(EventSchema))),
  createdAt: OptStr,
  updatedAt: OptStr,
});

const MaintenanceSchema = Type.Object({
  id: Type.Union([Type.Number(), Type.String()]),
  name: OptStr,
  plannedStartTime: Type.String(),
  plannedEndTime: OptStr,
  serviceKeys: Keys,
  instanceKeys: Keys,
  MaintenanceEvents: Type.Optional(Nullable(Type.Array(EventSchema))),
});

const InstanceSchema = Type.Object({ key: Type.String(), status: Type.String(), environment: OptStr });

type RawIncident = Static<typeof IncidentSchema>;
type RawMaintenance = Static<typeof MaintenanceSchema>;

/** `performanceDegradation` → "Performance degradation". */
function words(camel: string | null | undefined): string {
  const text = (camel ?? '')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .trim()
    .toLowerCase();
  return text ? text[0]!.toUpperCase() + text.slice(1) : '';
}

function where(keys: string[]): string {
  if (keys.length === 0) return '';
  const shown = keys.slice(0, 5).join(', ');
  return keys.length > 5 ? ` on ${shown} and ${keys.length - 5} more` : ` on ${shown}`;
}

/** Instance status: OK, or <INFORMATIONAL|MAINTENANCE|MINOR_INCIDENT|MAJOR_INCIDENT>_<CORE|NONCORE>. */
export function trustInstanceStatus(status: string): ComponentStatus {
  const s = status.trim().toUpperCase();
  if (s === 'OK' || s.startsWith('INFORMATIONAL')) return 'operational';
  if (s.includes('MAINTENANCE')) return 'under_maintenance';
  if (s.startsWith('MAJOR_INCIDENT')) return s.endsWith('_NONCORE') ? 'partial_outage' : 'major_outage';
  if (s.startsWith('MINOR_INCIDENT')) return 'degraded_performance';
  return 'unknown';
}

const severityImpact = (severity: string | null | undefined): Impact =>
  (severity ?? '').toLowerCase() === 'major' ? 'major' : (severity ?? '').toLowerCase() === 'minor' ? 'minor' : 'none';

function events(list: Static<typeof EventSchema>[] | null | undefined, status: string) {
  return newestFirst(
    (list ?? []).flatMap((e) => {
      const at = isoOrNull(e.createdAt);
      const body = htmlToText(e.message);
      return at && body ? [{ status, body, createdAt: at }] : [];
    }),
  );
}

function mapIncident(i: RawIncident, vendor: string): IncidentRecord {
  const impacts = i.IncidentImpacts ?? [];
  const open = impacts.length === 0 || impacts.some((x) => !isoOrNull(x.endTime));
  const status = open ? 'investigating' : 'resolved';
  const updates = events(i.IncidentEvents, status);
  const startedAt = requireIso(
    `${SOURCE}: incident ${i.id} createdAt`,
    firstIso(earliestIso(impacts.map((x) => isoOrNull(x.startTime))), isoOrNull(i.createdAt)),
  );
  const updatedAt = latestIso([isoOrNull(i.updatedAt), updates[0]?.createdAt, startedAt]) ?? startedAt;
  const kind = words(impacts[0]?.type) || 'Incident';
  const instances = i.instanceKeys ?? [];
  const services = i.serviceKeys ?? [];
  return {
    id: recordId(vendor, i.id),
    vendor,
    title: `${kind}${where(instances.length > 0 ? instances : services)}`,
    status,
    sourceStatus: open ? 'active' : 'resolved',
    impact: worstImpact(
      impacts.map((x) => severityImpact(x.severity)).filter((x) => x !== 'none'),
      'minor',
    ),
    startedAt,
    updatedAt,
    resolvedAt: open ? null : (latestIso(impacts.map((x) => isoOrNull(x.endTime))) ?? updatedAt),
    components: [...new Set(services)],
    updates,
    url: `${PAGE}/incidents/${encodeURIComponent(String(i.id))}`,
    source: SOURCE,
  };
}

function mapMaintenance(m: RawMaintenance, vendor: string, now: Date): MaintenanceRecord {
  const start = requireIso(`${SOURCE}: maintenance ${m.id} plannedStartTime`, m.plannedStartTime);
  const end = isoOrNull(m.plannedEndTime);
  const at = now.toISOString();
  const status = at < start ? 'scheduled' : end && at >= end ? 'completed' : 'in_progress';
  return {
    id: recordId(vendor, m.id),
    vendor,
    title: m.name?.trim() || `Maintenance${where(m.instanceKeys ?? [])}`,
    status,
    sourceStatus: status,
    impact: 'none',
    scheduledFor: start,
    scheduledUntil: end,
    startedAt: status === 'scheduled' ? null : start,
    completedAt: status === 'completed' ? end : null,
    components: [...new Set(m.serviceKeys ?? [])],
    updates: events(m.MaintenanceEvents, status),
    url: `${PAGE}/maintenances/${encodeURIComponent(String(m.id))}`,
    source: SOURCE,
  };
}

export const salesforceTrustAdapter = defineAdapter('salesforce-trust', (input: AdapterInput): SourceSnapshot => {
  const path = new URL(input.url, 'https://x.invalid').pathname.replace(/\/+$/, '');
  const data = parseJsonBody(SOURCE, input.body, input.contentType);
  if (/\/incidents(\/active)?$/.test(path)) {
    const incidents = check(SOURCE, Type.Array(IncidentSchema), data).map((i) => mapIncident(i, input.vendor));
    // /incidents/active is the complete set of what is open right now.
    return { incidents, incidentsAreCompleteUnresolvedSet: path.endsWith('/active') };
  }
  if (/\/maintenances$/.test(path)) {
    return { maintenances: check(SOURCE, Type.Array(MaintenanceSchema), data).map((m) => mapMaintenance(m, input.vendor, input.now)) };
  }
  if (/\/instances(\/status\/preview)?$/.test(path)) {
    const components = check(SOURCE, Type.Array(InstanceSchema), data).map((x, position) => ({
      id: x.key,
      name: x.key,
      status: trustInstanceStatus(x.status),
      group: x.environment ?? null,
      position,
    }));
    const indicator = indicatorFromComponents(components.map((c) => c.status));
    return { status: { indicator, description: INDICATOR_DESCRIPTIONS[indicator] }, components };
  }
  throw new AdapterError(
    `${SOURCE}: cannot tell what ${path || '/'} returns (expected /incidents/active, /incidents, /maintenances or /instances/status/preview)`,
  );
});
