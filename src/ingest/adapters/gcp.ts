// Google Cloud `status.cloud.google.com/incidents.json`: a flat array of incidents,
// newest first, open and closed alike (a history, not an unresolved set).
import { Type, type Static } from '@sinclair/typebox';
import type { Impact, IncidentRecord } from '../../domain/records.ts';
import { defineAdapter, type AdapterInput } from './adapter.ts';
import { parseJsonBody } from './body.ts';
import { joinUrl, newestFirst, recordId } from './mapping.ts';
import { collapseWhitespace } from './text.ts';
import { firstIso, isoOrNull, latestIso, requireIso } from './time.ts';
import { check, Nullable, OptStr } from './validate.ts';

const SOURCE = 'gcp-json';
const BASE = 'https://status.cloud.google.com/';

const UpdateSchema = Type.Object({ created: OptStr, when: OptStr, text: OptStr, status: OptStr });

const IncidentSchema = Type.Object({
  id: Type.String(),
  begin: Type.String(),
  created: OptStr,
  end: OptStr,
  modified: OptStr,
  external_desc: Type.String(),
  status_impact: OptStr,
  severity: OptStr,
  service_name: OptStr,
  uri: OptStr,
  updates: Type.Optional(Nullable(Type.Array(UpdateSchema))),
  most_recent_update: Type.Optional(Nullable(UpdateSchema)),
  affected_products: Type.Optional(Nullable(Type.Array(Type.Object({ title: Type.String() })))),
});

const PayloadSchema = Type.Array(IncidentSchema);

/**
 * status_impact is the documented classification; severity (low/medium/high) is the
 * fallback when it is missing. The two agree one-to-one on recorded data.
 */
export function gcpImpact(statusImpact: string | null | undefined, severity: string | null | undefined): Impact {
  switch ((statusImpact ?? '').toUpperCase()) {
    case 'SERVICE_OUTAGE':
      return 'critical';
    case 'SERVICE_DISRUPTION':
      return 'major';
    case 'SERVICE_INFORMATION':
      return 'minor';
  }
  switch ((severity ?? '').toLowerCase()) {
    case 'high':
      return 'critical';
    case 'medium':
      return 'major';
    default:
      return 'minor';
  }
}

/** `uri` is relative to the dashboard ("incidents/<id>"); a malformed one falls back to the id. */
function incidentUrl(uri: string | null | undefined, id: string): string {
  try {
    if (uri) return new URL(uri, BASE).toString();
  } catch {
    // fall through
  }
  return joinUrl(BASE, `incidents/${encodeURIComponent(id)}`);
}

/** GCP update statuses are impact words until the closing AVAILABLE. */
const updateStatus = (word: string | null | undefined) => ((word ?? '').toUpperCase() === 'AVAILABLE' ? 'resolved' : 'investigating');

function mapIncident(raw: Static<typeof IncidentSchema>, vendor: string): IncidentRecord {
  const startedAt = requireIso(`${SOURCE}: incident ${raw.id} begin`, raw.begin);
  const end = isoOrNull(raw.end);
  const latestWord = raw.most_recent_update?.status ?? raw.updates?.[0]?.status ?? null;
  // An incident with `end` is over, whatever its last update says: some closed ones keep
  // a last update that is not AVAILABLE forever (docs/mappings.md "Google Cloud").
  const resolved = end !== null;
  const updates = newestFirst(
    (raw.updates ?? []).map((u) => ({
      status: updateStatus(u.status),
      body: collapseWhitespace(u.text ?? ''),
      createdAt: firstIso(isoOrNull(u.when), isoOrNull(u.created)) ?? startedAt,
    })),
  );
  const updatedAt = latestIso([isoOrNull(raw.modified), updates[0]?.createdAt, startedAt]) ?? startedAt;
  const products = (raw.affected_products ?? []).map((p) => p.title);
  return {
    id: recordId(vendor, raw.id),
    vendor,
    title: collapseWhitespace(raw.external_desc),
    status: resolved ? 'resolved' : 'investigating',
    sourceStatus: latestWord ?? (resolved ? 'AVAILABLE' : (raw.status_impact ?? '')),
    impact: gcpImpact(raw.status_impact, raw.severity),
    startedAt,
    updatedAt,
    resolvedAt: resolved ? end : null,
    components: products.length > 0 ? products : raw.service_name ? [raw.service_name] : [],
    updates,
    url: incidentUrl(raw.uri, raw.id),
    source: SOURCE,
  };
}

export const gcpAdapter = defineAdapter('gcp-json', (input: AdapterInput) => {
  const payload = check(SOURCE, PayloadSchema, parseJsonBody(SOURCE, input.body, input.contentType));
  return { incidents: payload.map((i) => mapIncident(i, input.vendor)) };
});
