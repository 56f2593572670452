// status.io public status API: `GET https://api.status.io/1.0/status/<page_id>` answers
// `{result: {status_overall, status[], incidents[], maintenance: {active[], upcoming[]}}}`.
// Every status word comes with a numeric code on one scale (docs/mappings.md, status.io):
// 100 operational, 200 planned maintenance, 300 degraded, 400 partial disruption,
// 500 disruption, 600 security event. Incident messages carry a lifecycle `state`
// (100 investigating, 200 identified, 300 monitoring, 400 resolved).
import { Type, type Static } from '@sinclair/typebox';
import type { ComponentRecord, ComponentStatus, Impact, IncidentRecord, Indicator, MaintenanceRecord, SourceSnapshot } from '../../domain/records.ts';
import { defineAdapter, type AdapterInput } from './adapter.ts';
import { parseJsonBody } from './body.ts';
import { INDICATOR_DESCRIPTIONS, newestFirst, ownWord, recordId, worstImpact } from './mapping.ts';
import { htmlToText } from './text.ts';
import { firstIso, isoOrNull, latestIso, requireIso } from './time.ts';
import { check, Nullable, OptStr } from './validate.ts';

const SOURCE = 'statusio';

const Code = Type.Optional(Nullable(Type.Number()));
const NamedRef = Type.Object({ name: OptStr, _id: OptStr });

const MessageSchema = Type.Object({ details: OptStr, state: Code, status: Code, datetime: OptStr });

const EventSchema = Type.Object({
  _id: Type.String(),
  name: Type.String(),
  datetime_open: OptStr,
  datetime_planned_start: OptStr,
  datetime_planned_end: OptStr,
  status_code: Code,
  messages: Type.Optional(Nullable(Type.Array(MessageSchema))),
  components_affected: Type.Optional(Nullable(Type.Array(NamedRef))),
  containers_affected: Type.Optional(Nullable(Type.Array(NamedRef))),
});

const DocumentSchema = Type.Object({
  result: Type.Object({
    status_overall: Type.Object({ status: OptStr, status_code: Type.Number(), updated: OptStr }),
    status: Type.Optional(Nullable(Type.Array(Type.Object({ id: OptStr, name: Type.String(), status: OptStr, status_code: Type.Number() })))),
    incidents: Type.Optional(Nullable(Type.Array(EventSchema))),
    maintenance: Type.Optional(
      Nullable(
        Type.Object({
          active: Type.Optional(Nullable(Type.Array(EventSchema))),
          upcoming: Type.Optional(Nullable(Type.Array(EventSchema))),
        }),
      ),
    ),
  }),
});

type RawEvent = Static<typeof EventSchema>;

/** The 100–600 service scale, rounded down to its hundred. */
const band = (code: number | null | undefined) => (typeof code === 'number' ? Math.floor(code / 100) * 100 : 0);

/** The scale, read by hundreds: page indicator and component status of each band. */
const SCALE: Record<number, [Indicator, ComponentStatus]> = {
  100: ['operational', 'operational'],
  200: ['maintenance', 'under_maintenance'],
  300: ['degraded', 'degraded_performance'],
  400: ['partial_outage', 'partial_outage'],
  500: ['major_outage', 'major_outage'],
  600: ['major_outage', 'major_outage'],
};

export const statusioIndicator = (code: number | null | undefined): Indicator => SCALE[band(code)]?.[0] ?? 'unknown';

export const statusioComponentStatus = (code: number | null | undefined): ComponentStatus => SCALE[band(code)]?.[1] ?? 'unknown';

const IMPACT_OF_CODE: Record<number, Impact> = { 300: 'minor', 400: 'major', 500: 'critical', 600: 'major' };

/** Message lifecycle state → our incident status word. */
const STATE_WORD: Record<number, string> = { 100: 'investigating', 200: 'identified', 300: 'monitoring', 400: 'resolved' };

const names = (refs: { name?: string | null }[] | null | undefined) => [...new Set((refs ?? []).map((r) => r.name).filter((n): n is string => !!n))];

