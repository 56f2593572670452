import { affectedServices, type Confidence, impactIndex } from '../../domain/impact.ts';
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

export function recordAnnotator(d: { services: Pick<ServicesRepository, 'dependingOn' | 'any'>; status: Pick<StatusRepository, 'componentNames'> }): RecordAnnotator {
  return async (viewer, records) => {
    if (!viewer.orgId || viewer.readsPublic || viewer.role === null || !records.length) return null;
    // Only the services depending on these records' vendors are read (indexed by vendor).
    const services = await d.services.dependingOn(viewer.orgId, [...new Set(records.map((r) => r.record.vendor))]);
    if (!services.length && !(await d.services.any(viewer.orgId))) return null;
    const index = impactIndex(services);
    const concerned = [...new Set(records.map((r) => r.record.vendor))].filter((v) => index.has(v));
    const components = concerned.length ? await d.status.componentNames(concerned) : new Map<string, Map<string, string>>();
    const out = new Map<string, AffectedServiceRef[]>();
    for (const r of records) {
      const hits = index.has(r.record.vendor) ? affectedServices(impactRecordOf(r, components.get(r.record.vendor)), index) : [];
      out.set(
        r.record.id,
        hits.map((h) => ({ serviceId: h.serviceId, serviceName: h.serviceName, confidence: h.confidence, reasons: h.reasons })),
      );
    }
    return out;
  };
}
