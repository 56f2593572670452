// Slack status API (slack-status.com, docs/mappings.md "Slack status"):
// `/api/v2.0.0/current` → `{status: ok|active, date_created, date_updated, active_incidents[]}`,
// `/api/v2.0.0/history` → a top-level array of the same incident objects.
// Incident `type` is incident | notice | outage (a maintenance type is tolerated),
// `status` active | resolved, `id` a number or a string, `notes[].body` HTML or text.
import { Type, type Static } from '@sinclair/typebox';
import type { Impact, IncidentRecord, Indicator, MaintenanceRecord, SourceSnapshot } from '../../domain/records.ts';
import { AdapterError, defineAdapter, type AdapterInput } from './adapter.ts';
import { parseJsonBody } from './body.ts';
import { INDICATOR_DESCRIPTIONS, newestFirst, recordId } from './mapping.ts';
import { htmlToText } from './text.ts';
import { firstIso, isoOrNull, latestIso, requireIso } from './time.ts';
import { check, Nullable, OptStr } from './validate.ts';

const SOURCE = 'slack-status';

const IncidentSchema = Type.Object({
  id: Type.Union([Type.String(), Type.Number()]),
  title: Type.String(),
  type: OptStr,
  status: OptStr,
  url: OptStr,
  date_created: OptStr,
  date_updated: OptStr,
  services: Type.Optional(Nullable(Type.Array(Type.String()))),
  notes: Type.Optional(Nullable(Type.Array(Type.Object({ date_created: OptStr, body: OptStr })))),
});

const CurrentSchema = Type.Object({
  status: Type.String(),
  date_updated: OptStr,
  active_incidents: Type.Optional(Nullable(Type.Array(IncidentSchema))),
});

const HistorySchema = Type.Array(IncidentSchema);

type RawIncident = Static<typeof IncidentSchema>;

const kind = (i: RawIncident) => (i.type ?? '').trim().toLowerCase();
const isMaintenance = (i: RawIncident) => kind(i).includes('maintenance');

/** outage > incident > notice; unknown types read as notices (docs/mappings.md). */
function slackImpact(type: string | null | undefined): Impact {
  switch ((type ?? '').trim().toLowerCase()) {
    case 'outage':
      return 'major';
    case 'incident':
      return 'minor';
    default:
      return 'none';
  }
}

function pageIndicator(status: string, active: RawIncident[]): Indicator {
  const open = active.filter((i) => (i.status ?? 'active').toLowerCase() !== 'resolved');
  if (status.toLowerCase() === 'ok' || open.length === 0) return 'operational';
  if (open.some((i) => kind(i) === 'outage')) return 'partial_outage';
  if (open.some((i) => kind(i) === 'incident')) return 'degraded';
  if (open.some(isMaintenance)) return 'maintenance';
  return 'operational';
}

/**
 * Slack's notes carry no phase of their own. The incident's `status` is the phase *now*: a
 * resolved incident's newest note is the one that resolved it, every earlier note was
 * written while it was active (docs/mappings.md "Slack status").
 */
function notes<S extends string>(i: RawIncident, phases: { active: S; closed: S }) {
  const dated = newestFirst(
    (i.notes ?? []).flatMap((n) => {
      const at = isoOrNull(n.date_created);
      return at ? [{ body: htmlToText(n.body), createdAt: at }] : [];
    }),
  );
  const closed = (i.status ?? '').toLowerCase() === 'resolved';
  return dated.map((n, index) => {
    const last = closed && index === 0;
    return { status: last ? phases.closed : phases.active, sourceStatus: last ? 'resolved' : 'active', body: n.body, createdAt: n.createdAt };
  });
}

function mapIncident(i: RawIncident, vendor: string): IncidentRecord {
  const resolved = (i.status ?? '').toLowerCase() === 'resolved';
  const status = resolved ? 'resolved' : 'investigating';
  const updates = notes(i, { active: 'investigating', closed: 'resolved' });
  const startedAt = requireIso(`${SOURCE}: incident ${i.id} date_created`, firstIso(isoOrNull(i.date_created), updates.at(-1)?.createdAt));
  const updatedAt = latestIso([isoOrNull(i.date_updated), updates[0]?.createdAt, startedAt]) ?? startedAt;
  return {
    id: recordId(vendor, i.id),
    vendor,
    title: i.title,
    status,
    sourceStatus: i.status ?? 'active',
    impact: slackImpact(i.type),
    startedAt,
    updatedAt,
    resolvedAt: resolved ? updatedAt : null,
    components: [...new Set(i.services ?? [])],
    updates,
    url: i.url ?? null,
    source: SOURCE,
  };
}

function mapMaintenance(i: RawIncident, vendor: string): MaintenanceRecord {
  const done = (i.status ?? '').toLowerCase() === 'resolved';
  const status = done ? 'completed' : 'in_progress';
  const start = requireIso(`${SOURCE}: maintenance ${i.id} date_created`, i.date_created);
  const updated = latestIso([isoOrNull(i.date_updated), start]) ?? start;
  return {
    id: recordId(vendor, i.id),
    vendor,
    title: i.title,
    status,
    sourceStatus: i.status ?? 'active',
    impact: 'none',
    scheduledFor: start,
    scheduledUntil: null,
    startedAt: start,
    completedAt: done ? updated : null,
    components: [...new Set(i.services ?? [])],
    updates: notes(i, { active: 'in_progress', closed: 'completed' }),
    url: i.url ?? null,
    source: SOURCE,
  };
}

function split(list: RawIncident[], vendor: string) {
  return {
    incidents: list.filter((i) => !isMaintenance(i)).map((i) => mapIncident(i, vendor)),
    maintenances: list.filter(isMaintenance).map((i) => mapMaintenance(i, vendor)),
  };
}

export const slackStatusAdapter = defineAdapter('slack-status', (input: AdapterInput): SourceSnapshot => {
  const data = parseJsonBody(SOURCE, input.body, input.contentType);
  if (Array.isArray(data)) {
    // /history: past incidents only; it says nothing about the page's current state.
    return split(check(SOURCE, HistorySchema, data), input.vendor);
  }
  if (typeof data !== 'object' || data === null) throw new AdapterError(`${SOURCE}: expected an object (current) or an array (history)`);
  const current = check(SOURCE, CurrentSchema, data);
  const active = current.active_incidents ?? [];
  const indicator = pageIndicator(current.status, active);
  return {
    status: { indicator, description: INDICATOR_DESCRIPTIONS[indicator] },
    ...split(active, input.vendor),
    incidentsAreCompleteUnresolvedSet: true,
  };
});
