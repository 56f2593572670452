import { PUBLIC_AUDIENCE, type Audience } from '../../domain/audience.ts';
import { groupByVendor, IMPACT_RANK, type Incident, type IncidentRecord, type Indicator, type Maintenance, type SourceHealth } from '../../domain/records.ts';
import { describeIndicator } from '../../domain/indicators.ts';
import { reportsProblem, type StateSummary, summarizeState } from '../../domain/state-summary.ts';
import { isActiveMaintenance, isUpcomingMaintenance } from '../../domain/maintenance-window.ts';
import { observedUptimePercent } from '../../domain/stats.ts';
import { type UptimeDay, uptimeDays } from '../../domain/uptime-days.ts';
import type { IncidentsRepository } from '../../store/repositories/incidents-repository.ts';
import type { MaintenancesRepository } from '../../store/repositories/maintenances-repository.ts';
import type { StatusRepository } from '../../store/repositories/status-repository.ts';
import type { VendorsRepository } from '../../store/repositories/vendors-repository.ts';
import type { CatalogService } from '../vendors/catalog-service.ts';
import type { Clock } from '../../domain/clock.ts';
import type { SourceHealthService } from '../vendors/source-health-service.ts';
import { isMonitored, NOT_MONITORED_SENTENCE } from '../../domain/monitoring.ts';
import { deriveIndicator } from './status-service.ts';
import { COMPONENT_LEVEL, INDICATOR_LEVEL } from '../../domain/status-levels.ts';
import { incidentView, withVendorName } from '../../domain/record-views.ts';

// Read models for the dashboard: every vendor's current state in a fixed number
// of queries (no per-vendor loop), and the daily uptime bar of one vendor.

export interface VendorOverview {
  vendor: string;
  name: string;
  category: string;
  website: string;
  statusPageUrl: string;
  indicator: Indicator;
  description: string;
  activeIncidents: Incident[];
  /** In progress, verifying, or scheduled and already due. */
  activeMaintenance: Maintenance[];
  /** Scheduled windows not yet due. */
  upcomingMaintenance: Maintenance[];
  checkedAt: string | null;
  sourceHealth: SourceHealth;
  /** false: no machine-readable status source (docs/web.md "Not monitored"). */
  monitored: boolean;
}

/** Vendor status as numbers, for the Prometheus gauges (docs/integrations.md). */
export interface StatusFigures {
  /** `activeIncidents` null: not monitored, so whatever is stored for it is not a count now (no series). */
  vendors: { vendor: string; level: number; activeIncidents: number | null }[];
  /** Empty unless asked for (one series per component: many). */
  components: { vendor: string; component: string; level: number }[];
}

export interface Overview {
  vendors: VendorOverview[];
  categories: string[];
  /** Vendors per indicator. */
  counts: Record<Indicator, number>;
  activeIncidentCount: number;
  activeMaintenanceCount: number;
  generatedAt: string;
}

/** The vendors summed up by the one rule (docs/web.md, "Summary"). */
export const summarizeOverview = (vendors: VendorOverview[]): StateSummary =>
  summarizeState(
    vendors.map((v) => ({
      indicator: v.indicator,
      stale: v.sourceHealth.stale,
      problem: reportsProblem(v.indicator, v.activeIncidents.length),
      monitored: v.monitored,
    })),
  );

/**
 * The overview of some of its vendors (a signed-in person's watchlist): the counts that sum
 * them up are recomputed from those vendors only, so headline, incidents, maintenance and
 * cards all speak of the same set (docs/web.md, "Your vendors first").
 */
export function narrowOverview(o: Overview, slugs: ReadonlySet<string>): Overview {
  const vendors = o.vendors.filter((v) => slugs.has(v.vendor));
  const counts = Object.fromEntries(Object.keys(o.counts).map((k) => [k, 0])) as Record<Indicator, number>;
  for (const v of vendors) counts[v.indicator] = (counts[v.indicator] ?? 0) + 1;
  return {
    ...o,
    vendors,
    counts,
    activeIncidentCount: vendors.reduce((n, v) => n + v.activeIncidents.length, 0),
    activeMaintenanceCount: vendors.reduce((n, v) => n + v.activeMaintenance.length, 0),
  };
}

/** Worst first, then the most recent. */
const byImpactThenRecent = (a: IncidentRecord, b: IncidentRecord) =>
  IMPACT_RANK[b.impact] - IMPACT_RANK[a.impact] || (a.startedAt < b.startedAt ? 1 : a.startedAt > b.startedAt ? -1 : 0);

