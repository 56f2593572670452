import { nameOf } from '../../domain/record-views.ts';
import { audienceFor } from '../../services/access/audience.ts';
import { describeIndicator } from '../../domain/indicators.ts';
import { z } from 'zod';
import { DEFAULT_PLAN_POLICIES } from '../../domain/plans.ts';
import { IMPACT_RANK, IMPACTS, INCIDENT_STATUSES } from '../../domain/records.ts';
import { defineTool } from '../context.ts';
import { freshness, incidentLine, plural, when } from './format.ts';
import { DataFreshness, DataWindowOut, IncidentOut, IndicatorEnum, openRecords, VendorArg } from './schemas.ts';

/** Every ongoing incident fits in one answer; beyond this the text says how many were left out. */
const ACTIVE_LIMIT = 200;

export const getActiveIncidents = defineTool({
  name: 'get_active_incidents',
  title: 'What is down right now',
  description:
    'Ongoing (not yet resolved) incidents across all watched vendors, worst first, plus vendors whose status page reports a problem ' +
    'without an open incident. Answers "what is down right now?". Optional: `vendors` (slugs or names) and `impact` ' +
    '(minimum impact: none < minor < major < critical). No sign-in needed.',
  inputSchema: {
    vendors: z.array(VendorArg).max(100).optional().describe('Only these vendors'),
    impact: z.enum(IMPACTS).optional().describe('Only incidents with at least this impact'),
  },
  outputSchema: {
    count: z.number().int().describe('Incidents in this answer'),
    total: z.number().int().describe('All ongoing incidents matching the filters'),
    incidents: z.array(IncidentOut),
    vendorsNotOperational: z
      .array(z.object({ vendor: z.string(), vendorName: z.string(), indicator: IndicatorEnum, description: z.string() }))
      .describe('Vendors whose status page reports degradation, an outage or maintenance'),
    ...DataFreshness,
  },
  requiresAuth: false,
  async run({ vendors, impact }, { services, caller, now: ctxNow }) {
    const selected = vendors?.length ? await services.vendorLookup.resolveAll(vendors, audienceFor(caller.viewer)) : undefined;
    const slugs = selected?.map((v) => v.id);
    const [result, statuses, catalog, { lastUpdated, source }, observed] = await Promise.all([
      services.records.incidents({ vendors: slugs, activeOnly: true, limit: ACTIVE_LIMIT, offset: 0 }, caller.viewer),
      services.status.pageStatuses(audienceFor(caller.viewer), slugs),
      services.catalog.list(audienceFor(caller.viewer)),
      services.freshness.current(),
      services.overview.observation(audienceFor(caller.viewer), slugs),
    ]);
    const names = new Map(catalog.map((v) => [v.id, v.name]));
    // A stored row of a vendor without a status source says nothing now (docs/web.md "Not monitored").
    const monitored = new Set(catalog.filter((v) => v.monitored).map((v) => v.id));
    const min = impact ? IMPACT_RANK[impact] : 0;
    // Nor is an incident its gone source left open.
    const observable = result.items.filter((i) => monitored.has(i.vendor));
    const total = result.total - (result.items.length - observable.length);
    const incidents = observable
      .filter((i) => IMPACT_RANK[i.impact] >= min)
      .sort((a, b) => IMPACT_RANK[b.impact] - IMPACT_RANK[a.impact] || (a.startedAt < b.startedAt ? 1 : -1));
    const withIncident = new Set(incidents.map((i) => i.vendor));
    const vendorsNotOperational = [...statuses.entries()]
      .filter(([slug, s]) => monitored.has(slug) && s.indicator !== 'operational' && s.indicator !== 'unknown' && !withIncident.has(slug))
      .map(([slug, s]) => ({ vendor: slug, vendorName: nameOf(names, slug), indicator: s.indicator, description: describeIndicator(s.indicator) }))
      .sort((a, b) => a.vendorName.localeCompare(b.vendorName));

    const now = ctxNow();
    const scope = selected ? ` for ${selected.map((v) => v.name).join(', ')}` : ' across all watched vendors';
    const floor = impact ? ` with impact ${impact} or worse` : '';
    const lines: string[] = [];
    if (incidents.length) {
      const affected = new Set(incidents.map((i) => i.vendor)).size;
      lines.push(`${plural(incidents.length, 'ongoing incident')}${floor} at ${plural(affected, 'vendor')}${scope}:`);
      lines.push(...incidents.map((i) => incidentLine(i, now)));
      const left = total - observable.length;
      if (left > 0) lines.push(`… and ${left} more not shown.`);
    } else {
      lines.push(`No ongoing incidents${observed.notObserved || observed.notMonitored ? ' known' : ''}${floor}${scope}.`);
    }
    if (observed.notObserved) {
      lines.push(`Not observed: ${observed.notObserved} of ${plural(observed.total, 'vendor')} (never read, or stale); an incident there would not show here.`);
    }
    if (observed.notMonitored) {
      lines.push(
        `Not monitored: ${observed.notMonitored} of ${plural(observed.total, 'vendor')} (no machine-readable status source); nothing is known about them here.`,
      );
    }
    if (vendorsNotOperational.length) {
      lines.push('Status pages reporting a problem without an open incident:');
      lines.push(...vendorsNotOperational.map((v) => `- ${v.vendorName}: ${v.description} (${v.indicator})`));
    }
    lines.push(freshness(lastUpdated, source));
    return {
      text: lines.join('\n'),
      data: { count: incidents.length, total, incidents: openRecords(incidents), vendorsNotOperational, lastUpdated, source },
    };
  },
});

