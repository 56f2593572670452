import type { Incident, IncidentRecord, RecordUpdate } from './records.ts';
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

/**
 * The newest update of a record by its time. Upstreams list updates newest first or oldest
 * first, so the position in the list says nothing; on equal times the earlier entry wins, and an
 * update without a readable time is never preferred to one with a time.
 */
export function latestUpdate(updates: readonly RecordUpdate[]): RecordUpdate | null {
  const time = (u: RecordUpdate) => {
    const t = Date.parse(u.createdAt);
    return Number.isNaN(t) ? -Infinity : t;
  };
  let latest: RecordUpdate | null = null;
  for (const u of updates) if (!latest || time(u) > time(latest)) latest = u;
  return latest;
}