export function overviewService(d: {
  catalog: CatalogService;
  vendors: VendorsRepository;
  incidents: IncidentsRepository;
  maintenances: MaintenancesRepository;
  status: StatusRepository;
  health: SourceHealthService;
  clock: Clock;
}) {
  return {
    /** Five queries whatever the number of vendors. */
    async overview(audience: Audience, only?: string[]): Promise<Overview> {
      const vendorFilter = only?.length ? only : undefined;
      const [vendors, statuses, active, maint, health] = await Promise.all([
        d.vendors.list(audience),
        d.status.statuses(audience, vendorFilter),
        d.incidents.all({ audience, vendors: vendorFilter, activeOnly: true }),
        d.maintenances.all({ audience, vendors: vendorFilter, upcomingOnly: true }),
        d.health.byVendor(audience),
      ]);
      const now = d.clock.now();
      const nowIso = now.toISOString();
      const incidentsBy = groupByVendor(active);
      const maintBy = groupByVendor(maint);
      const counts = { operational: 0, degraded: 0, partial_outage: 0, major_outage: 0, maintenance: 0, unknown: 0 };
      const categories = new Set<string>();
      const rows: VendorOverview[] = [];
      let activeMaintenanceCount = 0;
      for (const v of vendors) {
        categories.add(v.category);
        if (vendorFilter && !vendorFilter.includes(v.slug)) continue;
        const monitored = isMonitored(v);
        // Records left open from a source that is gone are not its state now (docs/web.md "Not monitored").
        const inc = monitored ? (incidentsBy.get(v.slug) ?? []).sort(byImpactThenRecent) : [];
        const windows = monitored ? (maintBy.get(v.slug) ?? []).sort((a, b) => (a.scheduledFor < b.scheduledFor ? -1 : 1)) : [];
        const due = windows.filter((m) => isActiveMaintenance(m, now));
        const upcoming = windows.filter((m) => isUpcomingMaintenance(m, now));
        const h = health.get(v.slug) ?? { ...d.health.NEVER };
        const page = statuses.get(v.slug);
        // Not monitored: unknown whatever an old row may say (docs/web.md "Not monitored").
        const indicator = !monitored
          ? 'unknown'
          : (page?.indicator ??
            deriveIndicator(
              inc,
              due.some((m) => m.status !== 'scheduled'),
              h.lastSuccessAt !== null,
            ));
        counts[indicator] += 1;
        activeMaintenanceCount += due.length;
        rows.push({
          vendor: v.slug,
          name: v.name,
          category: v.category,
          website: v.website,
          statusPageUrl: v.statusPageUrl,
          indicator,
          description: monitored ? describeIndicator(indicator) : NOT_MONITORED_SENTENCE,
          activeIncidents: inc.map((i) => incidentView(i, v.name, now)),
          activeMaintenance: due.map((m) => withVendorName(m, v.name)),
          upcomingMaintenance: upcoming.map((m) => withVendorName(m, v.name)),
          checkedAt: page?.checkedAt ?? h.lastSuccessAt,
          sourceHealth: h,
          monitored,
        });
      }
      return {
        vendors: rows,
        categories: [...categories].sort(),
        counts,
        activeIncidentCount: rows.reduce((n, v) => n + v.activeIncidents.length, 0),
        activeMaintenanceCount,
        generatedAt: nowIso,
      };
    },

    /** These vendors (all when none are named) summed up: how many report problems, how many are not observed. */
    async observation(audience: Audience, only?: string[]): Promise<StateSummary> {
      return summarizeOverview((await this.overview(audience, only)).vendors);
    },

    /** Every catalog vendor's indicator level and active incidents: the overview's queries, plus one for components. */
    async statusFigures(withComponents: boolean): Promise<StatusFigures> {
      const [o, components] = await Promise.all([this.overview(PUBLIC_AUDIENCE), withComponents ? d.status.components(PUBLIC_AUDIENCE) : Promise.resolve([])]);
      return {
        // A stale vendor's last indicator is not its state now: -1 (unknown), as everywhere
        // a figure sums up state (docs/web.md "Summary").
        vendors: o.vendors.map((v) => ({
          vendor: v.vendor,
          level: v.sourceHealth.stale ? INDICATOR_LEVEL.unknown : INDICATOR_LEVEL[v.indicator],
          activeIncidents: v.monitored ? v.activeIncidents.length : null,
        })),
        components: components.map((c) => ({ vendor: c.vendor, component: c.name, level: COMPONENT_LEVEL[c.status] })),
      };
    },

    /**
     * One cell per UTC day over the last `days` days. This is the coarse public
     * history a vendor's own status page shows, so it is not bounded by the plan
     * window (incident details and statistics are).
     */
    async uptimeBar(slug: string, audience: Audience, days = 90): Promise<{ days: UptimeDay[]; uptimePercent: number | null }> {
      await d.catalog.require(slug, audience);
      const now = d.clock.now();
      const todayStart = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
      const since = new Date(todayStart - (days - 1) * 86_400_000);
      const [incidents, observed] = await Promise.all([
        d.incidents.all({ audience, vendors: [slug], since: since.toISOString() }),
        d.health.observed([slug], audience),
      ]);
      const span = observed(slug);
      // `since` also keeps incidents that started earlier and are still open; older
      // resolved ones that overlap the first day are negligible for a daily bar.
      return { days: uptimeDays(incidents, days, now, span), uptimePercent: observedUptimePercent(incidents, since, now, span) };
    },
  };
}

export type OverviewService = ReturnType<typeof overviewService>;
