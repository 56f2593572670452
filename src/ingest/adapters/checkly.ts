// Checkly-hosted status pages: `/api/status-page/<page>/unresolved-incidents`
// returns {incidents: [...]}, each with a severity, the last update's status,
// affected services and the update history.
import { Type, type Static } from '@sinclair/typebox';
import type { Impact, IncidentRecord } from '../../domain/records.ts';
import { defineAdapter, type AdapterInput } from './adapter.ts';
import { parseJsonBody } from './body.ts';
import { incidentStatusFrom, newestFirst, recordId } from './mapping.ts';
import { htmlToText } from './text.ts';
import { firstIso, isoOrNull, latestIso, requireIso } from './time.ts';
import { check, Nullable, OptStr } from './validate.ts';

const SOURCE = 'checkly';

const IncidentSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  severity: OptStr,
  created_at: Type.String(),
  updated_at: OptStr,
  lastUpdateStatus: OptStr,
  services: Type.Optional(Nullable(Type.Array(Type.Object({ name: Type.String() })))),
  incidentUpdates: Type.Optional(
    Nullable(Type.Array(Type.Object({ status: OptStr, description: OptStr, publicIncidentUpdateDate: OptStr, created_at: OptStr }))),
  ),
});

const PayloadSchema = Type.Object({ incidents: Type.Array(IncidentSchema) });

/** Checkly's four severities onto our three outage levels: MEDIUM is still a degradation. */
export function checklyImpact(severity: string | null | undefined): Impact {
  switch ((severity ?? '').toUpperCase()) {
    case 'CRITICAL':
      return 'critical';
    case 'MAJOR':
      return 'major';
    case 'MINOR':
    case 'MEDIUM':
      return 'minor';
    default:
      return 'minor';
  }
}

function mapIncident(raw: Static<typeof IncidentSchema>, vendor: string): IncidentRecord {
  const startedAt = requireIso(`${SOURCE}: incident ${raw.id} created_at`, raw.created_at);
  const updates = newestFirst(
    (raw.incidentUpdates ?? []).map((u) => ({
      status: incidentStatusFrom(u.status),
      body: htmlToText(u.description),
      // the public date is what the page shows; created_at is when it was typed in
      createdAt: firstIso(isoOrNull(u.publicIncidentUpdateDate), isoOrNull(u.created_at)) ?? startedAt,
    })),
  );
  const sourceStatus = raw.lastUpdateStatus ?? (raw.incidentUpdates ?? [])[0]?.status ?? 'INVESTIGATING';
  const status = incidentStatusFrom(sourceStatus);
  const updatedAt = latestIso([isoOrNull(raw.updated_at), updates[0]?.createdAt, startedAt]) ?? startedAt;
  return {
    id: recordId(vendor, raw.id),
    vendor,
    title: raw.name,
    status,
    sourceStatus,
    impact: checklyImpact(raw.severity),
    startedAt,
    updatedAt,
    resolvedAt: status === 'resolved' ? (updates.find((u) => u.status === 'resolved')?.createdAt ?? updatedAt) : null,
    components: (raw.services ?? []).map((s) => s.name),
    updates,
    url: null,
    source: SOURCE,
  };
}

export const checklyAdapter = defineAdapter('checkly', (input: AdapterInput) => {
  const payload = check(SOURCE, PayloadSchema, parseJsonBody(SOURCE, input.body, input.contentType));
  return {
    incidents: payload.incidents.map((i) => mapIncident(i, input.vendor)),
    // The endpoint lists exactly the page's unresolved incidents.
    incidentsAreCompleteUnresolvedSet: true,
  };
});
