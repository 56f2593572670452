// cState status pages (a Hugo theme): every site built with it publishes `/index.json`, made
// by the theme's own template (`layouts/index.json` of cstate/cstate, "apiVersion" 2.0): the
// page's `summaryStatus`, its `systems` each with `status` and the `unresolvedIssues` that
// name it (`title`, `createdAt`, `lastMod`, `permalink`, `severity`, `resolved`,
// `informational`, `resolvedAt`, `affected`). Severity words are the theme's: `down`,
// `disrupted`, `notice` (shown as "Maintenance"), `ok`. Mapping: docs/mappings.md "cState".
import { Type, type Static } from '@sinclair/typebox';
import type { ComponentStatus, Indicator, IncidentRecord, MaintenanceRecord } from '../../domain/records.ts';
import { AdapterError, defineAdapter, type AdapterInput } from './adapter.ts';
import { parseJsonBody } from './body.ts';
import { impactOfComponentStatus, INDICATOR_DESCRIPTIONS, recordId } from './mapping.ts';
import { collapseWhitespace } from './text.ts';
import { isoOrNull, latestIso, requireIso } from './time.ts';
import { check, Nullable, OptStr } from './validate.ts';

const SOURCE = 'cstate';
const MAX_SYSTEMS = 2000;

const IssueSchema = Type.Object({
  title: Type.String(),
  createdAt: Type.String(),
  lastMod: OptStr,
  permalink: OptStr,
  severity: OptStr,
  resolved: Type.Optional(Nullable(Type.Boolean())),
  informational: Type.Optional(Nullable(Type.Boolean())),
  resolvedAt: OptStr,
  affected: Type.Optional(Nullable(Type.Array(Type.String()))),
  filename: OptStr,
});

const PayloadSchema = Type.Object({
  is: Type.Literal('index'),
  summaryStatus: Type.String(),
  systems: Type.Array(
    Type.Object({
      name: Type.String(),
      category: OptStr,
      status: Type.String(),
      unresolvedIssues: Type.Optional(Nullable(Type.Array(IssueSchema))),
    }),
  ),
});

type Issue = Static<typeof IssueSchema>;

/**
 * cState's status words, for a system and for the page: `ok`, `notice` (the theme shows it
 * as "Maintenance"), `disrupted`, `down`; any other word is unknown.
 */
const CSTATE_WORDS: Record<string, { component: ComponentStatus; page: Indicator }> = {
  ok: { component: 'operational', page: 'operational' },
  notice: { component: 'under_maintenance', page: 'maintenance' },
  disrupted: { component: 'partial_outage', page: 'partial_outage' },
  down: { component: 'major_outage', page: 'major_outage' },
};
function wordOf(word: string) {
  const w = word.trim().toLowerCase();
  return Object.hasOwn(CSTATE_WORDS, w) ? CSTATE_WORDS[w] : undefined;
}

/** A system's status word. */
export const cstateComponentStatus = (word: string): ComponentStatus => wordOf(word)?.component ?? 'unknown';

/** The page's summary status word. */
const cstateIndicator = (word: string): Indicator => wordOf(word)?.page ?? 'unknown';

/**
 * Hugo prints a page date as Go does, "2022-11-02 21:57:21.175 +0000 UTC"; `resolvedAt` is the
 * front matter as written, usually ISO-8601. A time without a zone is read as UTC; Hugo's zero
 * date ("0001-01-01 …", a field never set) is no date.
 */
export function cstateTime(value: string | null | undefined): string | null {
  if (typeof value !== 'string') return null;
  const v = value.trim();
  const go = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?)\s*(?:([+-])(\d{2}):?(\d{2})|Z)?(?:\s+[A-Za-z]{1,6})?$/.exec(v);
  let iso: string | null;
  if (go) {
    const time = go[2]!.replace(/(\.\d{3})\d+$/, '$1');
    iso = isoOrNull(`${go[1]}T${time}${go[3] ? `${go[3]}${go[4]}:${go[5]}` : 'Z'}`);
  } else iso = isoOrNull(v);
  return iso && iso >= '1970' ? iso : null;
}

