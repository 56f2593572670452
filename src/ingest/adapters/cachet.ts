// Cachet, the self-hosted status page (docs/mappings.md "Cachet"). Reads are public JSON:
//  - 2.x under `/api/v1`: `{meta, data: [...]}` with flat items;
//  - 3.x under `/api`: JSON:API items `{id, type, attributes: {..., status: {human, value}}}`.
// What a URL returns is told by its last path segment: `incidents`, `components`,
// `schedules` (maintenance, 2.4+) or `status` (`{data: {status: success|info|danger, message}}`).
// Numeric enums: component 1 operational, 2 performance issues, 3 partial outage, 4 major
// outage; incident 1 investigating, 2 identified, 3 watching, 4 fixed (0 = scheduled in
// ≤ 2.3, which is maintenance, not an incident); schedule 0 upcoming, 1 in progress, 2 complete.
import { Type, type Static } from '@sinclair/typebox';
import type {
  ComponentStatus,
  IncidentRecord,
  IncidentStatus,
  Indicator,
  MaintenanceRecord,
  MaintenanceStatus,
  RecordUpdate,
  SourceSnapshot,
} from '../../domain/records.ts';
import { AdapterError, defineAdapter, type AdapterInput } from './adapter.ts';
import { parseJsonBody } from './body.ts';
import { indicatorFromComponents, INDICATOR_DESCRIPTIONS, newestFirst, ownWord, recordId } from './mapping.ts';
import { htmlToText } from './text.ts';
import { firstIso, isoOrNull, latestIso, requireIso } from './time.ts';
import { check, Nullable, OptStr } from './validate.ts';

const SOURCE = 'cachet';

const Id = Type.Union([Type.String(), Type.Number()]);
/** 2.x sends a number (sometimes as a string); 3.x an object {human, value}. */
const StatusField = Type.Optional(
  Nullable(Type.Union([Type.Number(), Type.String(), Type.Object({ value: Type.Union([Type.Number(), Type.String()]), human: OptStr })])),
);

/** One entry of an incident's `updates` (2.4 loads them with every incident, newest first). */
const UpdateSchema = Type.Object({
  id: Type.Optional(Nullable(Id)),
  status: StatusField,
  message: OptStr,
  human_status: OptStr,
  created_at: OptStr,
  updated_at: OptStr,
});

const ItemSchema = Type.Object({
  id: Id,
  name: OptStr,
  status: StatusField,
  latest_status: StatusField,
  message: OptStr,
  permalink: OptStr,
  group_id: Type.Optional(Nullable(Id)),
  enabled: Type.Optional(Nullable(Type.Boolean())),
  visible: Type.Optional(Nullable(Type.Union([Type.Number(), Type.Boolean()]))),
  occurred_at: OptStr,
  created_at: OptStr,
  updated_at: OptStr,
  scheduled_at: OptStr,
  completed_at: OptStr,
  updates: Type.Optional(Nullable(Type.Array(Type.Unknown()))),
});

const ListSchema = Type.Object({ data: Type.Array(Type.Record(Type.String(), Type.Unknown())) });
const StatusSchema = Type.Object({ data: Type.Object({ status: Type.String(), message: OptStr }) });

type Item = Static<typeof ItemSchema>;
type Update = Static<typeof UpdateSchema>;

/** A 3.x JSON:API item flattened into the 2.x shape (id kept, attributes lifted). */
function flatten(raw: Record<string, unknown>): unknown {
  const attributes = raw.attributes;
  if (typeof attributes !== 'object' || attributes === null || Array.isArray(attributes)) return raw;
  return { ...(attributes as Record<string, unknown>), id: raw.id };
}

/** Cachet 2.x prints `Y-m-d H:i:s` without a zone; it is read as UTC (docs/mappings.md). */
const when = (value: string | null | undefined) =>
  isoOrNull(typeof value === 'string' && /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}(:\d{2})?$/.test(value.trim()) ? `${value.trim().replace(' ', 'T')}Z` : value);

const code = (s: Item['status']): number | null => {
  const v = typeof s === 'object' && s !== null ? s.value : s;
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v) : NaN;
  return Number.isFinite(n) ? n : null;
};

function cachetComponentStatus(value: number | null): ComponentStatus {
  return (['unknown', 'operational', 'degraded_performance', 'partial_outage', 'major_outage'] as const)[value ?? 0] ?? 'unknown';
}

function cachetIncidentStatus(value: number | null): IncidentStatus {
  if (value === 3) return 'monitoring';
  if (value === 4) return 'resolved';
  return 'investigating';
}

function cachetScheduleStatus(value: number | null): MaintenanceStatus {
  return value === 1 ? 'in_progress' : value === 2 ? 'completed' : 'scheduled';
}

const WORDS: Record<number, string> = { 0: 'scheduled', 1: 'investigating', 2: 'identified', 3: 'watching', 4: 'fixed' };

function items(data: unknown): Item[] {
  const list = check(SOURCE, ListSchema, data).data.map(flatten);
  return check(SOURCE, Type.Array(ItemSchema), list);
}

const word = (value: number | null) => (value === null ? null : (WORDS[value] ?? String(value)));

/**
 * The incident's history: the opening message, then every embedded update with its own
 * status and time, newest first (docs/mappings.md "Cachet"). Posting an update overwrites
 * the incident's own `status`, so once updates exist the opening message's phase is no
 * longer published: it reads as `investigating` with no upstream word.
 */
