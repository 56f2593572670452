// The bespoke status APIs of single vendors, from our records (demo fleet): Slack's
// `/api/v2.0.0/current`, Heroku's `/api/v4/current-status` and Salesforce Trust's
// `/v1/incidents/active`, each in the shape docs/mappings.md describes.
import type { ComponentRecord, ComponentStatus, Impact, IncidentRecord } from '../../../domain/records.ts';
import { upstreamIdOf } from './ids.ts';

const SLACK_TYPE: Record<Impact, string> = { none: 'notice', minor: 'incident', major: 'outage', critical: 'outage' };

/** Slack dates carry a numeric offset, as the live API sends them. */
const withOffset = (iso: string) => iso.replace(/\.\d{3}Z$/, '+00:00').replace(/Z$/, '+00:00');

export function renderSlackCurrent(input: { updatedAt: string; incidents: IncidentRecord[]; pageUrl: string }): string {
  const open = input.incidents.filter((i) => i.status !== 'resolved');
  return JSON.stringify({
    status: open.length > 0 ? 'active' : 'ok',
    date_created: withOffset(input.updatedAt),
    date_updated: withOffset(input.updatedAt),
    active_incidents: open.map((i) => ({
      id: Number.isInteger(Number(upstreamIdOf(i))) ? Number(upstreamIdOf(i)) : upstreamIdOf(i),
      date_created: withOffset(i.startedAt),
      date_updated: withOffset(i.updatedAt),
      title: i.title,
      type: SLACK_TYPE[i.impact],
      status: 'active',
      url: i.url ?? `${input.pageUrl}/${upstreamIdOf(i)}`,
      services: i.components,
      notes: i.updates.map((u) => ({ date_created: withOffset(u.createdAt), body: `<p>${u.body.replace(/[<>&]/g, '')}</p>` })),
    })),
  });
}

const HEROKU_COLOUR: Record<ComponentStatus, string> = {
  operational: 'green',
  degraded_performance: 'yellow',
  partial_outage: 'yellow',
  major_outage: 'red',
  under_maintenance: 'blue',
  unknown: 'green',
};

const HEROKU_SYSTEMS = ['Apps', 'Data', 'Tools'];

/**
 * Heroku reports three systems only; the fleet's components are folded onto them in
 * order (the worst colour wins), and incidents name the system they hit.
 */
export function renderHerokuCurrentStatus(input: { components: ComponentRecord[]; incidents: IncidentRecord[] }): string {
  const rank = (s: ComponentStatus) => ['green', 'blue', 'yellow', 'red'].indexOf(HEROKU_COLOUR[s]);
  const worst = HEROKU_SYSTEMS.map(() => 'operational' as ComponentStatus);
  input.components.forEach((c, i) => {
    const slot = i % HEROKU_SYSTEMS.length;
    if (rank(c.status) > rank(worst[slot]!)) worst[slot] = c.status;
  });
  const open = input.incidents.filter((i) => i.status !== 'resolved');
  return JSON.stringify({
    status: HEROKU_SYSTEMS.map((system, i) => ({ system, status: HEROKU_COLOUR[worst[i]!] })),
    incidents: open.map((i) => ({
      title: i.title,
      created_at: i.startedAt,
      full_url: i.url ?? `https://status.heroku.example/incidents/${upstreamIdOf(i)}`,
      updates: i.updates.map((u) => ({ update_type: u.status === 'monitoring' ? 'monitoring' : 'update', updated_at: u.createdAt, contents: u.body })),
    })),
    scheduled: [],
  });
}

const TRUST_TYPE: Record<Impact, string> = {
  none: 'informational',
  minor: 'performanceDegradation',
  major: 'serviceDisruption',
  critical: 'serviceDisruption',
};

export function renderTrustActiveIncidents(input: { incidents: IncidentRecord[] }): string {
  const open = input.incidents.filter((i) => i.status !== 'resolved');
  return JSON.stringify(
    open.map((i, n) => ({
      id: Number.isInteger(Number(upstreamIdOf(i))) ? Number(upstreamIdOf(i)) : upstreamIdOf(i),
      message: { pathToResolution: '', actionPlan: '', rootCause: '' },
      externalId: null,
      affectsAll: false,
      isCore: true,
      additionalInformation: null,
      serviceKeys: i.components,
      instanceKeys: [`SIM${n + 1}`],
      IncidentImpacts: [
        {
          id: n + 1,
          startTime: i.startedAt,
          endTime: null,
          serviceIssue: true,
          endUserImpact: true,
          severity: i.impact === 'minor' || i.impact === 'none' ? 'minor' : 'major',
          type: TRUST_TYPE[i.impact],
          createdAt: i.startedAt,
          updatedAt: i.updatedAt,
        },
      ],
      IncidentEvents: i.updates.map((u, k) => ({ id: k + 1, type: 'update', message: u.body, createdAt: u.createdAt, updatedAt: u.createdAt })),
      createdAt: i.startedAt,
      updatedAt: i.updatedAt,
    })),
  );
}
