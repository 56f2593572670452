import { type AlertAffectedService, payloadHits, signalHits } from '../../domain/alert-impact.ts';
import { INTERNAL_AUDIENCE } from '../../domain/audience.ts';
import type { ServicesRepository } from '../../store/repositories/services-repository.ts';
import type { StatusRepository } from '../../store/repositories/status-repository.ts';
import type { VendorsRepository } from '../../store/repositories/vendors-repository.ts';

// The organisation's services an early-warning signal may hit (docs/services.md "Impact of
// signals"), for the signal lists: the same rules and the same form as an alert's
// `affectedServices`, judged against that organisation's services only. A fixed number of
// queries per list: the services depending on the signals' vendors, their components, names.

export interface SignalForImpact {
  id: string;
  vendor: string;
  components: string[];
  regions: string[];
  /** The evidence's summaries: regions are looked for in them too. */
  summaries: string[];
}

export type SignalImpact = (orgId: string, signals: readonly SignalForImpact[]) => Promise<Map<string, AlertAffectedService[]>>;

export function signalImpact(d: {
  services: Pick<ServicesRepository, 'forAlerts'>;
  status: Pick<StatusRepository, 'componentNames'>;
  vendors: Pick<VendorsRepository, 'names'>;
}): SignalImpact {
  return async (orgId, signals) => {
    const out = new Map<string, AlertAffectedService[]>();
    for (const s of signals) out.set(s.id, []);
    const vendors = [...new Set(signals.map((s) => s.vendor))];
    if (!vendors.length) return out;
    const { byOrg } = await d.services.forAlerts([orgId], vendors);
    const services = byOrg.get(orgId) ?? [];
    if (!services.length) return out;
    const [components, names] = await Promise.all([d.status.componentNames(vendors), d.vendors.names(INTERNAL_AUDIENCE, vendors)]);
    for (const s of signals) out.set(s.id, payloadHits(signalHits(s, s.summaries, names.get(s.vendor) ?? s.vendor, services, components.get(s.vendor))));
    return out;
  };
}
