import { audienceFor } from '../access/audience.ts';
import { uniqueSlugs, type WatchlistView, watchlistLimit, watchlistLimitError, watchlistView } from '../../domain/watchlist.ts';
import type { WatchlistRepository } from '../../store/repositories/watchlist-repository.ts';
import type { CatalogService } from '../vendors/catalog-service.ts';
import { ownerOrg, type Viewer } from '../context.ts';
import type { Clock } from '../../domain/clock.ts';
import type { AuditService } from './audit-service.ts';
import { isMonitored, notMonitoredWarning } from '../../domain/monitoring.ts';

/** `warnings` only when there is something to say, so an ordinary answer keeps its shape. */
const withWarnings = <T extends object>(view: T, warnings: string[]): T & { warnings?: string[] } => (warnings.length ? { ...view, warnings } : view);

export function watchlistService(d: { catalog: CatalogService; watchlist: WatchlistRepository; clock: Clock; audit: Pick<AuditService, 'record'> }) {
  return {
    async get(viewer: Viewer): Promise<WatchlistView> {
      const orgId = ownerOrg(viewer);
      return watchlistView(await d.watchlist.list(orgId), viewer.plan);
    },

    /** Replaces the list. Unknown slugs: 404 naming them; over the cap: 403; either way nothing changes. */
    async replace(viewer: Viewer, slugs: string[]): Promise<WatchlistView> {
      const orgId = ownerOrg(viewer, 'editor');
      const vendors = await d.catalog.requireAll(uniqueSlugs(slugs), audienceFor(viewer));
      const limit = watchlistLimit(viewer.plan);
      const before = await d.watchlist.list(orgId);
      const r = await d.watchlist.replace(orgId, vendors, limit, d.clock.now());
      if (r.status === 'full') throw watchlistLimitError(viewer.plan, limit!, vendors.length);
      await d.audit.record(orgId, viewer, 'watchlist.replaced', 'watchlist', { before: { vendors: before }, after: { vendors: r.vendors } });
      return withWarnings(watchlistView(r.vendors, viewer.plan), await d.catalog.notMonitoredWarnings(r.vendors, audienceFor(viewer)));
    },

    /** Adds one vendor; adding a listed vendor changes nothing (also when at the cap). */
    async add(viewer: Viewer, slug: string): Promise<WatchlistView & { added: boolean; warnings?: string[] }> {
      const orgId = ownerOrg(viewer, 'editor');
      const vendor = await d.catalog.require(slug, audienceFor(viewer));
      const limit = watchlistLimit(viewer.plan);
      const r = await d.watchlist.add(orgId, slug, limit, d.clock.now());
      if (r.status === 'full') throw watchlistLimitError(viewer.plan, limit!, r.vendors.length + 1);
      if (r.status === 'added') await d.audit.record(orgId, viewer, 'watchlist.vendor_added', `vendor:${slug}`);
      // Allowed, but said: a vendor without a status source will show nothing (docs/web.md "Not monitored").
      const warnings = isMonitored(vendor) ? [] : [notMonitoredWarning(vendor.name)];
      return withWarnings({ ...watchlistView(r.vendors, viewer.plan), added: r.status === 'added' }, warnings);
    },

    /** Removes one vendor; a catalog vendor that is not listed is a no-op, an unknown slug 404. */
    async remove(viewer: Viewer, slug: string): Promise<WatchlistView> {
      const orgId = ownerOrg(viewer, 'editor');
      await d.catalog.require(slug, audienceFor(viewer));
      const before = await d.watchlist.list(orgId);
      const vendors = await d.watchlist.remove(orgId, slug, d.clock.now());
      if (before.includes(slug)) await d.audit.record(orgId, viewer, 'watchlist.vendor_removed', `vendor:${slug}`);
      return watchlistView(vendors, viewer.plan);
    },
  };
}
