import { audienceFor } from '../access/audience.ts';
import { DEFAULT_PLAN_POLICIES } from '../../domain/plans.ts';
import { componentUptime, type ComponentUptime, weeklyTrend, type WeekPoint, weekStartOf } from '../../domain/trends.ts';
import type { IncidentTimingsRepository } from '../../store/repositories/incident-timings-repository.ts';
import type { StatusRepository } from '../../store/repositories/status-repository.ts';
import type { CatalogService } from '../vendors/catalog-service.ts';
import type { Viewer } from '../context.ts';
import type { Clock } from '../../domain/clock.ts';
import type { SourceHealthService } from '../vendors/source-health-service.ts';

// The figures behind the vendor page's charts (docs/statistics.md, "Trends"),
// from two narrow queries (incident timings, components) and the observed span.

const TREND_WEEKS = 12;
const COMPONENT_UPTIME_DAYS = 90;

export interface VendorTrends {
  weeks: WeekPoint[];
  /** Start of the plan window that bounds MTTR; null when unlimited. */
  mttrSince: string | null;
  components: ComponentUptime[];
  componentDays: number;
}

export function trendsService(d: {
  catalog: CatalogService;
  incidentTimings: IncidentTimingsRepository;
  status: StatusRepository;
  health: SourceHealthService;
  clock: Clock;
}) {
  return {
    /**
     * Incidents per week and the uptime of each component are coarse public
     * history, drawn for everyone like the 90-day bar (docs/web.md); MTTR is a
     * statistic and stays inside the viewer's plan window.
     */
    async vendorTrends(slug: string, viewer: Viewer): Promise<VendorTrends> {
      await d.catalog.require(slug, audienceFor(viewer));
      const now = d.clock.now();
      const firstWeek = weekStartOf(now.getTime()) - (TREND_WEEKS - 1) * 7 * 86_400_000;
      const todayStart = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
      const componentSince = new Date(todayStart - (COMPONENT_UPTIME_DAYS - 1) * 86_400_000);
      const since = new Date(Math.min(firstWeek, componentSince.getTime())).toISOString();
      const cap = DEFAULT_PLAN_POLICIES[viewer.plan].windowDays;
      const mttrSince = cap === null ? null : new Date(now.getTime() - cap * 86_400_000);
      const [rows, components, observed] = await Promise.all([
        d.incidentTimings.since([slug], since, true),
        d.status.componentRecords(slug),
        d.health.observed([slug], audienceFor(viewer)),
      ]);
      const span = observed(slug);
      const names = [...new Set(components.map((c) => c.name))];
      return {
        weeks: weeklyTrend(rows, TREND_WEEKS, now, span, mttrSince),
        mttrSince: mttrSince?.toISOString() ?? null,
        components: componentUptime(rows, names, componentSince, now, span),
        componentDays: COMPONENT_UPTIME_DAYS,
      };
    },
  };
}
