// status.io `GET /1.0/status/<page_id>` from our records (demo fleet), in the shape
// docs/mappings.md describes: codes on the 100–600 scale, messages newest first.
import type { ComponentRecord, ComponentStatus, Impact, IncidentRecord, Indicator, MaintenanceRecord } from '../../../domain/records.ts';
import { upstreamIdOf } from './ids.ts';

const COMPONENT_CODE: Record<ComponentStatus, [number, string]> = {
  operational: [100, 'Operational'],
  under_maintenance: [200, 'Planned Maintenance'],
  degraded_performance: [300, 'Degraded Performance'],
  partial_outage: [400, 'Partial Service Disruption'],
  major_outage: [500, 'Service Disruption'],
  unknown: [100, 'Operational'],
};

const INDICATOR_CODE: Record<Indicator, ComponentStatus> = {
  operational: 'operational',
  maintenance: 'under_maintenance',
  degraded: 'degraded_performance',
  partial_outage: 'partial_outage',
  major_outage: 'major_outage',
  unknown: 'operational',
};

const IMPACT_CODE: Record<Impact, number> = { none: 100, minor: 300, major: 400, critical: 500 };
const STATE_CODE: Record<string, number> = { investigating: 100, identified: 200, monitoring: 300, resolved: 400 };

export interface StatusioInput {
  indicator: Indicator;
  updatedAt: string;
  components: ComponentRecord[];
  incidents: IncidentRecord[];
  maintenances: MaintenanceRecord[];
}

const refs = (names: string[]) => names.map((name) => ({ name, _id: name.toLowerCase().replace(/[^a-z0-9]+/g, '') }));

export function renderStatusio(input: StatusioInput): string {
  const [code, word] = COMPONENT_CODE[INDICATOR_CODE[input.indicator]];
  const maintenance = (m: MaintenanceRecord) => ({
    _id: upstreamIdOf(m),
    name: m.title,
    datetime_open: m.scheduledFor,
    datetime_planned_start: m.scheduledFor,
    datetime_planned_end: m.scheduledUntil,
    messages: m.updates.map((u) => ({ details: u.body, state: 100, status: 200, datetime: u.createdAt })),
    components_affected: refs(m.components),
    containers_affected: [],
  });
  return JSON.stringify({
    result: {
      status_overall: { updated: input.updatedAt, status: word, status_code: code },
      status: input.components.map((c) => ({
        id: c.id,
        name: c.name,
        status: COMPONENT_CODE[c.status][1],
        status_code: COMPONENT_CODE[c.status][0],
        updated: input.updatedAt,
        containers: [
          { id: `${c.id}-global`, name: 'Global', updated: input.updatedAt, status: COMPONENT_CODE[c.status][1], status_code: COMPONENT_CODE[c.status][0] },
        ],
      })),
      incidents: input.incidents
        .filter((i) => i.status !== 'resolved')
        .map((i) => ({
          _id: upstreamIdOf(i),
          name: i.title,
          datetime_open: i.startedAt,
          status_code: STATE_CODE[i.sourceStatus] ?? STATE_CODE[i.status] ?? 100,
          messages: i.updates.map((u) => ({
            details: u.body,
            state: STATE_CODE[u.status] ?? 100,
            status: IMPACT_CODE[i.impact],
            datetime: u.createdAt,
          })),
          components_affected: refs(i.components),
          containers_affected: [],
        })),
      maintenance: {
        active: input.maintenances.filter((m) => m.status === 'in_progress' || m.status === 'verifying').map(maintenance),
        upcoming: input.maintenances.filter((m) => m.status === 'scheduled').map(maintenance),
      },
    },
  });
}
