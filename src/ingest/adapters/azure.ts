// Azure status RSS (`azure.status.microsoft/en-us/status/feed/`). The feed lists only
// the issues that are active right now, one item per issue, re-published in place as
// the text is updated (same guid, same pubDate). An issue leaving the feed is over,
// so the item list is the complete set of unresolved incidents.
import type { IncidentRecord } from '../../domain/records.ts';
import { normaliseRegion, type Region } from '../../domain/regions.ts';
import { defineAdapter, type AdapterInput } from './adapter.ts';
import { CloudComponentList, recordComponentNames, type CloudComponent } from './cloud-components.ts';
import { entryUpstreamId } from './feed-entry.ts';
import { parseFeedBody, type FeedEntry } from './feed.ts';
import { recordId } from './mapping.ts';
import { collapseWhitespace, htmlToText } from './text.ts';
import { firstIso, requireIso } from './time.ts';

const slug = (s: string) =>
  s
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '') || 'service';

/**
 * An item's categories name its services and its regions alike ("App Service", "West US"):
 * a category the region vocabulary reads as one Azure region is a region, the rest services.
 * Each service in each region is a component; a service without a region stands alone, and
 * regions without a service are components of their own.
 */
export function azureComponents(categories: readonly string[]): CloudComponent[] {
  const regions: Region[] = [];
  const services: string[] = [];
  for (const raw of categories) {
    const label = collapseWhitespace(raw);
    if (!label) continue;
    const region = normaliseRegion(label, 'azure');
    if (region) {
      if (!regions.includes(region)) regions.push(region);
    } else if (!services.includes(label)) services.push(label);
  }
  if (services.length === 0) return regions.map((r) => ({ id: r.code, service: r.name, region: r, location: null }));
  if (regions.length === 0) return services.map((s) => ({ id: slug(s), service: s, region: null, location: null }));
  return services.flatMap((s) => regions.map((r) => ({ id: `${slug(s)}-${r.code}`, service: s, region: r, location: null })));
}

function mapItem(entry: FeedEntry, vendor: string, feedUpdated: string | null): IncidentRecord {
  const upstream = entryUpstreamId(entry);
  const startedAt = requireIso(`azure-rss: item ${upstream} pubDate`, firstIso(entry.published, entry.updated, feedUpdated));
  return {
    id: recordId(vendor, upstream),
    vendor,
    title: collapseWhitespace(entry.title),
    status: 'investigating',
    sourceStatus: 'active',
    // Azure posts on the public page only for broad-impact issues (the rest goes to
    // per-subscription Service Health), so a listed issue is treated as major.
    impact: 'major',
    startedAt,
    updatedAt: firstIso(entry.updated, entry.published) ?? startedAt,
    resolvedAt: null,
    // Categories name the affected services and regions: one component per service and region.
    components: recordComponentNames(azureComponents(entry.categories)),
    updates: [{ status: 'investigating', body: htmlToText(entry.html), createdAt: firstIso(entry.updated, startedAt) ?? startedAt }],
    url: entry.link,
    source: 'azure-rss',
  };
}

export const azureRssAdapter = defineAdapter('azure-rss', (input: AdapterInput) => {
  const feed = parseFeedBody('azure-rss', input.body, input.contentType);
  // Every listed issue is active; a service and region no item names is not affected by Azure's
  // account, so components seen before stay listed as operational (docs/mappings.md "Cloud depth").
  const components = new CloudComponentList();
  for (const e of feed.entries) for (const c of azureComponents(e.categories)) components.add(c, 'partial_outage');
  return {
    incidents: feed.entries.map((e) => mapItem(e, input.vendor, feed.updated)),
    incidentsAreCompleteUnresolvedSet: true,
    components: components.records(),
    componentsKeepUnlisted: true,
  };
});
