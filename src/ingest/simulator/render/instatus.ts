// Instatus summary.json from our records (demo fleet).
import type { Impact, IncidentRecord, Indicator, MaintenanceRecord } from '../../../domain/records.ts';
import { joinUrl } from '../../adapters/mapping.ts';
import { upstreamIdOf } from './ids.ts';

const PAGE_STATUS: Record<Indicator, string> = {
  operational: 'UP',
  degraded: 'HASISSUES',
  partial_outage: 'PARTIALOUTAGE',
  major_outage: 'MAJOROUTAGE',
  maintenance: 'UNDERMAINTENANCE',
  unknown: 'HASISSUES',
};

// Instatus has no level above MAJOROUTAGE, so critical folds into it.
const IMPACT: Record<Impact, string> = {
  none: 'OPERATIONAL',
  minor: 'MINOROUTAGE',
  major: 'MAJOROUTAGE',
  critical: 'MAJOROUTAGE',
};

const MAINTENANCE_STATUS = { scheduled: 'NOTSTARTEDYET', in_progress: 'INPROGRESS', verifying: 'INPROGRESS', completed: 'COMPLETED' } as const;

function incidentWord(r: IncidentRecord): string {
  const w = r.sourceStatus.toUpperCase();
  return ['INVESTIGATING', 'IDENTIFIED', 'MONITORING', 'RESOLVED'].includes(w) ? w : r.status.toUpperCase();
}

export interface InstatusSummaryInput {
  page: { name: string; url: string };
  indicator: Indicator;
  incidents: IncidentRecord[];
  maintenances: MaintenanceRecord[];
}

export function renderInstatusSummary(input: InstatusSummaryInput): string {
  const body: Record<string, unknown> = {
    page: { name: input.page.name, url: input.page.url, status: PAGE_STATUS[input.indicator] },
    activeIncidents: input.incidents.map((r) => ({
      id: upstreamIdOf(r),
      name: r.title,
      started: r.startedAt,
      status: incidentWord(r),
      impact: IMPACT[r.impact],
      url: r.url ?? joinUrl(input.page.url, upstreamIdOf(r)),
      updatedAt: r.updatedAt,
    })),
  };
  // Live pages omit the key when nothing is scheduled.
  if (input.maintenances.length > 0) {
    body.activeMaintenances = input.maintenances.map((r) => ({
      id: upstreamIdOf(r),
      name: r.title,
      start: r.scheduledFor,
      status: MAINTENANCE_STATUS[r.status],
      duration: r.scheduledUntil ? String(Math.round((new Date(r.scheduledUntil).getTime() - new Date(r.scheduledFor).getTime()) / 60_000)) : null,
      url: r.url ?? joinUrl(input.page.url, upstreamIdOf(r)),
      updatedAt: r.updates[0]?.createdAt ?? r.completedAt ?? r.startedAt ?? r.scheduledFor,
    }));
  }
  return JSON.stringify(body);
}
