import { audienceFor } from './audience.ts';
import { DomainError } from '../domain/errors.ts';
import { uniqueSlugs, type WatchlistView, watchlistLimit, watchlistLimitError, watchlistView } from '../domain/watchlist.ts';
import type { WatchlistRepository } from '../store/repositories/watchlist-repository.ts';
import type { CatalogService } from './catalog-service.ts';
import type { Viewer } from './context.ts';
import type { Clock } from '../domain/clock.ts';

/** The signed-in user behind a viewer; per-user use cases refuse anonymous callers. */
export function requireUserId(viewer: Viewer): string {
  if (!viewer.userId) throw new DomainError('unauthorized', 'Authentication required: send a valid API key or sign in');
  return viewer.userId;
}

export function watchlistService(d: { catalog: CatalogService; watchlist: WatchlistRepository; clock: Clock }) {
  return {
    async get(viewer: Viewer): Promise<WatchlistView> {
      const userId = requireUserId(viewer);
      return watchlistView(await d.watchlist.list(userId), viewer.plan);
    },

    /** Replaces the list. Unknown slugs: 404 naming them; over the cap: 403; either way nothing changes. */
    async replace(viewer: Viewer, slugs: string[]): Promise<WatchlistView> {
      const userId = requireUserId(viewer);
      const vendors = await d.catalog.requireAll(uniqueSlugs(slugs), audienceFor(viewer));
      const limit = watchlistLimit(viewer.plan);
      const r = await d.watchlist.replace(userId, vendors, limit, d.clock.now());
      if (r.status === 'full') throw watchlistLimitError(viewer.plan, limit!, vendors.length);
      return watchlistView(r.vendors, viewer.plan);
    },

    /** Adds one vendor; adding a listed vendor changes nothing (also when at the cap). */
    async add(viewer: Viewer, slug: string): Promise<WatchlistView & { added: boolean }> {
      const userId = requireUserId(viewer);
      await d.catalog.require(slug, audienceFor(viewer));
      const limit = watchlistLimit(viewer.plan);
      const r = await d.watchlist.add(userId, slug, limit, d.clock.now());
      if (r.status === 'full') throw watchlistLimitError(viewer.plan, limit!, r.vendors.length + 1);
      return { ...watchlistView(r.vendors, viewer.plan), added: r.status === 'added' };
    },

    /** Removes one vendor; a catalog vendor that is not listed is a no-op, an unknown slug 404. */
    async remove(viewer: Viewer, slug: string): Promise<WatchlistView> {
      const userId = requireUserId(viewer);
      await d.catalog.require(slug, audienceFor(viewer));
      return watchlistView(await d.watchlist.remove(userId, slug, d.clock.now()), viewer.plan);
    },
  };
}
