import { audienceFor } from '../services/access/audience.ts';
import { DEFAULT_PLAN_POLICIES, type Plan, USER_PLANS } from '../domain/plans.ts';
import type { Viewer } from '../services/context.ts';
import type { Services } from '../services/index.ts';
import type { StatsColumn, VendorPageData } from './pages/vendor.ts';

// Gathers what the vendor page shows from the services (the same use cases the
// API calls), so the page and the API can never disagree.

const STATS_PERIODS = ['7d', '30d', '90d'] as const;
const PAST_PAGE_SIZE = 20;

/** The cheapest plan whose history window covers `days`. */
function planForWindow(days: number): Plan | null {
  return (
    USER_PLANS.find((p) => {
      const w = DEFAULT_PLAN_POLICIES[p].windowDays;
      return w === null || w >= days;
    }) ?? null
  );
}

const humanizePlan = (p: Plan | null) => (p ? p.charAt(0).toUpperCase() + p.slice(1) : 'A higher');

export async function vendorPageData(s: Services, slug: string, viewer: Viewer, page: number): Promise<VendorPageData> {
  const audience = audienceFor(viewer);
  const profile = await s.catalog.info(slug, audience); // 404 for an unknown slug (or another account's page)
  const cap = DEFAULT_PLAN_POLICIES[viewer.plan].windowDays;
  const types = profile.availableDataTypes;
  const policy = DEFAULT_PLAN_POLICIES[viewer.plan];
  const [status, uptime, trends, stats, past, maintenance, advisories, updates, capabilities, watchlist] = await Promise.all([
    s.status.vendorStatus(slug, audience),
    s.overview.uptimeBar(slug, audience, 90),
    s.trends.vendorTrends(slug, viewer),
    Promise.all(
      STATS_PERIODS.map(async (period): Promise<StatsColumn> => {
        const days = Number(period.slice(0, -1));
        if (cap !== null && days > cap) return { period, stats: null, requiredPlan: planForWindow(days) };
        return { period, stats: (await s.stats.vendorStats(slug, period, viewer)).stats, requiredPlan: null };
      }),
    ),
    types.includes('incidents')
      ? s.records.incidents({ vendors: [slug], status: 'resolved', limit: PAST_PAGE_SIZE, offset: (page - 1) * PAST_PAGE_SIZE }, viewer)
      : null,
    types.includes('maintenance') ? s.records.maintenance({ vendors: [slug], limit: 20, offset: 0 }, viewer) : null,
    types.includes('advisories') ? s.records.advisories({ vendors: [slug], limit: 10, offset: 0 }, viewer) : null,
    types.includes('updates') ? s.records.updates({ vendors: [slug], limit: 10, offset: 0 }, viewer) : null,
    s.catalog.capabilities(slug, audience),
    viewer.orgId ? s.watchlist.get(viewer) : null,
  ]);
  // The viewer's organisation's own suspicion (docs/early-warning.md "Outputs"); none for visitors.
  const signal = viewer.orgId ? ((await s.earlyWarning.signals.activeFor(viewer)).get(slug) ?? null) : null;
  // The organisation's own lead over the vendor's page (docs/early-warning.md "Transparency"); none for visitors.
  const transparency = await s.earlyWarning.transparency.forViewer(viewer, slug);
  let compliance: VendorPageData['compliance'] = { state: 'none' };
  if (capabilities.features.compliance) {
    if (policy.compliance) {
      const c = await s.catalog.compliance(slug, viewer);
      compliance = { state: 'available', items: c.items, sourceUrl: c.sourceUrl, message: c.message };
    } else compliance = { state: 'locked' };
  }
  return {
    profile,
    status,
    uptime,
    trends,
    trendsLockedNote: cap === null ? null : `${humanizePlan(planForWindow(90))} plan`,
    filter: { impacts: s.search.impacts, components: [...new Set(status.components.map((c) => c.name))] },
    stats,
    pastIncidents: {
      items: past?.items ?? [],
      total: past?.total ?? 0,
      page,
      pageSize: PAST_PAGE_SIZE,
      window: past?.dataWindow.applied ?? (cap === null ? 'all' : `${cap}d`),
    },
    maintenance: maintenance?.items ?? [],
    advisories: advisories?.items ?? null,
    updates: updates?.items ?? null,
    compliance,
    watched: watchlist ? watchlist.vendors.includes(slug) : null,
    suspected: signal && signal.state === 'suspected' ? { confidence: signal.confidence, openedAt: signal.openedAt } : null,
    transparency,
  };
}
