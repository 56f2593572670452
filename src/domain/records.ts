// Normalised records shared by every layer. Shapes follow docs/api.md "Envelope and records"; all
// timestamps are ISO-8601 UTC strings, ids are `<vendor>:<upstream id>`.

import type { ProbeSpec } from './probes.ts';

export const INCIDENT_STATUSES = ['investigating', 'monitoring', 'resolved'] as const;
export type IncidentStatus = (typeof INCIDENT_STATUSES)[number];

export const IMPACTS = ['none', 'minor', 'major', 'critical'] as const;
export type Impact = (typeof IMPACTS)[number];

export const MAINTENANCE_STATUSES = ['scheduled', 'in_progress', 'verifying', 'completed'] as const;
export type MaintenanceStatus = (typeof MAINTENANCE_STATUSES)[number];

export const SEVERITIES = ['low', 'medium', 'high', 'critical'] as const;
export type Severity = (typeof SEVERITIES)[number];

export const INDICATORS = ['operational', 'degraded', 'partial_outage', 'major_outage', 'maintenance', 'unknown'] as const;
export type Indicator = (typeof INDICATORS)[number];

export const DATA_TYPES = ['incidents', 'maintenance', 'advisories', 'updates'] as const;
export type DataType = (typeof DATA_TYPES)[number];

export interface RecordUpdate {
  status: string;
  /**
   * The upstream's own word for the phase the update was written in (`identified`,
   * `verifying`, Cachet's `watching`...), beside the normalised `status`. Absent where the
   * format names no phase per update and on records stored before it was kept.
   */
  sourceStatus?: string;
  body: string;
  createdAt: string;
}

/** An incident as an adapter produces it (vendorName is added on read). */
export interface IncidentRecord {
  id: string;
  vendor: string;
  title: string;
  status: IncidentStatus;
  /** The upstream's own status word, e.g. `identified` or `postmortem`. */
  sourceStatus: string;
  impact: Impact;
  startedAt: string;
  updatedAt: string;
  resolvedAt: string | null;
  components: string[];
  updates: RecordUpdate[];
  url: string | null;
  /** Which upstream format/feed produced it, e.g. `statuspage-v2`, or `demo`. */
  source: string;
}

export interface Incident extends IncidentRecord {
  vendorName: string;
  durationMinutes: number | null;
}

export interface MaintenanceRecord {
  id: string;
  vendor: string;
  title: string;
  status: MaintenanceStatus;
  sourceStatus: string;
  impact: Impact;
  scheduledFor: string;
  scheduledUntil: string | null;
  startedAt: string | null;
  completedAt: string | null;
  components: string[];
  updates: RecordUpdate[];
  url: string | null;
  source: string;
}

export interface Maintenance extends MaintenanceRecord {
  vendorName: string;
}

export interface AdvisoryRecord {
  id: string;
  vendor: string;
  title: string;
  severity: Severity;
  cves: string[];
  publishedAt: string;
  updatedAt: string;
  summary: string;
  url: string | null;
  source: string;
}

export interface Advisory extends AdvisoryRecord {
  vendorName: string;
}

export interface UpdateRecord {
  id: string;
  vendor: string;
  title: string;
  publishedAt: string;
  summary: string;
  categories: string[];
  url: string | null;
  source: string;
}

export interface ReleaseUpdate extends UpdateRecord {
  vendorName: string;
}

export const COMPONENT_STATUSES = ['operational', 'degraded_performance', 'partial_outage', 'major_outage', 'under_maintenance', 'unknown'] as const;
export type ComponentStatus = (typeof COMPONENT_STATUSES)[number];

export interface ComponentRecord {
  /** Stable within the vendor (upstream id or the name). */
  id: string;
  name: string;
  status: ComponentStatus;
  group: string | null;
  position: number;
}

