import { audienceOf, PUBLIC_AUDIENCE, type Audience } from '../../domain/audience.ts';
import { Feed } from 'feed';
import { DEFAULT_PLAN_POLICIES } from '../../domain/plans.ts';
import type { Incident, Maintenance } from '../../domain/records.ts';
import { resolveWindow } from '../../domain/time-window.ts';
import type { IncidentsRepository } from '../../store/repositories/incidents-repository.ts';
import type { MaintenancesRepository } from '../../store/repositories/maintenances-repository.ts';
import type { VendorsRepository } from '../../store/repositories/vendors-repository.ts';
import type { WatchlistRepository } from '../../store/repositories/watchlist-repository.ts';
import type { CatalogService } from '../vendors/catalog-service.ts';
import type { Clock } from '../../domain/clock.ts';
import { feedText } from './feed-text.ts';
import { escapeHtml } from '../../domain/html-escape.ts';
import { maintenanceCalendar } from '../records/maintenance-calendar.ts';
import type { PreferencesService } from '../alerts/preferences-service.ts';
import { incidentView, nameOf, withVendorName } from '../../domain/record-views.ts';

// Public vendor feeds (docs/integrations.md, "Public feeds"): normalised incidents and
// maintenance of one vendor or a list, as RSS 2.0 or Atom 1.0 in one format for every
// vendor, and maintenance windows as iCalendar, per vendor or for a user's watchlist.
// Anyone may read them, so history is bounded by the anonymous plan's window, like an
// anonymous call of the data API. Links never contain the request's Host (the answers
// are cached for everyone): our own URLs appear only when PUBLIC_URL is set.

export type FeedFormat = 'rss' | 'atom';
/** Most items in one feed. */
const FEED_ITEMS = 50;
/** Most maintenance windows in one calendar. */
const CALENDAR_EVENTS = 200;

type Entry = { kind: 'incident'; record: Incident; at: string } | { kind: 'maintenance'; record: Maintenance; at: string };

