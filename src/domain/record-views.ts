import type { Incident, IncidentRecord } from './records.ts';
import { durationMinutes } from './stats.ts';

// One place that turns a stored record into what every reader is served (REST, stream,
// feeds, MCP, pages): the vendor's display name, and an incident's length once it is
// resolved (docs/api.md describes the fields).

/** The display name of a vendor slug; the slug itself when the catalog has no such vendor. */
export const nameOf = (names: ReadonlyMap<string, string>, slug: string): string => names.get(slug) ?? slug;

/** Any record (maintenance, advisory, release update) with its vendor's display name. */
export function withVendorName<T extends { vendor: string }>(record: T, vendorName: string): T & { vendorName: string } {
  return { ...record, vendorName };
}

/** An incident as served: its vendor's name, and its duration in minutes once resolved (null before). */
export function incidentView(i: IncidentRecord, vendorName: string, now: Date): Incident {
  return { ...i, vendorName, durationMinutes: i.resolvedAt ? durationMinutes(i.startedAt, i.resolvedAt, now) : null };
}
