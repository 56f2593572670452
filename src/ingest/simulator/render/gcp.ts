// Google Cloud incidents.json from our records (demo fleet).
import type { Impact, IncidentRecord } from '../../../domain/records.ts';
import { upstreamIdOf } from './ids.ts';
import { slug } from './statuspage.ts';

const STATUS_IMPACT: Record<Impact, string> = {
  none: 'SERVICE_INFORMATION',
  minor: 'SERVICE_INFORMATION',
  major: 'SERVICE_DISRUPTION',
  critical: 'SERVICE_OUTAGE',
};
const SEVERITY: Record<Impact, string> = { none: 'low', minor: 'low', major: 'medium', critical: 'high' };

export function renderGcpIncidents(incidents: IncidentRecord[]): string {
  return JSON.stringify(
    incidents.map((r, index) => {
      const id = upstreamIdOf(r);
      const statusImpact = STATUS_IMPACT[r.impact];
      const updates = r.updates.map((u) => ({
        created: u.createdAt,
        modified: u.createdAt,
        when: u.createdAt,
        text: u.body,
        // GCP closes an incident with AVAILABLE; every other update repeats the impact.
        status: u.status === 'resolved' ? 'AVAILABLE' : statusImpact,
        affected_locations: [],
      }));
      const products = r.components.map((title) => ({ title, id: slug(title) }));
      return {
        id,
        number: String(1_000_000 + incidents.length - index),
        begin: r.startedAt,
        created: r.startedAt,
        end: r.resolvedAt ?? undefined,
        modified: r.updatedAt,
        external_desc: r.title,
        updates,
        // The closing word must be on the most recent update, or readers see it as open.
        most_recent_update: updates[0] ? { ...updates[0], status: r.status === 'resolved' ? 'AVAILABLE' : updates[0].status } : null,
        status_impact: statusImpact,
        severity: SEVERITY[r.impact],
        service_key: products[0]?.id ?? 'multiple-products',
        service_name: products.length === 1 ? products[0]!.title : 'Multiple Products',
        affected_products: products,
        uri: `incidents/${id}`,
        currently_affected_locations: [],
        previously_affected_locations: [],
      };
    }),
  );
}
