// Google Cloud `status.cloud.google.com/incidents.json`: a flat array of incidents,
// newest first, open and closed alike (a history, not an unresolved set). The Google
// Workspace dashboard serves the same list at `www.google.com/appsstatus/dashboard/incidents.json`;
// incident links are relative to the list's own dashboard (docs/mappings.md "Google Workspace").
import { Type, type Static } from '@sinclair/typebox';
import type { ComponentStatus, Impact, IncidentRecord } from '../../domain/records.ts';
import { regionByCode } from '../../domain/regions.ts';
import { defineAdapter, type AdapterInput } from './adapter.ts';
import { parseJsonBody } from './body.ts';
import { CloudComponentList, recordComponentNames, type CloudComponent } from './cloud-components.ts';
import { joinUrl, newestFirst, recordId } from './mapping.ts';
import { collapseWhitespace } from './text.ts';
import { firstIso, isoOrNull, latestIso, requireIso } from './time.ts';
import { check, Nullable, OptStr } from './validate.ts';

const SOURCE = 'gcp-json';
const BASE = 'https://status.cloud.google.com/';

const UpdateSchema = Type.Object({ created: OptStr, when: OptStr, text: OptStr, status: OptStr });

const LocationSchema = Type.Object({ id: Type.String(), title: OptStr });

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
  affected_products: Type.Optional(Nullable(Type.Array(Type.Object({ title: Type.String(), id: OptStr })))),
  currently_affected_locations: Type.Optional(Nullable(Type.Array(LocationSchema))),
  previously_affected_locations: Type.Optional(Nullable(Type.Array(LocationSchema))),
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

/** The dashboard a list belongs to: the folder of its URL (Google Cloud's when that is not a URL). */
function dashboardOf(listUrl: string): string {
  try {
    const u = new URL('.', listUrl);
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.toString() : BASE;
  } catch {
    return BASE;
  }
}

/** `uri` is relative to the dashboard ("incidents/<id>"); a malformed one falls back to the id. */
function incidentUrl(uri: string | null | undefined, id: string, base: string): string {
  try {
    if (uri) return new URL(uri, base).toString();
  } catch {
    // fall through
  }
  return joinUrl(base, `incidents/${encodeURIComponent(id)}`);
}

/** GCP update statuses are impact words until the closing AVAILABLE. */
const updateStatus = (word: string | null | undefined) => ((word ?? '').toUpperCase() === 'AVAILABLE' ? 'resolved' : 'investigating');

type RawIncident = Static<typeof IncidentSchema>;
type Location = Static<typeof LocationSchema>;

/**
 * Each product in each location as a component (docs/mappings.md "Cloud depth"): a location
 * the region vocabulary knows (`us-central1`) is its region; `global` and multi-regions
 * (`us`, "Multi-region: us") keep their own label and no region.
 */
function productComponents(raw: RawIncident, locations: readonly Location[]): CloudComponent[] {
  const products = (raw.affected_products ?? []).map((p) => ({ id: p.id || p.title, title: p.title }));
  if (products.length === 0 && raw.service_name) products.push({ id: raw.service_name, title: raw.service_name });
  const out: CloudComponent[] = [];
  for (const p of products) {
    if (locations.length === 0) out.push({ id: p.id, service: p.title, region: null, location: null });
    for (const l of locations) {
      const region = regionByCode(l.id.trim().toLowerCase());
      out.push({ id: `${p.id}:${l.id}`, service: p.title, region: region?.cloud === 'gcp' ? region : null, location: l.id });
    }
  }
  return out;
}

const allLocations = (raw: RawIncident): Location[] => {
  const seen = new Set<string>();
  return [...(raw.currently_affected_locations ?? []), ...(raw.previously_affected_locations ?? [])].filter((l) => !seen.has(l.id) && !!seen.add(l.id));
};

const componentStatusOf = (impact: Impact): ComponentStatus =>
  impact === 'critical' ? 'major_outage' : impact === 'major' ? 'partial_outage' : 'degraded_performance';

function mapIncident(raw: Static<typeof IncidentSchema>, vendor: string, base: string): IncidentRecord {
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
    components: recordComponentNames(productComponents(raw, allLocations(raw))),
    updates,
    url: incidentUrl(raw.uri, raw.id, base),
    source: SOURCE,
  };
}

export const gcpAdapter = defineAdapter('gcp-json', (input: AdapterInput) => {
  const payload = check(SOURCE, PayloadSchema, parseJsonBody(SOURCE, input.body, input.contentType));
  // The history names every product and location it ever affected; one is hit now only
  // while an open incident lists it among its currently affected locations.
  const components = new CloudComponentList();
  for (const raw of payload) {
    const open = isoOrNull(raw.end) === null;
    const hit = new Set(open ? productComponents(raw, raw.currently_affected_locations ?? []).map((c) => c.id) : []);
    const status = componentStatusOf(gcpImpact(raw.status_impact, raw.severity));
    for (const c of productComponents(raw, allLocations(raw))) components.add(c, hit.has(c.id) ? status : 'operational');
  }
  const base = dashboardOf(input.url);
  return { incidents: payload.map((i) => mapIncident(i, input.vendor, base)), components: components.records(), componentsKeepUnlisted: true };
});
