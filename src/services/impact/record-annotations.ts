import { affectedServices, type Confidence, impactIndex } from '../../domain/impact.ts';
import type { StoredEvent } from '../../domain/events.ts';
import type { IncidentRecord, MaintenanceRecord } from '../../domain/records.ts';
import type { ServicesRepository } from '../../store/repositories/services-repository.ts';
import type { StatusRepository } from '../../store/repositories/status-repository.ts';
import type { Viewer } from '../context.ts';
import { impactRecordOf } from './impact-service.ts';

// `affectedServices` on the incident and maintenance records a member of an organisation
// with services reads (docs/services.md "Records: affectedServices"). Only for a member
// reading as its organisation: never for anonymous callers, nor for a caller computed as
// the public (a shared cache entry, `Viewer.readsPublic`), so a per-organisation field
// never lands in an entry others read (docs/access.md "Response cache").

export interface AffectedServiceRef {
  serviceId: string;
  serviceName: string;
  confidence: Confidence;
  reasons: string[];
}

type Annotated = { kind: 'incident'; record: IncidentRecord } | { kind: 'maintenance'; record: MaintenanceRecord };

/** Affected services per record id, or null when the caller gets no such field. */
export type RecordAnnotator = (viewer: Viewer, records: Annotated[]) => Promise<Map<string, AffectedServiceRef[]> | null>;

/** Affected services per stored incident event (by sequence), or null when the organisation has no services. */
export type EventAnnotator = (orgId: string, events: readonly StoredEvent[]) => Promise<Map<number, AffectedServiceRef[]> | null>;

type AnnotatorDeps = { services: Pick<ServicesRepository, 'dependingOn' | 'any'>; status: Pick<StatusRepository, 'componentNames'> };

/** The organisation's hits for each record, in the order given; null when it has no services. */
async function hitsOf(d: AnnotatorDeps, orgId: string, records: readonly Annotated[]): Promise<AffectedServiceRef[][] | null> {
  // Only the services depending on these records' vendors are read (indexed by vendor).
  const vendors = [...new Set(records.map((r) => r.record.vendor))];
  const services = await d.services.dependingOn(orgId, vendors);
  if (!services.length && !(await d.services.any(orgId))) return null;
  const index = impactIndex(services);
  const concerned = vendors.filter((v) => index.has(v));
  const components = concerned.length ? await d.status.componentNames(concerned) : new Map<string, Map<string, string>>();
  return records.map((r) =>
    (index.has(r.record.vendor) ? affectedServices(impactRecordOf(r, components.get(r.record.vendor)), index) : []).map((h) => ({
      serviceId: h.serviceId,
      serviceName: h.serviceName,
      confidence: h.confidence,
      reasons: h.reasons,
    })),
  );
}

/** Whether a viewer reads its own organisation's affected services (never anonymous, never as the public). */
export const readsOwnServices = (viewer: Viewer): viewer is Viewer & { orgId: string } => !!viewer.orgId && !viewer.readsPublic && viewer.role !== null;

export function recordAnnotator(d: AnnotatorDeps): RecordAnnotator {
  return async (viewer, records) => {
    if (!readsOwnServices(viewer) || !records.length) return null;
    const hits = await hitsOf(d, viewer.orgId, records);
    return hits && new Map(records.map((r, i) => [r.record.id, hits[i]!]));
  };
}

/**
 * For the incident stream (docs/stream.md "Affected services"): each event's incident as
 * it was then, judged against the organisation's services now. The caller decides who the
 * organisation is (a member's stream); events of other kinds are not judged.
 */
export function eventAnnotator(d: AnnotatorDeps): EventAnnotator {
  return async (orgId, events) => {
    const incidents = events.filter((e) => e.entityKind === 'incident');
    if (!incidents.length) return null;
    const hits = await hitsOf(
      d,
      orgId,
      incidents.map((e) => ({ kind: 'incident' as const, record: e.payload as IncidentRecord })),
    );
    return hits && new Map(incidents.map((e, i) => [e.seq, hits[i]!]));
  };
}
