import {
  affectedServices,
  type Confidence,
  confidenceRank,
  type ImpactIndex,
  impactIndex,
  type ImpactRecord,
  moreCertain,
  recordComponents,
  type ServiceImpact,
} from '../../domain/impact.ts';
import type { IncidentRecord, MaintenanceRecord } from '../../domain/records.ts';
import { CRITICALITIES, type Criticality, type Service } from '../../domain/team-services.ts';
import type { IncidentsRepository } from '../../store/repositories/incidents-repository.ts';
import type { MaintenancesRepository } from '../../store/repositories/maintenances-repository.ts';
import type { ServicesRepository } from '../../store/repositories/services-repository.ts';
import type { VendorsRepository } from '../../store/repositories/vendors-repository.ts';
import type { StatusRepository } from '../../store/repositories/status-repository.ts';
import { audienceFor } from '../access/audience.ts';
import { ownerOrg, type Viewer } from '../context.ts';
import type { OrgsService } from '../orgs/orgs-service.ts';

// Which of an organisation's services are hit now (docs/services.md "Impact now"): the
// open incidents and the maintenance windows under way of the vendors its services depend
// on, judged by the impact rules. A fixed number of queries whatever the number of
// services: the services, their dependencies, the open incidents, the windows under way,
// the components of the vendors concerned.

export interface ImpactRecordView {
  kind: 'incident' | 'maintenance';
  id: string;
  vendor: string;
  title: string;
  /** The upstream's status: investigating, monitoring (incidents); in_progress, verifying (maintenance). */
  status: string;
  impact: string;
  url: string | null;
  startedAt: string | null;
  confidence: Confidence;
  reasons: string[];
}

export interface AffectedServiceView {
  serviceId: string;
  serviceName: string;
  criticality: Criticality;
  /** The highest confidence among its records. */
  confidence: Confidence;
  records: ImpactRecordView[];
}

export interface ImpactNow {
  /** Open incidents and windows under way of the vendors the services depend on. */
  openRecords: number;
  services: AffectedServiceView[];
}

/** For the web overview: how many services the organisation has, and those hit now. */
export interface OurServicesNow extends ImpactNow {
  serviceCount: number;
}

type Open = { kind: 'incident'; record: IncidentRecord } | { kind: 'maintenance'; record: MaintenanceRecord };

/** A stored record as the impact rules read it. */
export function impactRecordOf(o: Open, components: ReadonlyMap<string, string> | undefined): ImpactRecord {
  return {
    kind: o.kind,
    id: o.record.id,
    vendor: o.record.vendor,
    title: o.record.title,
    components: recordComponents(o.record.components, components),
    updates: o.record.updates.map((u) => ({ createdAt: u.createdAt, body: u.body })),
  };
}

const CRIT: Record<Criticality, number> = Object.fromEntries(CRITICALITIES.map((c, i) => [c, i])) as Record<Criticality, number>;

export const vendorsOfServices = (services: readonly Service[]) => [...new Set(services.flatMap((s) => s.dependencies.map((d) => d.vendor)))];

export interface ImpactReaders {
  services: Pick<ServicesRepository, 'list'>;
  incidents: Pick<IncidentsRepository, 'all'>;
  maintenances: Pick<MaintenancesRepository, 'all'>;
  status: Pick<StatusRepository, 'componentNames'>;
  vendors: Pick<VendorsRepository, 'monitored'>;
}

/** Judges each record against the index; `components` are the vendors' id → name lists. */
export function judgeRecords(
  records: readonly Open[],
  index: ImpactIndex,
  components: ReadonlyMap<string, ReadonlyMap<string, string>>,
): Map<Open, ServiceImpact[]> {
  const out = new Map<Open, ServiceImpact[]>();
  for (const o of records) {
    const hits = affectedServices(impactRecordOf(o, components.get(o.record.vendor)), index);
    if (hits.length) out.set(o, hits);
  }
  return out;
}

export function impactService(d: ImpactReaders & { orgs: Pick<OrgsService, 'actingIn'> }) {
  async function judge(viewer: Viewer, orgId: string): Promise<OurServicesNow> {
    const v = await d.orgs.actingIn(viewer, orgId);
    const owner = ownerOrg(v);
    const services = await d.services.list(owner);
    const serviceCount = services.length;
    const vendors = vendorsOfServices(services);
    if (!vendors.length) return { serviceCount, openRecords: 0, services: [] };
    const audience = audienceFor(v);
    const [incidents, maintenances, monitored] = await Promise.all([
      d.incidents.all({ audience, vendors, activeOnly: true }),
      d.maintenances.all({ audience, vendors, inProgressOnly: true }),
      d.vendors.monitored(vendors, audience),
    ]);
    // Records left open by a source that is gone say nothing about now (docs/web.md "Not monitored").
    const open: Open[] = [
      ...incidents.map((record) => ({ kind: 'incident' as const, record })),
      ...maintenances.map((record) => ({ kind: 'maintenance' as const, record })),
    ].filter((o) => monitored.has(o.record.vendor));
    if (!open.length) return { serviceCount, openRecords: 0, services: [] };
    const components = await d.status.componentNames([...new Set(open.map((o) => o.record.vendor))]);
    const judged = judgeRecords(open, impactIndex(services), components);
    const byService = new Map<string, AffectedServiceView>();
    for (const [o, hits] of judged) {
      const r = o.record;
      for (const h of hits) {
        const entry = byService.get(h.serviceId) ?? {
          serviceId: h.serviceId,
          serviceName: h.serviceName,
          criticality: h.criticality,
          confidence: h.confidence,
          records: [],
        };
        entry.confidence = moreCertain(entry.confidence, h.confidence);
        entry.records.push({
          kind: o.kind,
          id: r.id,
          vendor: r.vendor,
          title: r.title,
          status: r.status,
          impact: r.impact,
          url: r.url,
          startedAt: r.startedAt,
          confidence: h.confidence,
          reasons: h.reasons,
        });
        byService.set(h.serviceId, entry);
      }
    }
    const list = [...byService.values()];
    for (const s of list) s.records.sort((a, b) => confidenceRank(a.confidence) - confidenceRank(b.confidence) || a.id.localeCompare(b.id));
    list.sort(
      (a, b) =>
        confidenceRank(a.confidence) - confidenceRank(b.confidence) || CRIT[a.criticality] - CRIT[b.criticality] || a.serviceName.localeCompare(b.serviceName),
    );
    return { serviceCount, openRecords: open.length, services: list };
  }

  return {
    /** The services of the organisation hit now, most certain and most critical first. */
    async now(viewer: Viewer, orgId: string): Promise<ImpactNow> {
      const { openRecords, services } = await judge(viewer, orgId);
      return { openRecords, services };
    },

    /** The overview's "Our services" (docs/web.md): for a member of an organisation only, else null. */
    async ours(viewer: Viewer): Promise<OurServicesNow | null> {
      if (!viewer.orgId || viewer.role === null) return null;
      return judge(viewer, viewer.orgId);
    },
  };
}

export type ImpactNowService = ReturnType<typeof impactService>;
