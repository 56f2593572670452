// incident.io `/proxy/<host>` widget JSON from our records (demo fleet). The widget
// only shows what is live, so resolved incidents and completed maintenances are left out.
import type { ComponentRecord, ComponentStatus, Impact, IncidentRecord, MaintenanceRecord, RecordUpdate } from '../../../domain/records.ts';
import { upstreamIdOf } from './ids.ts';
import { slug } from './statuspage.ts';

const INCIDENTIO_STATUS: Record<ComponentStatus, string> = {
  operational: 'operational',
  degraded_performance: 'degraded_performance',
  partial_outage: 'partial_outage',
  major_outage: 'full_outage',
  under_maintenance: 'under_maintenance',
  unknown: 'operational',
};

const IMPACT_STATUS: Record<Impact, string | null> = {
  none: null,
  minor: 'degraded_performance',
  major: 'partial_outage',
  critical: 'full_outage',
};

/** A message in incident.io's rich-text document form. */
const richText = (text: string) => ({
  text_node: { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text }] }] },
});

const updates = (list: RecordUpdate[]) =>
  list.map((u, i) => ({ id: `u${list.length - i}`, message: richText(u.body), published_at: u.createdAt, status: u.status }));

export interface IncidentioWidgetInput {
  page: { id?: string; name: string; url: string };
  components: ComponentRecord[];
  incidents: IncidentRecord[];
  maintenances: MaintenanceRecord[];
}

export function renderIncidentioWidget(input: IncidentioWidgetInput): string {
  const idOf = (name: string) => input.components.find((c) => c.name === name)?.id ?? slug(name);
  const ordered = [...input.components].sort((a, b) => a.position - b.position);
  const items: Record<string, unknown>[] = [];
  const groups = new Map<string, { component_id: string; name: string }[]>();
  for (const c of ordered) {
    const ref = { component_id: c.id, name: c.name };
    if (!c.group) {
      items.push({ component: ref });
      continue;
    }
    let children = groups.get(c.group);
    if (!children) {
      children = [];
      groups.set(c.group, children);
      items.push({ group: { id: `group-${slug(c.group)}`, name: c.group, components: children } });
    }
    children.push(ref);
  }
  const open = input.incidents.filter((r) => r.status !== 'resolved');
  const maintenanceEvent = (r: MaintenanceRecord) => ({
    id: upstreamIdOf(r),
    name: r.title,
    status: r.status === 'scheduled' ? 'maintenance_scheduled' : 'maintenance_in_progress',
    url: r.url,
    starts_at: r.scheduledFor,
    ...(r.startedAt ? { started_at: r.startedAt } : {}),
    ends_at: r.scheduledUntil,
    affected_components: r.components.map((name) => ({ component_id: idOf(name), name, status: 'under_maintenance' })),
    updates: updates(r.updates),
  });
  return JSON.stringify({
    summary: {
      id: input.page.id ?? slug(input.page.name),
      name: input.page.name,
      public_url: input.page.url,
      components: ordered.map((c) => ({ id: c.id, name: c.name })),
      affected_components: ordered
        .filter((c) => c.status !== 'operational' && c.status !== 'unknown')
        .map((c) => ({ component_id: c.id, status: INCIDENTIO_STATUS[c.status] })),
      structure: { items },
      ongoing_incidents: open.map((r) => {
        const impactStatus = IMPACT_STATUS[r.impact];
        return {
          id: upstreamIdOf(r),
          name: r.title,
          status: ['investigating', 'identified', 'monitoring'].includes(r.sourceStatus) ? r.sourceStatus : r.status,
          url: r.url,
          published_at: r.startedAt,
          last_update_at: r.updatedAt,
          ...(impactStatus ? { current_worst_impact: impactStatus } : {}),
          affected_components: r.components.map((name) => ({ component_id: idOf(name), name })),
          component_impacts: impactStatus ? r.components.map((name) => ({ component_id: idOf(name), status: impactStatus, start_at: r.startedAt })) : [],
          updates: updates(r.updates),
        };
      }),
      in_progress_maintenances: input.maintenances.filter((r) => r.status === 'in_progress' || r.status === 'verifying').map(maintenanceEvent),
      scheduled_maintenances: input.maintenances.filter((r) => r.status === 'scheduled').map(maintenanceEvent),
    },
  });
}
