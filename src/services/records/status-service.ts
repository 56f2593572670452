import type { Audience } from '../../domain/audience.ts';
import { IMPACT_RANK, type Impact, type Indicator, type Incident, type IncidentRecord, type Maintenance, type VendorStatus } from '../../domain/records.ts';
import { describeIndicator } from '../../domain/indicators.ts';
import { isActiveMaintenance } from '../../domain/maintenance-window.ts';
import type { IncidentsRepository } from '../../store/repositories/incidents-repository.ts';
import type { MaintenancesRepository } from '../../store/repositories/maintenances-repository.ts';
import type { StatusRepository } from '../../store/repositories/status-repository.ts';
import type { CatalogService } from '../vendors/catalog-service.ts';
import type { Clock } from '../../domain/clock.ts';
import type { SourceHealthService } from '../vendors/source-health-service.ts';
import { incidentView, withVendorName } from '../../domain/record-views.ts';
import { isMonitored, NOT_MONITORED_SENTENCE } from '../../domain/monitoring.ts';

const INDICATOR_BY_IMPACT: Record<Impact, Indicator> = {
  none: 'operational',
  minor: 'degraded',
  major: 'partial_outage',
  critical: 'major_outage',
};

/**
 * Indicator for sources that publish no page-level status (feeds): the worst
 * active incident, else maintenance in progress, else operational once polled.
 */
export function deriveIndicator(active: IncidentRecord[], maintenanceInProgress: boolean, everPolled: boolean): Indicator {
  if (active.length) {
    const worst = active.reduce((a, b) => (IMPACT_RANK[b.impact] > IMPACT_RANK[a.impact] ? b : a));
    return INDICATOR_BY_IMPACT[worst.impact];
  }
  if (maintenanceInProgress) return 'maintenance';
  return everPolled ? 'operational' : 'unknown';
}

export function statusService(d: {
  catalog: CatalogService;
  incidents: IncidentsRepository;
  maintenances: MaintenancesRepository;
  status: StatusRepository;
  health: SourceHealthService;
  clock: Clock;
}) {
  return {
    /** The stored page-level status of these vendors (all when none are named), by slug. */
    pageStatuses(audience: Audience, slugs?: string[]) {
      return d.status.statuses(audience, slugs);
    },

    async vendorStatus(slug: string, audience: Audience): Promise<VendorStatus> {
      const vendor = await d.catalog.require(slug, audience);
      const [active, maint, stored, components, health] = await Promise.all([
        d.incidents.all({ audience, vendors: [slug], activeOnly: true }),
        d.maintenances.all({ audience, vendors: [slug], upcomingOnly: true }),
        d.status.statuses(audience, [slug]),
        d.status.components(audience, [slug]),
        d.health.forVendor(slug),
      ]);
      const now = d.clock.now();
      const monitored = isMonitored(vendor);
      // Records left open from a source that is gone are not its state now (docs/web.md "Not monitored").
      const activeIncidents: Incident[] = monitored ? active.map((i) => incidentView(i, vendor.name, now)) : [];
      // Active = in progress/verifying, or scheduled and already due; never long over.
      const activeMaintenance: Maintenance[] = monitored ? maint.filter((m) => isActiveMaintenance(m, now)).map((m) => withVendorName(m, vendor.name)) : [];
      const page = stored.get(slug);
      // Not monitored: nothing was or can be read, whatever an old row may say (docs/web.md "Not monitored").
      const indicator = !monitored
        ? 'unknown'
        : (page?.indicator ??
          deriveIndicator(
            active,
            activeMaintenance.some((m) => m.status !== 'scheduled'),
            health.lastSuccessAt !== null,
          ));
      return {
        vendor: slug,
        vendorName: vendor.name,
        indicator,
        // The same words for an indicator whatever the source format (docs/mappings.md);
        // a vendor not monitored says so instead of "Status Unknown".
        description: monitored ? describeIndicator(indicator) : NOT_MONITORED_SENTENCE,
        monitored,
        sourceDescription: (monitored && page?.description?.trim()) || null,
        activeIncidents,
        activeMaintenance,
        // Component rows left from a source that is gone say nothing now either.
        components: monitored ? components.map((c) => ({ name: c.name, status: c.status, group: c.group })) : [],
        // The page row is written only when its status changes; the last successful poll is when it was checked.
        checkedAt: health.lastSuccessAt ?? page?.checkedAt ?? null,
        sourceHealth: health,
      };
    },
  };
}

export type StatusService = ReturnType<typeof statusService>;
