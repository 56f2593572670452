// Heroku status API `/api/v4/current-status` (docs/mappings.md "Heroku"):
// `{status: [{system, status}], incidents: [{title, created_at, full_url, updates: [{update_type,
// updated_at, contents}]}], scheduled: [...]}`. `system` is Apps, Data or Tools and `status` a
// colour (green, yellow, red; blue is tolerated as maintenance). The incidents listed are the
// current ones. `scheduled` is undocumented in shape, so it is not read.
import { Type, type Static } from '@sinclair/typebox';
import type { ComponentStatus, IncidentRecord, SourceSnapshot } from '../../domain/records.ts';
import { defineAdapter, type AdapterInput } from './adapter.ts';
import { parseJsonBody } from './body.ts';
import { incidentStatusFrom, indicatorFromComponents, INDICATOR_DESCRIPTIONS, newestFirst, ownWord, recordId } from './mapping.ts';
import { htmlToText } from './text.ts';
import { firstIso, isoOrNull, latestIso, requireIso } from './time.ts';
import { check, Nullable, OptStr } from './validate.ts';

const SOURCE = 'heroku-status';

const IncidentSchema = Type.Object({
  id: Type.Optional(Nullable(Type.Union([Type.String(), Type.Number()]))),
  title: Type.String(),
  created_at: OptStr,
  full_url: OptStr,
  state: OptStr,
  systems: Type.Optional(Nullable(Type.Array(Type.Object({ name: OptStr })))),
  updates: Type.Optional(Nullable(Type.Array(Type.Object({ update_type: OptStr, updated_at: OptStr, contents: OptStr })))),
});

const DocumentSchema = Type.Object({
  status: Type.Array(Type.Object({ system: Type.String(), status: Type.String() })),
  incidents: Type.Optional(Nullable(Type.Array(IncidentSchema))),
});

type RawIncident = Static<typeof IncidentSchema>;

function herokuComponentStatus(colour: string): ComponentStatus {
  switch (colour.trim().toLowerCase()) {
    case 'green':
      return 'operational';
    case 'yellow':
      return 'degraded_performance';
    case 'red':
      return 'major_outage';
    case 'blue':
      return 'under_maintenance';
    default:
      return 'unknown';
  }
}

/** The upstream id, else the last path segment of the incident's page URL. */
function incidentId(i: RawIncident): string | null {
  if (i.id !== undefined && i.id !== null && String(i.id).trim() !== '') return String(i.id);
  const tail = (i.full_url ?? '')
    .replace(/[?#].*$/, '')
    .replace(/\/+$/, '')
    .split('/')
    .pop();
  return tail ? tail : null;
}

function mapIncident(i: RawIncident, vendor: string, worst: ComponentStatus | null): IncidentRecord | null {
  const id = incidentId(i);
  if (!id) return null;
  const updates = newestFirst(
    (i.updates ?? []).flatMap((u) => {
      const at = isoOrNull(u.updated_at);
      return at ? [{ status: incidentStatusFrom(u.update_type), ...ownWord(u.update_type), body: htmlToText(u.contents), createdAt: at }] : [];
    }),
  );
  const latestWord = (i.updates ?? []).map((u) => ({ u, at: isoOrNull(u.updated_at) ?? '' })).sort((a, b) => (a.at < b.at ? 1 : -1))[0]?.u.update_type;
  const status = incidentStatusFrom(latestWord);
  const startedAt = requireIso(`${SOURCE}: incident ${id} created_at`, firstIso(isoOrNull(i.created_at), updates.at(-1)?.createdAt));
  const updatedAt = latestIso([updates[0]?.createdAt, startedAt]) ?? startedAt;
  return {
    id: recordId(vendor, id),
    vendor,
    title: i.title,
    status,
    sourceStatus: latestWord ?? i.state ?? 'issue',
    impact: worst === 'major_outage' ? 'major' : 'minor',
    startedAt,
    updatedAt,
    resolvedAt: status === 'resolved' ? updatedAt : null,
    components: [...new Set((i.systems ?? []).map((s) => s.name).filter((n): n is string => !!n))],
    updates,
    url: i.full_url ?? null,
    source: SOURCE,
  };
}

export const herokuStatusAdapter = defineAdapter('heroku-status', (input: AdapterInput): SourceSnapshot => {
  const doc = check(SOURCE, DocumentSchema, parseJsonBody(SOURCE, input.body, input.contentType));
  const components = doc.status.map((s, position) => ({
    id: s.system,
    name: s.system,
    status: herokuComponentStatus(s.status),
    group: null,
    position,
  }));
  const indicator = indicatorFromComponents(components.map((c) => c.status));
  const worst = components.some((c) => c.status === 'major_outage') ? 'major_outage' : null;
  return {
    status: { indicator, description: INDICATOR_DESCRIPTIONS[indicator] },
    components,
    incidents: (doc.incidents ?? []).map((i) => mapIncident(i, input.vendor, worst)).filter((i) => i !== null),
    incidentsAreCompleteUnresolvedSet: true,
  };
});