export function publicFeedService(d: {
  catalog: CatalogService;
  vendors: VendorsRepository;
  incidents: IncidentsRepository;
  maintenances: MaintenancesRepository;
  watchlist: WatchlistRepository;
  preferences: PreferencesService;
  clock: Clock;
  publicUrl: string | null;
}) {
  const since = () => resolveWindow(undefined, DEFAULT_PLAN_POLICIES.anonymous.windowDays, d.clock.now()).since ?? undefined;

  async function profiles(slugs: string[]) {
    const all = await d.vendors.list(PUBLIC_AUDIENCE);
    const bySlug = new Map(all.map((v) => [v.slug, v]));
    return slugs.map((s) => bySlug.get(s)!);
  }

  async function maintenanceOf(slugs: string[], names: Map<string, string>, audience: Audience): Promise<Maintenance[]> {
    if (!slugs.length) return [];
    const page = await d.maintenances.list({ audience, vendors: slugs, since: since() }, CALENDAR_EVENTS, 0);
    return page.items.map((m) => withVendorName(m, nameOf(names, m.vendor)));
  }

  return {
    /** Incidents and maintenance of the vendors, newest change first. 404 for an unknown vendor. */
    async vendorFeed(slugs: string[], format: FeedFormat, selfPath: string): Promise<string> {
      const vendors = await profiles(await d.catalog.requireAll(slugs, PUBLIC_AUDIENCE));
      const names = new Map(vendors.map((v) => [v.slug, v.name]));
      const now = d.clock.now();
      const [inc, mnt] = await Promise.all([
        d.incidents.list({ audience: PUBLIC_AUDIENCE, vendors: slugs, since: since() }, FEED_ITEMS, 0),
        d.maintenances.list({ audience: PUBLIC_AUDIENCE, vendors: slugs, since: since() }, FEED_ITEMS, 0),
      ]);
      const entries: Entry[] = [
        ...inc.items.map((i) => ({
          kind: 'incident' as const,
          at: i.updatedAt,
          record: incidentView(i, nameOf(names, i.vendor), now),
        })),
        ...mnt.items.map((m) => ({
          kind: 'maintenance' as const,
          at: m.updates.at(-1)?.createdAt ?? m.startedAt ?? m.scheduledFor,
          record: withVendorName(m, nameOf(names, m.vendor)),
        })),
      ];
      entries.sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0));
      const items = entries.slice(0, FEED_ITEMS);
      const single = vendors.length === 1 ? vendors[0]! : null;
      const title = single ? `${single.name} status history` : `Status history: ${vendors.map((v) => v.name).join(', ')}`;
      const site = d.publicUrl ? `${d.publicUrl}/` : vendors[0]!.statusPageUrl;
      const self = d.publicUrl ? `${d.publicUrl}${selfPath}` : undefined;
      const feed = new Feed({
        title,
        description: 'Incidents and maintenance, normalised by Vendor Status API',
        id: `urn:vendor-status:vendors:${[...slugs].sort().join(',')}`,
        link: single ? single.statusPageUrl : site,
        language: 'en',
        updated: items[0] ? new Date(items[0].at) : new Date(0),
        generator: 'Vendor Status API',
        copyright: 'Vendor status data belongs to each vendor',
        ...(self ? { feedLinks: format === 'rss' ? { rss: self } : { atom: self } } : {}),
        author: { name: 'Vendor Status API', ...(d.publicUrl ? { link: site } : {}) },
      });
      for (const e of items) {
        const r = e.record;
        const page = vendors.find((v) => v.slug === r.vendor)!.statusPageUrl;
        const state = e.kind === 'incident' ? `${e.record.status}, ${e.record.impact} impact` : `maintenance ${e.record.status.replace('_', ' ')}`;
        const latest = r.updates.at(-1)?.body ?? '';
        feed.addItem({
          title: feedText(format, `${r.vendorName}: ${r.title} (${state})`),
          id: `urn:vendor-status:${e.kind}:${r.vendor}:${r.id}`,
          link: r.url ?? page,
          date: new Date(e.at),
          published: new Date(e.kind === 'incident' ? e.record.startedAt : e.record.scheduledFor),
          description: feedText(format, latest || state),
          content: r.updates.length
            ? `<ul>${[...r.updates]
                .reverse()
                .map((u) => `<li><strong>${escapeHtml(u.status)}</strong> (${escapeHtml(u.createdAt)}): ${escapeHtml(u.body)}</li>`)
                .join('')}</ul>`
            : `<p>${escapeHtml(state)}</p>`,
          category: [{ name: e.kind }, { name: r.vendor }],
        });
      }
      return format === 'rss' ? feed.rss2() : feed.atom1();
    },

    /** Maintenance windows of the vendors (recent, current and upcoming). 404 for an unknown vendor. */
    async vendorCalendar(slugs: string[]): Promise<string> {
      const vendors = await profiles(await d.catalog.requireAll(slugs, PUBLIC_AUDIENCE));
      const names = new Map(vendors.map((v) => [v.slug, v.name]));
      const windows = await maintenanceOf(slugs, names, PUBLIC_AUDIENCE);
      const name = vendors.length === 1 ? `${vendors[0]!.name} maintenance` : `Maintenance: ${vendors.map((v) => v.name).join(', ')}`;
      return maintenanceCalendar({ name, windows, now: d.clock.now() });
    },

    /**
     * Maintenance windows of a user's watchlist (minus muted vendors), at the personal
     * feed's secret URL; null for an unknown token or a feed switched off (404).
     */
    async watchlistCalendar(token: string): Promise<string | null> {
      const orgId = await d.preferences.userForFeedToken(token);
      if (!orgId || !(await d.preferences.feedEnabled(orgId))) return null;
      const muted = new Set(await d.preferences.mutedVendors(orgId));
      const slugs = (await d.watchlist.list(orgId)).filter((v) => !muted.has(v));
      // The account's own secret feed: its own pages are in it.
      const audience = audienceOf(orgId);
      const names = await d.vendors.names(audience);
      const windows = await maintenanceOf(slugs, names, audience);
      return maintenanceCalendar({ name: 'Maintenance of my vendors', windows, now: d.clock.now() });
    },
  };
}
