// Hund-hosted status pages. Hund's REST API needs an API key; what a page publishes to anyone
// is its live event stream (Hund's "Live Event Streams" documentation, version 2):
// `https://<page>/live/v2/status_page`, server-sent events that open with an `init_event`
// holding the page's `state` and its relevant `issues`. The poller reads the stream until that
// first event is complete and closes it (docs/mappings.md "Hund"); this adapter reads that event.
import { Type, type Static } from '@sinclair/typebox';
import type { Impact, Indicator, IncidentRecord, MaintenanceRecord } from '../../domain/records.ts';
import { firstServerSentEvent, HUND_INIT_EVENT } from '../../domain/server-sent-events.ts';
import { AdapterError, defineAdapter, type AdapterInput } from './adapter.ts';
import { decodeBody, parseJsonText } from './body.ts';
import { INDICATOR_DESCRIPTIONS, incidentStatusFrom, newestFirst, recordId } from './mapping.ts';
import { collapseWhitespace, htmlToText } from './text.ts';
import { epochSecondsToIso, isoOrNull, latestIso, requireIso } from './time.ts';
import { check, Nullable, OptStr } from './validate.ts';

const SOURCE = 'hund';
const Time = Type.Union([Type.Number(), Type.String()]);

const ComponentSchema = Type.Union([Type.String(), Type.Object({ id: OptStr, name: Type.String(), state: Type.Optional(Nullable(Type.String())) })]);

const IssueSchema = Type.Object({
  id: Type.String(),
  title: Type.String(),
  body: OptStr,
  label: OptStr,
  // Version 1 of the stream names one component; version 2 lists them.
  component: OptStr,
  components: Type.Optional(Nullable(Type.Array(ComponentSchema))),
  standing: Type.Optional(Nullable(Type.Boolean())),
  scheduled: Type.Optional(Nullable(Type.Boolean())),
  created_at: Time,
  starts_at: Type.Optional(Nullable(Time)),
  ends_at: Type.Optional(Nullable(Time)),
  updates: Type.Optional(Nullable(Type.Array(Type.Object({ body: OptStr, label: OptStr, created_at: Type.Optional(Nullable(Time)) })))),
});

const InitSchema = Type.Object({ state: Type.String(), issues: Type.Array(IssueSchema) });

type Issue = Static<typeof IssueSchema>;

/** Hund times are epoch seconds in its examples; an ISO string is read too. */
const timeOf = (v: number | string | null | undefined): string | null =>
  typeof v === 'number' || (typeof v === 'string' && /^\d{9,11}(\.\d+)?$/.test(v.trim())) ? epochSecondsToIso(v) : isoOrNull(v);

/** A page's state is its worst component's: 1 operational, 0 degraded, -1 outage (Hund's glossary). */
export function hundIndicator(state: string): Indicator {
  switch (state.trim().toLowerCase()) {
    case 'operational':
      return 'operational';
    case 'degraded':
      return 'degraded';
    case 'outage':
      // The worst component is out; the page as a whole is not known to be.
      return 'partial_outage';
    default:
      return 'unknown';
  }
}

const componentsOf = (i: Issue) => {
  const names = new Set<string>();
  if (i.component) names.add(collapseWhitespace(i.component));
  for (const c of i.components ?? []) names.add(collapseWhitespace(typeof c === 'string' ? c : c.name));
  names.delete('');
  return [...names];
};

function impactOf(i: Issue): Impact {
  const states = (i.components ?? []).map((c) => (typeof c === 'string' ? '' : (c.state ?? '').toLowerCase()));
  if (states.includes('outage')) return 'major';
  return 'minor';
}

const updatesOf = (i: Issue, fallback: string) =>
  newestFirst(
    [
      { label: i.label, body: i.body, at: timeOf(i.created_at) },
      ...(i.updates ?? []).map((u) => ({ label: u.label, body: u.body, at: timeOf(u.created_at) })),
    ].map((u) => ({
      status: incidentStatusFrom(u.label),
      ...(u.label ? { sourceStatus: u.label } : {}),
      body: htmlToText(u.body),
      createdAt: u.at ?? fallback,
    })),
  );