function history(i: Item, openedAt: string): { updates: RecordUpdate[]; latest: number | null } {
  const raw = (i.updates ?? []).map((u) => (typeof u === 'object' && u !== null && !Array.isArray(u) ? flatten(u as Record<string, unknown>) : u));
  const updates: Update[] = check(`${SOURCE}: incident ${i.id} updates`, Type.Array(UpdateSchema), raw);
  const dated = updates.map((u) => ({ u, at: firstIso(when(u.created_at), when(u.updated_at)) })).filter((d) => d.at !== null);
  const newest = dated.reduce<(typeof dated)[number] | null>((best, d) => (best === null || (d.at ?? '') > (best.at ?? '') ? d : best), null);
  const later = updates.flatMap((u) => {
    const at = firstIso(when(u.created_at), when(u.updated_at));
    const value = code(u.status);
    const body = htmlToText(u.message);
    return at && body ? [{ status: cachetIncidentStatus(value), ...ownWord(word(value)), body, createdAt: at }] : [];
  });
  const opening = htmlToText(i.message);
  const openingValue = later.length === 0 ? code(i.status) : null;
  const first = opening
    ? [
        {
          status: later.length === 0 ? cachetIncidentStatus(openingValue) : ('investigating' as const),
          ...ownWord(word(openingValue)),
          body: opening,
          createdAt: openedAt,
        },
      ]
    : [];
  return { updates: newestFirst([...first, ...later]), latest: newest ? code(newest.u.status) : null };
}

function toIncident(i: Item, vendor: string): IncidentRecord {
  const startedAt = requireIso(`${SOURCE}: incident ${i.id} occurred_at`, firstIso(when(i.occurred_at), when(i.created_at)));
  const { updates, latest } = history(i, firstIso(when(i.created_at), startedAt) ?? startedAt);
  // The newest embedded update's status is the incident's; `latest_status` says the same where sent.
  const value = latest ?? code(i.latest_status) ?? code(i.status);
  const status = cachetIncidentStatus(value);
  const updatedAt = latestIso([when(i.updated_at), updates[0]?.createdAt, startedAt]) ?? startedAt;
  return {
    id: recordId(vendor, i.id),
    vendor,
    title: i.name?.trim() || `Incident ${i.id}`,
    status,
    sourceStatus: WORDS[value ?? 1] ?? String(value),
    impact: 'minor',
    startedAt,
    updatedAt,
    resolvedAt: status === 'resolved' ? updatedAt : null,
    components: [],
    updates,
    url: i.permalink ?? null,
    source: SOURCE,
  };
}

function toMaintenance(i: Item, vendor: string): MaintenanceRecord {
  const status = cachetScheduleStatus(code(i.status));
  const start = requireIso(`${SOURCE}: schedule ${i.id} scheduled_at`, firstIso(when(i.scheduled_at), when(i.occurred_at)));
  const body = htmlToText(i.message);
  const at = latestIso([when(i.updated_at), start]) ?? start;
  return {
    id: recordId(vendor, `schedule-${i.id}`),
    vendor,
    title: i.name?.trim() || `Maintenance ${i.id}`,
    status,
    sourceStatus: ['upcoming', 'in progress', 'complete'][code(i.status) ?? 0] ?? 'upcoming',
    impact: 'none',
    scheduledFor: start,
    scheduledUntil: when(i.completed_at),
    startedAt: status === 'scheduled' ? null : start,
    completedAt: status === 'completed' ? (when(i.completed_at) ?? at) : null,
    components: [],
    updates: body ? [{ status, body, createdAt: at }] : [],
    url: i.permalink ?? null,
    source: SOURCE,
  };
}

const SYSTEM_STATUS: Record<string, Indicator> = { success: 'operational', info: 'degraded', danger: 'major_outage' };

export const cachetAdapter = defineAdapter('cachet', (input: AdapterInput): SourceSnapshot => {
  const path = new URL(input.url, 'https://x.invalid').pathname.replace(/\/+$/, '');
  const data = parseJsonBody(SOURCE, input.body, input.contentType);
  const last = path.split('/').pop() ?? '';
  switch (last) {
    case 'incidents': {
      const list = items(data);
      return {
        incidents: list.filter((i) => code(i.status) !== 0).map((i) => toIncident(i, input.vendor)),
        // Cachet ≤ 2.3 kept maintenance as incidents with status 0.
        maintenances: list
          .filter((i) => code(i.status) === 0)
          .map((i) => toMaintenance({ ...i, scheduled_at: i.scheduled_at ?? i.occurred_at, status: 0 }, input.vendor)),
      };
    }
    case 'schedules':
      return { maintenances: items(data).map((i) => toMaintenance(i, input.vendor)) };
    case 'components': {
      const components = items(data)
        .filter((c) => c.enabled !== false)
        .map((c, position) => ({
          id: String(c.id),
          name: c.name?.trim() || String(c.id),
          status: cachetComponentStatus(code(c.status)),
          group: null,
          position,
        }));
      const indicator = indicatorFromComponents(components.map((c) => c.status));
      return { status: { indicator, description: INDICATOR_DESCRIPTIONS[indicator] }, components };
    }
    case 'status': {
      const { data: s } = check(SOURCE, StatusSchema, data);
      const indicator = SYSTEM_STATUS[s.status.toLowerCase()] ?? 'unknown';
      return { status: { indicator, description: s.message?.trim() || INDICATOR_DESCRIPTIONS[indicator] } };
    }
    default:
      throw new AdapterError(`${SOURCE}: cannot tell what ${path || '/'} returns (expected .../incidents, /components, /schedules or /status)`);
  }
});
