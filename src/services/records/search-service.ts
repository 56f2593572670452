import { audienceFor } from '../access/audience.ts';
import { DomainError } from '../../domain/errors.ts';
import { DEFAULT_PLAN_POLICIES } from '../../domain/plans.ts';
import type { Impact, Incident } from '../../domain/records.ts';
import type { SearchRepository } from '../../store/repositories/search-repository.ts';
import type { VendorsRepository } from '../../store/repositories/vendors-repository.ts';
import type { CatalogService } from '../vendors/catalog-service.ts';
import type { Viewer } from '../context.ts';
import type { Clock } from '../../domain/clock.ts';
import { incidentView, nameOf } from '../../domain/record-views.ts';

// Search across vendors and incidents for the web search page (docs/web.md,
// "Search"). Incidents are bounded by the viewer's plan window like every
// incident list; results are capped (the page says how many matched in all).

const SEARCH_MAX_TEXT = 100;
const SEARCH_VENDOR_LIMIT = 20;
const SEARCH_INCIDENT_LIMIT = 50;
const IMPACTS: readonly Impact[] = ['none', 'minor', 'major', 'critical'];

export interface SearchQuery {
  text: string;
  vendor?: string;
  impact?: string;
  component?: string;
}

export interface SearchResult {
  vendors: { slug: string; name: string; category: string }[];
  incidents: Incident[];
  incidentTotal: number;
  /** Start of the plan window the incidents were searched in; null when unlimited. */
  since: string | null;
  windowDays: number | null;
}

export function searchService(d: { catalog: CatalogService; search: SearchRepository; vendors: VendorsRepository; clock: Clock }) {
  return {
    impacts: IMPACTS,

    async search(q: SearchQuery, viewer: Viewer): Promise<SearchResult> {
      const text = q.text.trim().slice(0, SEARCH_MAX_TEXT);
      if (q.impact && !IMPACTS.includes(q.impact as Impact)) {
        throw new DomainError('invalid_parameter', `Unknown impact '${q.impact.slice(0, 20)}'`, { parameter: 'impact' });
      }
      const audience = audienceFor(viewer);
      if (q.vendor) await d.catalog.require(q.vendor, audience);
      const component = q.component?.trim().slice(0, SEARCH_MAX_TEXT) || undefined;
      const impact = (q.impact || undefined) as Impact | undefined;
      const windowDays = DEFAULT_PLAN_POLICIES[viewer.plan].windowDays;
      const now = d.clock.now();
      const since = windowDays === null ? null : new Date(now.getTime() - windowDays * 86_400_000).toISOString();
      // Nothing asked: no search (an empty page, not every incident on record).
      if (!text && !q.vendor && !impact && !component) return { vendors: [], incidents: [], incidentTotal: 0, since, windowDays };
      const [vendors, found, names] = await Promise.all([
        text && !q.vendor && !impact && !component ? d.search.vendors(text, SEARCH_VENDOR_LIMIT, audience) : Promise.resolve([]),
        d.search.incidents({
          audience,
          text,
          vendors: q.vendor ? [q.vendor] : undefined,
          impact,
          component,
          since: since ?? undefined,
          limit: SEARCH_INCIDENT_LIMIT,
        }),
        d.vendors.names(audience),
      ]);
      const incidents = found.items.map((i) => incidentView(i, nameOf(names, i.vendor), now));
      return { vendors, incidents, incidentTotal: found.total, since, windowDays };
    },
  };
}
