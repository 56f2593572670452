// cState pages (a Hugo theme): `<page>/index.json`, rendered by cState's `layouts/index.json`
// template. It holds `summaryStatus`, the systems with their own status and the unresolved
// issues that affect each one (title, severity, creation and last-modified dates, the issue's
// permalink, the systems it affects). Dates are Hugo's rendering of a Go time
// ("2026-07-30 08:00:00 +0000 UTC"). Mapping: docs/mappings.md "cState".
import { Type, type Static } from '@sinclair/typebox';
import type { ComponentStatus, Impact, IncidentRecord, Indicator } from '../../domain/records.ts';
import { defineAdapter, type AdapterInput } from './adapter.ts';
import { parseJsonBody } from './body.ts';
import { INDICATOR_DESCRIPTIONS, recordId } from './mapping.ts';
import { plainLine } from './text.ts';
import { isoOrNull, latestIso, requireIso } from './time.ts';
import { check, Nullable, OptStr } from './validate.ts';

const SOURCE = 'cstate';

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
  summaryStatus: Type.String(),
  systems: Type.Array(
    Type.Object({
      name: Type.String(),
      category: OptStr,
      status: OptStr,
      unresolvedIssues: Type.Optional(Nullable(Type.Array(IssueSchema))),
    }),
  ),
});

type Issue = Static<typeof IssueSchema>;

/**
 * Hugo writes a Go time as `2006-01-02 15:04:05.999999999 -0700 MST`; ISO strings pass
 * through. The zone abbreviation is dropped: the numeric offset before it is the truth.
 */
export function goTimeToIso(value: string | null | undefined): string | null {
  if (typeof value !== 'string') return null;
  const m = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})(\.\d+)? ([+-])(\d{2})(\d{2})(?: [A-Za-z0-9+-]{1,8})?$/.exec(value.trim());
  if (!m) return isoOrNull(value);
  const fraction = m[3] ? m[3].slice(0, 4) : '';
  return isoOrNull(`${m[1]}T${m[2]}${fraction}${m[4]}${m[5]}:${m[6]}`);
}

/** A system's status or an issue's severity: ok, notice, disrupted, down (cState's words). */
export function cstateComponentStatus(word: string | null | undefined): ComponentStatus {
  switch ((word ?? '').trim().toLowerCase()) {
    case 'ok':
    case 'notice':
      // A notice is an announcement; the system itself is not said to be impaired.
      return 'operational';
    case 'disrupted':
      return 'partial_outage';
    case 'down':
      return 'major_outage';
    default:
      return 'unknown';
  }
}

function cstateIndicator(word: string): Indicator {
  switch (word.trim().toLowerCase()) {
    case 'ok':
    case 'notice':
      return 'operational';
    case 'disrupted':
      return 'partial_outage';
    case 'down':
      return 'major_outage';
    default:
      return 'unknown';
  }
}

const impactOf = (severity: string | null | undefined): Impact => {
  const s = (severity ?? '').trim().toLowerCase();
  return s === 'down' ? 'major' : s === 'disrupted' ? 'minor' : 'none';
};

function mapIssue(issue: Issue, vendor: string): IncidentRecord {
  const key = issue.filename || issue.permalink || `${issue.title}@${issue.createdAt}`;
  const startedAt = requireIso(`${SOURCE}: issue createdAt`, goTimeToIso(issue.createdAt));
  const resolvedAt = issue.resolved === true ? (goTimeToIso(issue.resolvedAt) ?? goTimeToIso(issue.lastMod) ?? startedAt) : null;
  const severity = (issue.severity ?? '').trim();
  return {
    id: recordId(vendor, key),
    vendor,
    title: plainLine(issue.title),
    status: resolvedAt ? 'resolved' : 'investigating',
    // cState names no phase: its own word for an issue is its severity.
    sourceStatus: resolvedAt ? 'resolved' : severity || 'unresolved',
    impact: impactOf(issue.severity),
    startedAt,
    updatedAt: latestIso([goTimeToIso(issue.lastMod), resolvedAt, startedAt]) ?? startedAt,
    resolvedAt,
    components: [...new Set((issue.affected ?? []).map(plainLine).filter(Boolean))],
    updates: [],
    url: issue.permalink && /^https?:\/\//i.test(issue.permalink) ? issue.permalink : null,
    source: SOURCE,
  };
}

export const cstateAdapter = defineAdapter('cstate', (input: AdapterInput) => {
  const data = check(SOURCE, PayloadSchema, parseJsonBody(SOURCE, input.body, input.contentType));
  const indicator = cstateIndicator(data.summaryStatus);
  const seen = new Set<string>();
  const incidents: IncidentRecord[] = [];
  const components = data.systems.map((s, position) => {
    for (const issue of s.unresolvedIssues ?? []) {
      const record = mapIssue(issue, input.vendor);
      if (seen.has(record.id)) continue;
      seen.add(record.id);
      incidents.push(record);
    }
    const name = plainLine(s.name) || `system ${position + 1}`;
    return { id: name, name, status: cstateComponentStatus(s.status), group: s.category ? plainLine(s.category) || null : null, position };
  });
  return {
    status: { indicator, description: INDICATOR_DESCRIPTIONS[indicator] },
    components,
    incidents,
    // Every unresolved issue that affects a listed system is in the document.
    incidentsAreCompleteUnresolvedSet: true,
  };
});
