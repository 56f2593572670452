import type { IncidentEventType, NewEvent } from '../../src/domain/events.ts';
import type { CatalogVendor, IncidentRecord, MaintenanceRecord } from '../../src/domain/records.ts';

// Builders for records the tests insert through the repositories.

/** A catalog entry on example.* hosts, with one Statuspage source per URL. */
export function catalogVendor(slug: string, urls: string[] = [], name = slug): CatalogVendor {
  return {
    slug,
    name,
    website: `https://${slug}.example`,
    category: 'cloud',
    description: `${name} description`,
    statusPageUrl: `https://status.${slug}.example`,
    availableDataTypes: ['incidents'],
    compliance: { sourceUrl: null, items: [] },
    sources: urls.map((url) => ({ type: 'statuspage-v2', url })),
  };
}

export function incident(vendor: string, id: string, over: Partial<IncidentRecord> = {}): IncidentRecord {
  const startedAt = over.startedAt ?? new Date(Date.now() - 3_600_000).toISOString();
  const status = over.status ?? 'investigating';
  return {
    id: `${vendor}:${id}`,
    vendor,
    title: `Incident ${id}`,
    status,
    sourceStatus: status,
    impact: 'minor',
    startedAt,
    updatedAt: startedAt,
    resolvedAt: status === 'resolved' ? new Date(Date.parse(startedAt) + 1_800_000).toISOString() : null,
    components: [],
    updates: [{ status, body: `Update on ${id}`, createdAt: startedAt }],
    url: null,
    source: 'statuspage-v2',
    ...over,
  };
}

export function maintenance(vendor: string, id: string, over: Partial<MaintenanceRecord> = {}): MaintenanceRecord {
  const scheduledFor = over.scheduledFor ?? new Date(Date.now() + 86_400_000).toISOString();
  return {
    id: `${vendor}:${id}`,
    vendor,
    title: `Maintenance ${id}`,
    status: 'scheduled',
    sourceStatus: 'scheduled',
    impact: 'none',
    scheduledFor,
    scheduledUntil: new Date(Date.parse(scheduledFor) + 3_600_000).toISOString(),
    startedAt: null,
    completedAt: null,
    components: [],
    updates: [],
    url: null,
    source: 'statuspage-v2',
    ...over,
  };
}

/** A new incident event as ingestion appends it (the record as `/incidents` serves it). */
export function incidentEvent(vendor: string, id: string, type: IncidentEventType = 'incident.created', occurredAt = new Date().toISOString()): NewEvent {
  const rec = incident(vendor, id);
  return { type, vendor, entityKind: 'incident', entityId: rec.id, occurredAt, payload: { ...rec, vendorName: vendor, durationMinutes: null } } as NewEvent;
}