/** "Information" issues are announcements: over as soon as posted (Hund's issue labels). */
const isOver = (i: Issue) => i.standing === false || /^(resolved|information)$/i.test((i.label ?? '').trim());

function mapIncident(i: Issue, vendor: string): IncidentRecord {
  const startedAt = requireIso(`${SOURCE}: issue ${i.id} created_at`, timeOf(i.starts_at) ?? timeOf(i.created_at));
  const updates = updatesOf(i, startedAt);
  const resolved = isOver(i);
  const latest = updates[0];
  const updatedAt = latestIso([latest?.createdAt, startedAt]) ?? startedAt;
  return {
    id: recordId(vendor, i.id),
    vendor,
    title: collapseWhitespace(i.title),
    status: resolved ? 'resolved' : latest?.status === 'monitoring' ? 'monitoring' : 'investigating',
    sourceStatus: i.label ?? (resolved ? 'resolved' : 'standing'),
    impact: impactOf(i),
    startedAt,
    updatedAt,
    resolvedAt: resolved ? (timeOf(i.ends_at) ?? updatedAt) : null,
    components: componentsOf(i),
    updates,
    url: null,
    source: SOURCE,
  };
}

function mapMaintenance(i: Issue, vendor: string, now: Date): MaintenanceRecord {
  const scheduledFor = requireIso(`${SOURCE}: issue ${i.id} starts_at`, timeOf(i.starts_at) ?? timeOf(i.created_at));
  const until = timeOf(i.ends_at);
  const over = isOver(i) || (until !== null && new Date(until) <= now);
  const started = !over && new Date(scheduledFor) <= now;
  return {
    id: recordId(vendor, i.id),
    vendor,
    title: collapseWhitespace(i.title),
    status: over ? 'completed' : started ? 'in_progress' : 'scheduled',
    sourceStatus: i.label ?? 'scheduled',
    impact: 'none',
    scheduledFor,
    scheduledUntil: until,
    startedAt: over || started ? scheduledFor : null,
    completedAt: over ? (until ?? scheduledFor) : null,
    components: componentsOf(i),
    updates: updatesOf(i, scheduledFor).map((u) => ({ ...u, status: over ? 'completed' : started ? 'in_progress' : 'scheduled' })),
    url: null,
    source: SOURCE,
  };
}

export const hundAdapter = defineAdapter('hund', (input: AdapterInput) => {
  // The poll stops reading mid-stream, perhaps inside a character of the next event: only the
  // bytes up to the last blank line (ASCII, so never inside a character) are decoded. Empty
  // bodies, bad UTF-8 and byte-order marks are refused as for every format.
  const end = Math.max(input.body.lastIndexOf('\n\n') + 2, input.body.lastIndexOf('\r\n\r\n') + 4);
  const text = decodeBody(SOURCE, end > 4 ? input.body.subarray(0, end) : input.body, input.contentType);
  const init = firstServerSentEvent(text, HUND_INIT_EVENT);
  if (!init) throw new AdapterError(`${SOURCE}: no complete ${HUND_INIT_EVENT} in the stream`, { kind: 'unrecognised payload' });
  const payload = check(SOURCE, InitSchema, parseJsonText(SOURCE, init.data));
  const indicator = hundIndicator(payload.state);
  const incidents = payload.issues.filter((i) => !i.scheduled).map((i) => mapIncident(i, input.vendor));
  return {
    status: { indicator, description: INDICATOR_DESCRIPTIONS[indicator] },
    // The opening event holds the page's issues as they stand now: an issue no longer in it is over.
    incidents,
    incidentsAreCompleteUnresolvedSet: true,
    maintenances: payload.issues.filter((i) => i.scheduled).map((i) => mapMaintenance(i, input.vendor, input.now)),
  };
});