/** What one poll of one source yields. Absent arrays mean "this source says nothing about it". */
export interface SourceSnapshot {
  /** Page-level indicator, when the source publishes one. */
  status?: { indicator: Indicator; description: string };
  components?: ComponentRecord[];
  incidents?: IncidentRecord[];
  maintenances?: MaintenanceRecord[];
  advisories?: AdvisoryRecord[];
  updates?: UpdateRecord[];
  /**
   * True when `incidents` is the complete list of the vendor's unresolved incidents
   * (e.g. Statuspage `incidents/unresolved.json` or `summary.json`), so that an
   * incident missing from it can be treated as resolved.
   */
  incidentsAreCompleteUnresolvedSet?: boolean;
  /**
   * True when `components` lists only what this payload names, and a component it no longer
   * names is operating normally by the source's own account (a cloud's list of open events):
   * components stored before stay listed, as operational (docs/mappings.md "Cloud depth").
   */
  componentsKeepUnlisted?: boolean;
  /**
   * True when `maintenances` is the complete list of the vendor's maintenances not
   * yet completed (Statuspage `summary.json`), so that one missing from it whose
   * window is over can be treated as completed.
   */
  maintenancesAreCompleteOpenSet?: boolean;
}

export interface SourceHealth {
  lastSuccessAt: string | null;
  lastErrorAt: string | null;
  lastError: string | null;
  /** A source has been failing past the threshold (docs/operations.md "Source health"). */
  stale: boolean;
}

export interface VendorStatus {
  vendor: string;
  vendorName: string;
  indicator: Indicator;
  description: string;
  /** false: no machine-readable status source (docs/web.md "Not monitored"). */
  monitored: boolean;
  /** The page's own status description as published; null when the indicator is derived (docs/mappings.md "Vendor's own words"). */
  sourceDescription: string | null;
  activeIncidents: Incident[];
  activeMaintenance: Maintenance[];
  components: { name: string; status: ComponentStatus; group: string | null }[];
  checkedAt: string | null;
  sourceHealth: SourceHealth;
}

export const SOURCE_TYPES = [
  'statuspage-v2',
  'incidentio',
  'instatus',
  'betterstack',
  'checkly',
  'gcp-json',
  'aws-currentevents',
  'aws-rss',
  'azure-rss',
  'statuspage-rss',
  'statuspage-atom',
  'statusio',
  'slack-status',
  'heroku-status',
  'salesforce-trust',
  'sorry',
  'cachet',
  'statuspal',
  'hund',
  'statuspage-html',
  'uptimerobot',
  'cstate',
  'site24x7',
  'stripe-status',
  'zendesk-status',
  'paypal-status',
  'algolia-status',
  'okta-status',
  'statuscake',
  'statushub',
  'fastly-status',
  'advisory-feed',
  'release-feed',
] as const;
export type SourceType = (typeof SOURCE_TYPES)[number];

export interface ComplianceEntry {
  name: string;
  description: string;
  category: string;
  compliancePageLink: string | null;
  researchedAt: string | null;
}

export interface CatalogSource {
  type: SourceType;
  url: string;
  /** Poll interval override in seconds. */
  intervalSeconds?: number;
  /**
   * Polled through the outbound guard, every DNS answer checked, like a page a user names:
   * set on a promoted page, whose host its submitter may still control (docs/catalog.md,
   * "Promoted pages"). Absent: a source the operator trusts.
   */
  guarded?: boolean;
}

/**
 * One public source that names a catalog fact. `key` is a source key of docs/catalog.md
 * (e.g. VSW, PROBO), `commit` the source repository's commit, `gave` the facts it gave
 * (`platform`, `statusPageUrl`, `website`, `category`, `endpoint`, `compliance`).
 */
export interface CatalogEvidence {
  key: string;
  commit: string;
  gave: string[];
}

export interface CatalogVendor {
  slug: string;
  name: string;
  website: string;
  category: string;
  description: string;
  statusPageUrl: string;
  availableDataTypes: DataType[];
  sources: CatalogSource[];
  compliance: { sourceUrl: string | null; items: ComplianceEntry[] };
  /** Hosts the vendor documents for its API, CDN and console (docs/diagnose.md "Hosts"). */
  hostnames?: string[];
  /** Public endpoints probed for early warning (docs/early-warning.md "Probes"). */
  probes?: ProbeSpec[];
  /** Where the entry's facts come from (docs/catalog.md "Evidence"). */
  evidence?: CatalogEvidence[];
}

/** Order of impacts, for "worst first" and "at least" comparisons. */
export const IMPACT_RANK: Record<Impact, number> = { none: 0, minor: 1, major: 2, critical: 3 };

/** Rows grouped by their vendor, in input order. */
export function groupByVendor<T extends { vendor: string }>(rows: T[]): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const r of rows) {
    const list = out.get(r.vendor);
    if (list) list.push(r);
    else out.set(r.vendor, [r]);
  }
  return out;
}