export const getIncidentHistory = defineTool({
  name: 'get_incident_history',
  title: 'Incident history',
  description:
    'Past and ongoing incidents of one vendor (or all vendors) over a time window, newest first: what happened, impact, ' +
    'how long it lasted. `timePeriod` is a number followed by d or h (7d, 30d, 90d, 24h); the window is limited by the ' +
    "signed-in user's plan (free 7d, standard 30d, pro 90d, enterprise unlimited) and the answer says when it was shortened. " +
    'Default window: the whole plan window. Requires sign-in (OAuth) or an API key.',
  inputSchema: {
    vendor: VendorArg.optional().describe('Vendor slug or name; omit for all vendors'),
    timePeriod: z.string().trim().max(12).optional().describe('Window such as 7d, 30d, 90d or 24h'),
    status: z.enum(INCIDENT_STATUSES).optional().describe('Only incidents in this state'),
    limit: z.number().int().min(1).max(100).default(20).describe('Most incidents to return (1-100, default 20)'),
  },
  outputSchema: {
    vendor: z.string().nullable(),
    vendorName: z.string().nullable(),
    plan: z.string().describe("The caller's plan"),
    planWindowDays: z.number().int().nullable().describe("The plan's longest window in days (null: unlimited)"),
    dataWindow: DataWindowOut,
    total: z.number().int().describe('Incidents in the window matching the filters'),
    count: z.number().int().describe('Incidents in this answer'),
    incidents: z.array(IncidentOut),
    ...DataFreshness,
  },
  requiresAuth: true,
  async run({ vendor, timePeriod, status, limit }, { services, caller, now: ctxNow }) {
    const v = vendor ? await services.vendorLookup.resolve(vendor, audienceFor(caller.viewer)) : null;
    const plan = caller.viewer.plan;
    const planWindowDays = DEFAULT_PLAN_POLICIES[plan].windowDays;
    const [result, { lastUpdated, source }] = await Promise.all([
      services.records.incidents({ vendors: v ? [v.id] : undefined, status, timePeriod: timePeriod || undefined, limit, offset: 0 }, caller.viewer),
      services.freshness.current(),
    ]);
    const w = result.dataWindow;
    const now = ctxNow();
    const who = v ? v.name : 'all vendors';
    const span = w.since ? `the last ${w.applied} (since ${when(w.since)})` : 'all stored history';
    const lines: string[] = [];
    if (w.capped) {
      lines.push(
        `Note: your ${plan} plan covers ${planWindowDays} days of history, so the requested ${w.requested} was shortened to ${w.applied}. ` +
          'A higher plan covers a longer window.',
      );
    }
    const filter = status ? ` ${status}` : '';
    if (result.items.length) {
      const shown = result.items.length < result.total ? ` (showing the newest ${result.items.length})` : '';
      lines.push(`${plural(result.total, `${status ? `${status} ` : ''}incident`)} for ${who} in ${span}${shown}:`);
      lines.push(...result.items.map((i) => incidentLine(i, now, !v)));
    } else {
      lines.push(`No${filter} incidents for ${who} in ${span}.`);
    }
    lines.push(freshness(lastUpdated, source));
    return {
      text: lines.join('\n'),
      data: {
        vendor: v?.id ?? null,
        vendorName: v?.name ?? null,
        plan,
        planWindowDays,
        dataWindow: { requested: w.requested, applied: w.applied, capped: w.capped, since: w.since },
        total: result.total,
        count: result.items.length,
        incidents: openRecords(result.items),
        lastUpdated,
        source,
      },
    };
  },
});
