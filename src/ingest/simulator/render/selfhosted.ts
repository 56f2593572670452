// sorry™ `/api/v1/notices` and Cachet 2.x `/api/v1/incidents` from our records (demo
// fleet), in the shapes docs/mappings.md describes.
import type { IncidentRecord, Indicator, MaintenanceRecord } from '../../../domain/records.ts';
import { upstreamIdOf } from './ids.ts';

const SORRY_PAGE_STATE: Record<Indicator, string> = {
  operational: 'operational',
  degraded: 'degraded',
  partial_outage: 'degraded',
  major_outage: 'degraded',
  maintenance: 'maintenance',
  unknown: 'operational',
};

/** `/api/v1/` (also served as `/api/v1/status`): the page and its state. */
export function renderSorryPage(input: { name: string; url: string; indicator: Indicator; description: string; updatedAt: string }): string {
  return JSON.stringify({
    page: {
      name: input.name,
      state: SORRY_PAGE_STATE[input.indicator],
      state_text: input.description,
      updated_at: input.updatedAt,
      links: { components: `${input.url}/api/v1/components`, notices: `${input.url}/api/v1/notices` },
    },
  });
}

const SORRY_INCIDENT_STATE: Record<string, string> = {
  investigating: 'investigating',
  identified: 'identified',
  monitoring: 'recovering',
  resolved: 'resolved',
};
const SORRY_PLANNED_STATE = { scheduled: 'scheduled', in_progress: 'underway', verifying: 'underway', completed: 'complete' } as const;

export function renderSorryNotices(input: { incidents: IncidentRecord[]; maintenances: MaintenanceRecord[] }): string {
  const unplanned = input.incidents.map((i) => ({
    id: upstreamIdOf(i),
    type: 'unplanned',
    state: SORRY_INCIDENT_STATE[i.sourceStatus] ?? SORRY_INCIDENT_STATE[i.status] ?? 'investigating',
    subject: i.title,
    synopsis: i.updates.at(-1)?.body ?? null,
    url: i.url,
    began_at: i.startedAt,
    ended_at: i.resolvedAt,
    updated_at: i.updatedAt,
    timeline_state: i.status === 'resolved' ? 'past_recent' : 'present',
    latest_update: i.updates[0] ? { content: `<p>${i.updates[0].body.replace(/[<>&]/g, '')}</p>`, created_at: i.updates[0].createdAt } : null,
    components: i.components.map((name) => ({ name })),
  }));
  const planned = input.maintenances.map((m) => ({
    id: upstreamIdOf(m),
    type: 'planned',
    state: SORRY_PLANNED_STATE[m.status],
    subject: m.title,
    synopsis: null,
    url: m.url,
    began_at: m.startedAt,
    begins_at: m.scheduledFor,
    ends_at: m.scheduledUntil,
    ended_at: m.completedAt,
    updated_at: m.updates[0]?.createdAt ?? m.scheduledFor,
    timeline_state: m.status === 'completed' ? 'past_recent' : m.status === 'scheduled' ? 'future' : 'present',
    latest_update: m.updates[0] ? { content: m.updates[0].body, created_at: m.updates[0].createdAt } : null,
    components: m.components.map((name) => ({ name })),
  }));
  return JSON.stringify({ notices: [...unplanned, ...planned], meta: { next_page: null } });
}

const CACHET_STATUS: Record<string, number> = { investigating: 1, identified: 2, monitoring: 3, resolved: 4 };
const CACHET_HUMAN = ['Scheduled', 'Investigating', 'Identified', 'Watching', 'Fixed'];

export function renderCachetIncidents(input: { incidents: IncidentRecord[] }): string {
  const data = input.incidents.map((i) => {
    const status = CACHET_STATUS[i.sourceStatus] ?? CACHET_STATUS[i.status] ?? 1;
    return {
      id: Number.isInteger(Number(upstreamIdOf(i))) ? Number(upstreamIdOf(i)) : upstreamIdOf(i),
      component_id: 0,
      name: i.title,
      status,
      human_status: CACHET_HUMAN[status],
      latest_status: status,
      latest_human_status: CACHET_HUMAN[status],
      visible: 1,
      stickied: false,
      notifications: false,
      message: i.updates[0]?.body ?? '',
      occurred_at: i.startedAt.replace('T', ' ').replace(/\.\d{3}Z$/, ''),
      created_at: i.startedAt.replace('T', ' ').replace(/\.\d{3}Z$/, ''),
      updated_at: i.updatedAt.replace('T', ' ').replace(/\.\d{3}Z$/, ''),
      permalink: i.url,
    };
  });
  return JSON.stringify({
    meta: {
      pagination: { total: data.length, count: data.length, per_page: 20, current_page: 1, total_pages: 1, links: { next_page: null, previous_page: null } },
    },
    data,
  });
}
