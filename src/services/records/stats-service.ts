import type { Audience } from '../../domain/audience.ts';
import { audienceFor } from '../access/audience.ts';
import { isActiveMaintenance } from '../../domain/maintenance-window.ts';
import { DEFAULT_PLAN_POLICIES } from '../../domain/plans.ts';
import { groupByVendor, type Impact } from '../../domain/records.ts';
import { BADGES, type Badge, computeVendorStats, type VendorStats } from '../../domain/stats.ts';
import { type DataWindow, resolveWindow } from '../../domain/time-window.ts';
import type { IncidentsRepository, IncidentTiming } from '../../store/repositories/incidents-repository.ts';
import type { MaintenancesRepository } from '../../store/repositories/maintenances-repository.ts';
import type { StatusRepository } from '../../store/repositories/status-repository.ts';
import type { VendorsRepository } from '../../store/repositories/vendors-repository.ts';
import type { CatalogService } from '../vendors/catalog-service.ts';
import type { Viewer } from '../context.ts';
import type { Clock } from '../../domain/clock.ts';
import type { SourceHealthService } from '../vendors/source-health-service.ts';
import { isMonitored } from '../../domain/monitoring.ts';

const DEFAULT_STATS_PERIOD = '30d';

export interface AggregateStats {
  timePeriod: string;
  vendorCount: number;
  incidentCount: number;
  activeIncidents: number;
  activeMaintenance: number;
  byImpact: Record<Impact, number>;
  badges: Record<Badge, number>;
  /** Current indicators by vendor; vendors without a status source count under `not_monitored`, never operational. */
  indicators: Record<string, number>;
  /** Vendors without a machine-readable status source (docs/web.md "Not monitored"). */
  notMonitored: number;
  averageUptimePercent: number | null;
}

export function statsService(d: {
  catalog: CatalogService;
  vendors: VendorsRepository;
  incidents: IncidentsRepository;
  maintenances: MaintenancesRepository;
  status: StatusRepository;
  health: SourceHealthService;
  clock: Clock;
}) {
  const windowFor = (viewer: Viewer, timePeriod?: string) =>
    resolveWindow(timePeriod, DEFAULT_PLAN_POLICIES[viewer.plan].windowDays, d.clock.now(), DEFAULT_STATS_PERIOD);

  /**
   * Stats for many vendors with three queries in all (incidents, maintenance, sources; no per-vendor loop).
   * An unlimited window ("all") starts at the oldest stored incident.
   */
  async function statsFor(slugs: string[] | undefined, window: DataWindow, audience: Audience): Promise<Map<string, VendorStats>> {
    const now = d.clock.now();
    const since = window.since ?? undefined;
    // Only the columns the figures need (IncidentTiming), and maintenance as counts.
    const [incidents, maintenanceCounts, observed] = await Promise.all([
      d.incidents.timings({ audience, vendors: slugs, since }),
      d.maintenances.countByVendor({ audience, vendors: slugs, since }),
      d.health.observed(slugs, audience),
    ]);
    let earliest = now.getTime();
    if (!window.since) for (const i of incidents) earliest = Math.min(earliest, Date.parse(i.startedAt));
    const start = window.since ? new Date(window.since) : new Date(earliest);
    const byVendorInc = groupByVendor<IncidentTiming>(incidents);
    const all = slugs ?? [...(await d.vendors.names(audience)).keys()];
    const out = new Map<string, VendorStats>();
    for (const slug of all) {
      out.set(slug, computeVendorStats(slug, window.applied, byVendorInc.get(slug) ?? [], maintenanceCounts.get(slug) ?? 0, start, now, observed(slug)));
    }
    return out;
  }

  return {
    windowFor,
    statsFor,

    async vendorStats(slug: string, timePeriod: string | undefined, viewer: Viewer) {
      const audience = audienceFor(viewer);
      await d.catalog.require(slug, audience);
      const dataWindow = windowFor(viewer, timePeriod);
      const stats = (await statsFor([slug], dataWindow, audience)).get(slug)!;
      return { stats, dataWindow };
    },

    async favorites(slugs: string[], timePeriod: string | undefined, viewer: Viewer) {
      const audience = audienceFor(viewer);
      const vendors = await d.catalog.requireAll(slugs, audience);
      const dataWindow = windowFor(viewer, timePeriod);
      const stats = await statsFor(vendors, dataWindow, audience);
      return { items: vendors.map((v) => stats.get(v)!), dataWindow };
    },

    async aggregate(timePeriod: string | undefined, viewer: Viewer): Promise<{ stats: AggregateStats; dataWindow: DataWindow }> {
      const dataWindow = windowFor(viewer, timePeriod);
      const audience = audienceFor(viewer);
      const [perVendor, active, activeMnt, statuses, rows] = await Promise.all([
        statsFor(undefined, dataWindow, audience),
        d.incidents.all({ audience, activeOnly: true }),
        d.maintenances.all({ audience, upcomingOnly: true }),
        d.status.statuses(audience),
        d.vendors.list(audience),
      ]);
      const unmonitored = new Set(rows.filter((v) => !isMonitored(v)).map((v) => v.slug));
      const byImpact: Record<Impact, number> = { none: 0, minor: 0, major: 0, critical: 0 };
      const badges = Object.fromEntries(BADGES.map((b) => [b, 0])) as Record<Badge, number>;
      let incidentCount = 0;
      // Vendors without observed time have no uptime and stay out of the average.
      let uptimeSum = 0;
      let rated = 0;
      for (const s of perVendor.values()) {
        incidentCount += s.incidentCount;
        for (const k of Object.keys(byImpact) as Impact[]) byImpact[k] += s.byImpact[k];
        badges[s.badge] += 1;
        if (s.uptimePercent !== null) {
          uptimeSum += s.uptimePercent;
          rated++;
        }
      }
      const indicators: Record<string, number> = {};
      for (const slug of perVendor.keys()) {
        const ind = unmonitored.has(slug) ? 'not_monitored' : (statuses.get(slug)?.indicator ?? 'unknown');
        indicators[ind] = (indicators[ind] ?? 0) + 1;
      }
      const now = d.clock.now();
      return {
        dataWindow,
        stats: {
          timePeriod: dataWindow.applied,
          vendorCount: perVendor.size,
          incidentCount,
          // Records left open from a source that is gone are not a count now (docs/web.md "Not monitored").
          activeIncidents: active.filter((i) => !unmonitored.has(i.vendor)).length,
          activeMaintenance: activeMnt.filter((m) => !unmonitored.has(m.vendor) && isActiveMaintenance(m, now)).length,
          byImpact,
          badges,
          indicators,
          notMonitored: [...perVendor.keys()].filter((s) => unmonitored.has(s)).length,
          averageUptimePercent: rated ? Math.round((uptimeSum / rated) * 1000) / 1000 : null,
        },
      };
    },
  };
}

export type StatsService = ReturnType<typeof statsService>;