function messages(e: RawEvent, word: (state: number | null | undefined) => string) {
  return newestFirst(
    (e.messages ?? []).flatMap((m) => {
      const at = isoOrNull(m.datetime);
      return at ? [{ status: word(m.state), ...ownWord(STATE_WORD[band(m.state)]), body: htmlToText(m.details), createdAt: at }] : [];
    }),
  );
}

function mapIncident(e: RawEvent, vendor: string): IncidentRecord {
  const updates = messages(e, (s) => STATE_WORD[band(s)] ?? 'investigating');
  const latest = (e.messages ?? []).map((m) => ({ m, at: isoOrNull(m.datetime) ?? '' })).sort((a, b) => (a.at < b.at ? 1 : -1))[0]?.m;
  const stateWord = STATE_WORD[band(latest?.state ?? e.status_code)] ?? 'investigating';
  const startedAt = requireIso(`${SOURCE}: incident ${e._id} datetime_open`, firstIso(isoOrNull(e.datetime_open), updates.at(-1)?.createdAt));
  const updatedAt = latestIso([updates[0]?.createdAt, startedAt]) ?? startedAt;
  const resolved = stateWord === 'resolved';
  return {
    id: recordId(vendor, e._id),
    vendor,
    title: e.name,
    status: resolved ? 'resolved' : stateWord === 'monitoring' ? 'monitoring' : 'investigating',
    sourceStatus: stateWord,
    impact: worstImpact(
      (e.messages ?? []).map((m) => IMPACT_OF_CODE[band(m.status)] ?? 'none').filter((i) => i !== 'none'),
      'minor',
    ),
    startedAt,
    updatedAt,
    resolvedAt: resolved ? updatedAt : null,
    components: names([...(e.components_affected ?? []), ...(e.containers_affected ?? [])]),
    updates,
    url: null,
    source: SOURCE,
  };
}

function mapMaintenance(e: RawEvent, list: 'active' | 'upcoming', vendor: string): MaintenanceRecord {
  const start = requireIso(`${SOURCE}: maintenance ${e._id} datetime_planned_start`, firstIso(isoOrNull(e.datetime_planned_start), isoOrNull(e.datetime_open)));
  const status = list === 'active' ? 'in_progress' : 'scheduled';
  return {
    id: recordId(vendor, e._id),
    vendor,
    title: e.name,
    status,
    sourceStatus: list,
    impact: 'none',
    scheduledFor: start,
    scheduledUntil: isoOrNull(e.datetime_planned_end),
    startedAt: status === 'in_progress' ? start : null,
    completedAt: null,
    components: names([...(e.components_affected ?? []), ...(e.containers_affected ?? [])]),
    updates: messages(e, () => status),
    url: null,
    source: SOURCE,
  };
}

export const statusioAdapter = defineAdapter('statusio', (input: AdapterInput): SourceSnapshot => {
  const { result } = check(SOURCE, DocumentSchema, parseJsonBody(SOURCE, input.body, input.contentType));
  const components: ComponentRecord[] = (result.status ?? []).map((c, position) => ({
    id: c.id ?? c.name,
    name: c.name,
    status: statusioComponentStatus(c.status_code),
    group: null,
    position,
  }));
  const indicator = statusioIndicator(result.status_overall.status_code);
  return {
    status: { indicator, description: result.status_overall.status?.trim() || INDICATOR_DESCRIPTIONS[indicator] },
    components,
    incidents: (result.incidents ?? []).map((e) => mapIncident(e, input.vendor)),
    maintenances: [
      ...(result.maintenance?.active ?? []).map((e) => mapMaintenance(e, 'active', input.vendor)),
      ...(result.maintenance?.upcoming ?? []).map((e) => mapMaintenance(e, 'upcoming', input.vendor)),
    ],
    // The endpoint lists the page's current incidents only.
    incidentsAreCompleteUnresolvedSet: true,
  };
});