/** An issue is named once per system it affects: its file (else its link, else its title) is its id. */
const issueId = (i: Issue) => collapseWhitespace(i.filename || i.permalink || i.title).slice(0, 200);

function mapIncident(i: Issue, vendor: string): IncidentRecord {
  const id = issueId(i);
  const startedAt = requireIso(`${SOURCE}: issue ${id} createdAt`, cstateTime(i.createdAt));
  const resolved = i.resolved === true;
  const updatedAt = latestIso([cstateTime(i.lastMod), startedAt]) ?? startedAt;
  const severity = (i.severity ?? '').trim().toLowerCase();
  return {
    id: recordId(vendor, id),
    vendor,
    title: collapseWhitespace(i.title) || id,
    status: resolved ? 'resolved' : 'investigating',
    sourceStatus: severity || 'unresolved',
    impact: impactOfComponentStatus(cstateComponentStatus(severity)),
    startedAt,
    updatedAt,
    resolvedAt: resolved ? (cstateTime(i.resolvedAt) ?? updatedAt) : null,
    components: (i.affected ?? []).map(collapseWhitespace).filter(Boolean),
    // The index names no update texts: the issue's page holds them.
    updates: [],
    url: i.permalink && /^https?:\/\//i.test(i.permalink) ? i.permalink : null,
    source: SOURCE,
  };
}

/** A `notice` issue is what the theme shows as maintenance: under way once its date has come. */
function mapMaintenance(i: Issue, vendor: string, now: Date): MaintenanceRecord {
  const id = issueId(i);
  const scheduledFor = requireIso(`${SOURCE}: issue ${id} createdAt`, cstateTime(i.createdAt));
  const over = i.resolved === true;
  const started = !over && new Date(scheduledFor) <= now;
  const status = over ? 'completed' : started ? 'in_progress' : 'scheduled';
  return {
    id: recordId(vendor, id),
    vendor,
    title: collapseWhitespace(i.title) || id,
    status,
    sourceStatus: 'notice',
    impact: 'none',
    scheduledFor,
    scheduledUntil: null,
    startedAt: status === 'scheduled' ? null : scheduledFor,
    completedAt: over ? (cstateTime(i.resolvedAt) ?? scheduledFor) : null,
    components: (i.affected ?? []).map(collapseWhitespace).filter(Boolean),
    updates: [],
    url: i.permalink && /^https?:\/\//i.test(i.permalink) ? i.permalink : null,
    source: SOURCE,
  };
}

export const cstateAdapter = defineAdapter('cstate', (input: AdapterInput) => {
  const data = check(SOURCE, PayloadSchema, parseJsonBody(SOURCE, input.body, input.contentType));
  if (data.systems.length > MAX_SYSTEMS) throw new AdapterError(`${SOURCE}: more than ${MAX_SYSTEMS} systems`, { kind: 'too many components' });
  const seen = new Set<string>();
  const components = [];
  const issues = new Map<string, Issue>();
  for (const s of data.systems) {
    const name = collapseWhitespace(s.name);
    if (!name || seen.has(name)) continue;
    seen.add(name);
    components.push({
      id: name,
      name,
      status: cstateComponentStatus(s.status),
      group: s.category ? collapseWhitespace(s.category) || null : null,
      position: components.length,
    });
    for (const i of s.unresolvedIssues ?? []) if (!issues.has(issueId(i))) issues.set(issueId(i), i);
  }
  const indicator = cstateIndicator(data.summaryStatus);
  const all = [...issues.values()];
  const isNotice = (i: Issue) => (i.severity ?? '').trim().toLowerCase() === 'notice';
  return {
    status: { indicator, description: INDICATOR_DESCRIPTIONS[indicator] },
    components,
    // Every unresolved issue that names a system is listed under it: one no longer listed is over.
    incidents: all.filter((i) => !isNotice(i)).map((i) => mapIncident(i, input.vendor)),
    incidentsAreCompleteUnresolvedSet: true,
    maintenances: all.filter(isNotice).map((i) => mapMaintenance(i, input.vendor, input.now)),
    maintenancesAreCompleteOpenSet: true,
  };
});
