// Components of the big clouds per service and region (docs/mappings.md "Cloud depth"): one
// component for each service in each region a record names, named "<service> (<region code>)"
// so the name carries its region tag (`regionTagOf`), grouped under the service. A service
// without a region (a global service, a location outside the region vocabulary) keeps its own
// label. Pure: the adapters build these from what one payload says.
import type { ComponentRecord, ComponentStatus } from '../../domain/records.ts';
import type { Region } from '../../domain/regions.ts';
import { collapseWhitespace } from './text.ts';

/** Most components one record lists; a hostile payload's product × location cannot grow past it. */
export const MAX_RECORD_COMPONENTS = 1000;
/** Most components one snapshot reports. */
export const MAX_SNAPSHOT_COMPONENTS = 5000;

export interface CloudComponent {
  id: string;
  /** The service's name without a region, e.g. "Amazon Elastic Compute Cloud". */
  service: string;
  region: Region | null;
  /** Shown in parentheses when there is no region: "global", "Multi-region: us". */
  location: string | null;
}

export const cloudComponentName = (c: CloudComponent): string => {
  const service = collapseWhitespace(c.service) || c.id;
  if (c.region) return `${service} (${c.region.code})`;
  return c.location ? `${service} (${collapseWhitespace(c.location)})` : service;
};

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

const STATUS_RANK: Record<ComponentStatus, number> = {
  unknown: 0,
  operational: 1,
  under_maintenance: 2,
  degraded_performance: 3,
  partial_outage: 4,
  major_outage: 5,
};

/** The names a record lists, each once, at most MAX_RECORD_COMPONENTS. */
export function recordComponentNames(components: Iterable<CloudComponent>): string[] {
  const out = new Set<string>();
  for (const c of components) {
    if (out.size >= MAX_RECORD_COMPONENTS) break;
    out.add(cloudComponentName(c));
  }
  return [...out];
}

/**
 * Collects components with their status; a component named twice keeps its worst status.
 * Ordered by service, then region code (global first), as the vendor's component list shows them.
 */
export class CloudComponentList {
  private readonly byId = new Map<string, { c: CloudComponent; status: ComponentStatus }>();

  add(c: CloudComponent, status: ComponentStatus): void {
    const seen = this.byId.get(c.id);
    if (seen) {
      if (STATUS_RANK[status] > STATUS_RANK[seen.status]) seen.status = status;
      return;
    }
    if (this.byId.size >= MAX_SNAPSHOT_COMPONENTS) return;
    this.byId.set(c.id, { c, status });
  }

  records(): ComponentRecord[] {
    const rows = [...this.byId.values()].map(({ c, status }) => ({
      id: c.id,
      name: cloudComponentName(c),
      status,
      group: collapseWhitespace(c.service) || c.id,
      sortRegion: c.region?.code ?? '',
    }));
    // Code-unit order: the same on every machine, and far cheaper than a locale's collation.
    rows.sort((a, b) => cmp(a.group, b.group) || cmp(a.sortRegion, b.sortRegion) || cmp(a.id, b.id));
    return rows.map(({ id, name, status, group }, position) => ({ id, name, status, group, position }));
  }
}
