// Vocabulary shared by several formats (Statuspage's words are the lingua franca:
// incident.io, Instatus webhooks and Better Stack all echo them). docs/mappings.md
// holds the same tables in prose.
import {
  COMPONENT_STATUSES,
  IMPACT_RANK,
  type ComponentStatus,
  type Impact,
  type IncidentStatus,
  type Indicator,
  type MaintenanceStatus,
} from '../../domain/records.ts';

const norm = (word: string | null | undefined) =>
  (word ?? '')
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');

/**
 * investigating/identified → investigating, monitoring → monitoring,
 * resolved/postmortem/completed → resolved. Unknown words count as ongoing unless
 * the caller knows the incident ended (`resolvedHint`).
 */
export function incidentStatusFrom(word: string | null | undefined, resolvedHint = false): IncidentStatus {
  switch (norm(word)) {
    case 'investigating':
    case 'identified':
      return 'investigating';
    case 'monitoring':
      return 'monitoring';
    case 'resolved':
    case 'postmortem':
    case 'completed':
    case 'closed':
      return 'resolved';
    default:
      return resolvedHint ? 'resolved' : 'investigating';
  }
}

export function maintenanceStatusFrom(word: string | null | undefined, completedHint = false): MaintenanceStatus {
  switch (norm(word)) {
    case 'scheduled':
    case 'maintenance_scheduled':
    case 'notstartedyet':
      return 'scheduled';
    case 'in_progress':
    case 'inprogress':
    case 'maintenance_in_progress':
      return 'in_progress';
    case 'verifying':
      return 'verifying';
    case 'completed':
    case 'complete':
    case 'maintenance_complete':
    case 'resolved':
      return 'completed';
    default:
      return completedHint ? 'completed' : 'scheduled';
  }
}

/** Statuspage impact words. `maintenance` is not an outage level, so it reads as `none`. */
export function impactFrom(word: string | null | undefined): Impact {
  switch (norm(word)) {
    case 'minor':
      return 'minor';
    case 'major':
      return 'major';
    case 'critical':
      return 'critical';
    default:
      return 'none';
  }
}

/** Statuspage page indicator → our Indicator. */
export function indicatorFrom(word: string | null | undefined): Indicator {
  switch (norm(word)) {
    case 'none':
      return 'operational';
    case 'minor':
      return 'degraded';
    case 'major':
      return 'partial_outage';
    case 'critical':
      return 'major_outage';
    case 'maintenance':
    case 'under_maintenance':
      return 'maintenance';
    default:
      return 'unknown';
  }
}

/** Component status; incident.io's `full_outage` is Statuspage's `major_outage`. */
export function componentStatusFrom(word: string | null | undefined): ComponentStatus {
  const w = norm(word);
  if (w === 'full_outage') return 'major_outage';
  if (w === 'maintenance') return 'under_maintenance';
  return (COMPONENT_STATUSES as readonly string[]).includes(w) ? (w as ComponentStatus) : 'unknown';
}

export function worstImpact(impacts: Impact[], fallback: Impact = 'none'): Impact {
  if (impacts.length === 0) return fallback;
  return impacts.reduce((a, b) => (IMPACT_RANK[b] > IMPACT_RANK[a] ? b : a));
}

/** How bad a component status is, as an incident impact. */
export function impactOfComponentStatus(status: ComponentStatus): Impact {
  switch (status) {
    case 'degraded_performance':
      return 'minor';
    case 'partial_outage':
      return 'major';
    case 'major_outage':
      return 'critical';
    default:
      return 'none';
  }
}

/** Descriptions for formats that publish an indicator without wording (one table for all formats). */
export { INDICATOR_DESCRIPTIONS } from '../../domain/indicators.ts';

/** Page indicator derived from component statuses, for formats without a page-level status. */
export function indicatorFromComponents(statuses: ComponentStatus[]): Indicator {
  if (statuses.length === 0) return 'unknown';
  if (statuses.includes('major_outage')) {
    return statuses.every((s) => s === 'major_outage') ? 'major_outage' : 'partial_outage';
  }
  if (statuses.includes('partial_outage')) return 'partial_outage';
  if (statuses.includes('degraded_performance')) return 'degraded';
  if (statuses.includes('under_maintenance')) return 'maintenance';
  return 'operational';
}

/** `<vendor>:<upstream id>`. */
export function recordId(vendor: string, upstreamId: string | number): string {
  return `${vendor}:${String(upstreamId).trim()}`;
}

/** Joins a page base URL and a path without doubling slashes. */
export function joinUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}

/** Origin of a URL, or null when it is not absolute. */
export function originOf(url: string | null | undefined): string | null {
  try {
    return url ? new URL(url).origin : null;
  } catch {
    return null;
  }
}

/** Updates newest first; ties keep upstream order (Statuspage lists newest first already). */
export function newestFirst<T extends { createdAt: string }>(updates: T[]): T[] {
  return updates
    .map((u, i) => ({ u, i }))
    .sort((a, b) => (a.u.createdAt === b.u.createdAt ? a.i - b.i : a.u.createdAt < b.u.createdAt ? 1 : -1))
    .map(({ u }) => u);
}

/**
 * The upstream's own phase word kept beside an update's normalised status, or nothing when the
 * update names none (docs/mappings.md "Vendor's own words").
 */
export function ownWord(word: string | null | undefined): { sourceStatus?: string } {
  const text = typeof word === 'string' ? word.trim() : '';
  return text ? { sourceStatus: text } : {};
}

/**
 * As `indicatorFromComponents`, but a page with a component in a state we cannot read is not
 * called operational: unknown is unknown (for formats whose only state is their components').
 */
export function indicatorFromReadComponents(statuses: ComponentStatus[]): Indicator {
  const indicator = indicatorFromComponents(statuses);
  return indicator === 'operational' && statuses.includes('unknown') ? 'unknown' : indicator;
}
