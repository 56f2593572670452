import { createHash } from 'node:crypto';
import { audienceFor } from '../access/audience.ts';
import { DEFAULT_PLAN_POLICIES } from '../../domain/plans.ts';
import type { Advisory, Maintenance } from '../../domain/records.ts';
import type { VendorStats } from '../../domain/stats.ts';
import { type DataWindow, resolveWindow } from '../../domain/time-window.ts';
import type { IncidentsRepository } from '../../store/repositories/incidents-repository.ts';
import type { MaintenancesRepository } from '../../store/repositories/maintenances-repository.ts';
import type { PublicationsRepository } from '../../store/repositories/publications-repository.ts';
import type { VendorsRepository } from '../../store/repositories/vendors-repository.ts';
import type { CatalogService } from '../vendors/catalog-service.ts';
import { ownerOrg, type Viewer } from '../context.ts';
import type { Clock } from '../../domain/clock.ts';
import type { ActivityItem } from './records-service.ts';
import type { StatsService } from './stats-service.ts';
import { incidentView, nameOf, withVendorName } from '../../domain/record-views.ts';

// POST /dashboard-favorites: one bundle for many vendors, keyed by section then
// vendor. Every section costs a fixed number of queries whatever the number of
// vendors (per-vendor cuts are done in SQL with a window function), so a
// whole-catalog dashboard is one request and about ten queries. The answer is cached
// by the response cache (docs/per-user.md "Caching and freshness of the bundle").

export const FAVORITE_SECTIONS = ['stats', 'maintenance', 'advisories', 'recentActivity'] as const;
export type FavoriteSection = (typeof FAVORITE_SECTIONS)[number];
export const DEFAULT_SECTIONS: FavoriteSection[] = ['stats', 'maintenance', 'advisories'];
// Above the catalog's size (961 vendors), so a dashboard of every vendor is one request.
export const MAX_FAVORITE_VENDORS = 1000;
export const DEFAULT_PER_VENDOR = 10;
export const MAX_PER_VENDOR = 50;
/** One window for the whole bundle unless `timePeriod` says otherwise (clamped to the plan). */
const DEFAULT_BUNDLE_PERIOD = '30d';

export interface FavoritesQuery {
  vendors: string[];
  sections?: FavoriteSection[];
  timePeriod?: string;
  perVendorLimit?: number;
}

export interface FavoritesBundle {
  vendors: string[];
  sections: FavoriteSection[];
  perVendorLimit: number;
  stats?: Record<string, VendorStats>;
  maintenance?: Record<string, Maintenance[]>;
  advisories?: Record<string, Advisory[]>;
  recentActivity?: Record<string, ActivityItem[]>;
}

const keyed = <T>(vendors: string[], f: (v: string) => T): Record<string, T> => Object.fromEntries(vendors.map((v) => [v, f(v)]));

