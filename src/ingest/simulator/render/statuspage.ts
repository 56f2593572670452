// Statuspage v2 JSON from our records, for the demo fleet: the simulator serves these
// bodies and the real statuspage-v2 adapter reads them back.
import type { ComponentRecord, ComponentStatus, IncidentRecord, Indicator, MaintenanceRecord, RecordUpdate } from '../../../domain/records.ts';
import { escapeText } from '../../../domain/html-escape.ts';
import { incidentStatusFrom, maintenanceStatusFrom } from '../../adapters/mapping.ts';
import { upstreamIdOf } from './ids.ts';

export interface StatuspagePageInfo {
  id: string;
  name: string;
  url: string;
  updatedAt: string;
  timeZone?: string;
}

const STATUSPAGE_INDICATOR: Record<Indicator, string> = {
  operational: 'none',
  degraded: 'minor',
  partial_outage: 'major',
  major_outage: 'critical',
  maintenance: 'maintenance',
  // Statuspage has no "unknown"; claiming nothing is the least misleading.
  unknown: 'none',
};

const COMPONENT_RANK: Record<ComponentStatus, number> = {
  unknown: -1,
  operational: 0,
  under_maintenance: 1,
  degraded_performance: 2,
  partial_outage: 3,
  major_outage: 4,
};

export const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '') || 'x';

function page(p: StatuspagePageInfo) {
  return { id: p.id, name: p.name, url: p.url, time_zone: p.timeZone ?? 'Etc/UTC', updated_at: p.updatedAt };
}

/** The upstream word when it agrees with the normalised status, else the normalised one. */
function incidentWord(r: IncidentRecord): string {
  const w = r.sourceStatus.toLowerCase();
  const known = ['investigating', 'identified', 'monitoring', 'resolved', 'postmortem'];
  return known.includes(w) && incidentStatusFrom(w) === r.status ? w : r.status;
}

function maintenanceWord(r: MaintenanceRecord): string {
  const w = r.sourceStatus.toLowerCase();
  const known = ['scheduled', 'in_progress', 'verifying', 'completed'];
  return known.includes(w) && maintenanceStatusFrom(w) === r.status ? w : r.status;
}

function updates(code: string, list: RecordUpdate[]) {
  return list.map((u, i) => ({
    id: `${code}u${list.length - i}`,
    status: u.status,
    // Statuspage bodies may hold HTML (<br />, links), so readers strip tags: escape ours.
    body: escapeText(u.body),
    incident_id: code,
    created_at: u.createdAt,
    updated_at: u.createdAt,
    display_at: u.createdAt,
    affected_components: null,
  }));
}

function incidentComponents(names: string[], components: ComponentRecord[]) {
  return names.map((name) => {
    const c = components.find((x) => x.name === name);
    return { id: c?.id ?? slug(name), name, status: c?.status ?? 'operational', group_id: null, group: false };
  });
}

function incident(r: IncidentRecord, p: StatuspagePageInfo, components: ComponentRecord[]) {
  const code = upstreamIdOf(r);
  return {
    id: code,
    name: r.title,
    status: incidentWord(r),
    created_at: r.startedAt,
    updated_at: r.updatedAt,
    monitoring_at: r.updates.filter((u) => u.status === 'monitoring').at(-1)?.createdAt ?? null,
    resolved_at: r.resolvedAt,
    impact: r.impact,
    shortlink: r.url,
    started_at: r.startedAt,
    page_id: p.id,
    incident_updates: updates(code, r.updates),
    components: incidentComponents(r.components, components),
  };
}

function maintenance(r: MaintenanceRecord, p: StatuspagePageInfo, components: ComponentRecord[]) {
  const code = upstreamIdOf(r);
  return {
    id: code,
    name: r.title,
    status: maintenanceWord(r),
    created_at: r.updates.at(-1)?.createdAt ?? r.scheduledFor,
    updated_at: r.updates[0]?.createdAt ?? r.scheduledFor,
    monitoring_at: null,
    resolved_at: r.completedAt,
    // Real pages label maintenance windows with the pseudo-impact "maintenance".
    impact: r.impact === 'none' ? 'maintenance' : r.impact,
    shortlink: r.url,
    started_at: r.startedAt ?? r.scheduledFor,
    page_id: p.id,
    incident_updates: updates(code, r.updates),
    components: incidentComponents(r.components, components),
    scheduled_for: r.scheduledFor,
    scheduled_until: r.scheduledUntil,
  };
}

/** Components with group rows; positions restart at 1 within each level, as upstream. */
function componentRows(list: ComponentRecord[], p: StatuspagePageInfo) {
  const ordered = [...list].sort((a, b) => a.position - b.position);
  const out: Record<string, unknown>[] = [];
  const groups = new Map<string, { row: Record<string, unknown>; children: string[]; worst: ComponentStatus }>();
  let top = 0;
  for (const c of ordered) {
    let groupId: string | null = null;
    let position: number;
    if (c.group) {
      let g = groups.get(c.group);
      if (!g) {
        const row = {
          id: `group-${slug(c.group)}`,
          name: c.group,
          status: 'operational',
          position: ++top,
          description: null,
          group_id: null,
          page_id: p.id,
          group: true,
          only_show_if_degraded: false,
          components: [] as string[],
        };
        g = { row, children: row.components, worst: 'operational' };
        groups.set(c.group, g);
        out.push(row);
      }
      g.children.push(c.id);
      if (COMPONENT_RANK[c.status] > COMPONENT_RANK[g.worst]) g.worst = c.status;
      g.row.status = g.worst;
      groupId = String(g.row.id);
      position = g.children.length;
    } else {
      position = ++top;
    }
    out.push({
      id: c.id,
      name: c.name,
      status: c.status,
      position,
      description: null,
      group_id: groupId,
      page_id: p.id,
      group: false,
      only_show_if_degraded: false,
    });
  }
  return out;
}

export interface StatuspageSummaryInput {
  page: StatuspagePageInfo;
  status: { indicator: Indicator; description: string };
  components: ComponentRecord[];
  /** Unresolved incidents (summary.json lists only those). */
  incidents: IncidentRecord[];
  /** Upcoming and in-progress maintenances. */
  maintenances: MaintenanceRecord[];
}

export function renderStatuspageSummary(input: StatuspageSummaryInput): string {
  return JSON.stringify({
    page: page(input.page),
    components: componentRows(input.components, input.page),
    incidents: input.incidents.map((r) => incident(r, input.page, input.components)),
    scheduled_maintenances: input.maintenances.map((r) => maintenance(r, input.page, input.components)),
    status: { indicator: STATUSPAGE_INDICATOR[input.status.indicator], description: input.status.description },
  });
}

export function renderStatuspageIncidents(input: { page: StatuspagePageInfo; incidents: IncidentRecord[]; components?: ComponentRecord[] }): string {
  return JSON.stringify({ page: page(input.page), incidents: input.incidents.map((r) => incident(r, input.page, input.components ?? [])) });
}

export function renderStatuspageMaintenances(input: { page: StatuspagePageInfo; maintenances: MaintenanceRecord[]; components?: ComponentRecord[] }): string {
  return JSON.stringify({
    page: page(input.page),
    scheduled_maintenances: input.maintenances.map((r) => maintenance(r, input.page, input.components ?? [])),
  });
}
