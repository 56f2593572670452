import { type AlertHit, alertHits, impactRecordOfPayload } from '../domain/alert-impact.ts';
import { impactIndex } from '../domain/impact.ts';
import type { StoredEvent } from '../domain/events.ts';
import type { ServicesRepository } from '../store/repositories/services-repository.ts';
import type { StatusRepository } from '../store/repositories/status-repository.ts';

// The services each organisation's alert of a batch hits (docs/alert-routes.md "Affected
// services in alerts"), read with a fixed number of queries per batch: which of the
// organisations have services, their services depending on the batch's vendors, those
// vendors' components. Each (event, organisation) is judged once, against that
// organisation's services only.

export interface AffectedServicesDeps {
  services: Pick<ServicesRepository, 'forAlerts'>;
  status: Pick<StatusRepository, 'componentNames'>;
}

/** Hits of one event for one organisation; null when the organisation has no services. */
export type HitsOf = (eventSeq: number, orgId: string) => AlertHit[] | null;

export const noHits: HitsOf = () => null;

export async function affectedServicesOf(events: readonly StoredEvent[], orgIds: readonly string[], d: AffectedServicesDeps | undefined): Promise<HitsOf> {
  if (!d || !orgIds.length || !events.length) return noHits;
  const vendors = [...new Set(events.map((e) => e.vendor))];
  const { withServices, byOrg } = await d.services.forAlerts([...new Set(orgIds)], vendors);
  if (!withServices.size) return noHits;
  const concerned = [...new Set([...byOrg.values()].flatMap((list) => list.flatMap((s) => s.dependencies.map((x) => x.vendor))))];
  const components = concerned.length ? await d.status.componentNames(concerned) : new Map<string, Map<string, string>>();
  const indexes = new Map([...byOrg].map(([org, list]) => [org, impactIndex(list)]));
  const bySeq = new Map(events.map((e) => [e.seq, e]));
  const memo = new Map<string, AlertHit[]>();
  return (seq, orgId) => {
    if (!withServices.has(orgId)) return null;
    const key = `${seq}\u0000${orgId}`;
    const known = memo.get(key);
    if (known) return known;
    const e = bySeq.get(seq);
    const index = indexes.get(orgId);
    let hits: AlertHit[] = [];
    if (e && index?.has(e.vendor)) {
      const payload = e.payload as unknown as Record<string, unknown>;
      const record = impactRecordOfPayload(e.vendor, e.type, payload, components.get(e.vendor));
      const vendorName = typeof payload.vendorName === 'string' && payload.vendorName ? payload.vendorName : e.vendor;
      hits = alertHits(record, vendorName, byOrg.get(orgId) ?? [], index);
    }
    memo.set(key, hits);
    return hits;
  };
}