export function favoritesService(d: {
  catalog: CatalogService;
  vendors: VendorsRepository;
  incidents: IncidentsRepository;
  maintenances: MaintenancesRepository;
  publications: PublicationsRepository;
  stats: StatsService;
  clock: Clock;
}) {
  /** Sections in their fixed order, defaults applied. */
  const sectionsOf = (q: FavoritesQuery) => FAVORITE_SECTIONS.filter((s) => (q.sections?.length ? q.sections : DEFAULT_SECTIONS).includes(s));

  return {
    /**
     * What the bundle of `q` depends on besides the data and the audience, for the response
     * cache (docs/per-user.md "Dashboard bundle"): the vendors in request order (the answer
     * lists them so), the sections, the per-vendor limit and the window as the plan applies
     * it (requested, applied, capped). Hashed: a whole-catalog list is ~8 KB of slugs.
     */
    bundleKey(q: FavoritesQuery, viewer: Viewer): string {
      const w = resolveWindow(q.timePeriod, DEFAULT_PLAN_POLICIES[viewer.plan].windowDays, d.clock.now(), DEFAULT_BUNDLE_PERIOD);
      const parts = [[...new Set(q.vendors)].join(','), sectionsOf(q).join(','), q.perVendorLimit ?? DEFAULT_PER_VENDOR, w.requested, w.applied, w.capped];
      return createHash('sha256').update(JSON.stringify(parts)).digest('base64url');
    },

    async bundle(q: FavoritesQuery, viewer: Viewer): Promise<{ bundle: FavoritesBundle; dataWindow: DataWindow }> {
      ownerOrg(viewer);
      const audience = audienceFor(viewer);
      const vendors = await d.catalog.requireAll(q.vendors, audience);
      const sections = sectionsOf(q);
      const n = q.perVendorLimit ?? DEFAULT_PER_VENDOR;
      const now = d.clock.now();
      const dataWindow = resolveWindow(q.timePeriod, DEFAULT_PLAN_POLICIES[viewer.plan].windowDays, now, DEFAULT_BUNDLE_PERIOD);
      const since = dataWindow.since ?? undefined;
      const want = (s: FavoriteSection) => sections.includes(s);
      const none = Promise.resolve(new Map<string, never[]>());

      // The advisories section and recent activity cut the same advisories (same window, same
      // limit): read once.
      const windowAdvisories = want('advisories') || want('recentActivity') ? d.publications.latestAdvisoriesPerVendor({ audience, vendors, since }, n) : none;
      const [names, stats, upcoming, advisories, actInc, actMnt, actUpd] = await Promise.all([
        want('maintenance') || want('advisories') || want('recentActivity') ? d.vendors.names(audience) : Promise.resolve(new Map<string, string>()),
        want('stats') ? d.stats.statsFor(vendors, dataWindow, audience) : Promise.resolve(new Map<string, VendorStats>()),
        want('maintenance') ? d.maintenances.firstPerVendor({ audience, vendors, upcomingOnly: true }, n, 'asc') : none,
        windowAdvisories,
        want('recentActivity') ? d.incidents.latestPerVendor({ audience, vendors, since }, n) : none,
        want('recentActivity') ? d.maintenances.firstPerVendor({ audience, vendors, since }, n, 'desc') : none,
        want('recentActivity') ? d.publications.latestUpdatesPerVendor({ audience, vendors, since }, n) : none,
      ]);
      const actAdv = advisories;
      const name = (v: string) => nameOf(names, v);

      const bundle: FavoritesBundle = { vendors, sections, perVendorLimit: n };
      if (want('stats')) bundle.stats = keyed(vendors, (v) => stats.get(v)!);
      if (want('maintenance')) {
        bundle.maintenance = keyed(vendors, (v) => (upcoming.get(v) ?? []).map((m) => withVendorName(m, name(v))));
      }
      if (want('advisories')) {
        bundle.advisories = keyed(vendors, (v) => (advisories.get(v) ?? []).map((a) => withVendorName(a, name(v))));
      }
      if (want('recentActivity')) {
        // Same items and order as GET /dashboard-recent-activity, cut per vendor.
        bundle.recentActivity = keyed(vendors, (v) => {
          const merged: ActivityItem[] = [
            ...(actInc.get(v) ?? []).map((i) => ({ kind: 'incident' as const, at: i.updatedAt, ...incidentView(i, name(v), now) })),
            ...(actMnt.get(v) ?? []).map((m) => ({ kind: 'maintenance' as const, at: m.scheduledFor, ...withVendorName(m, name(v)) })),
            ...(actAdv.get(v) ?? []).map((a) => ({ kind: 'advisory' as const, at: a.publishedAt, ...withVendorName(a, name(v)) })),
            ...(actUpd.get(v) ?? []).map((u) => ({ kind: 'update' as const, at: u.publishedAt, ...withVendorName(u, name(v)) })),
          ];
          merged.sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : a.id < b.id ? 1 : -1));
          return merged.slice(0, n);
        });
      }
      return { bundle, dataWindow };
    },
  };
}
