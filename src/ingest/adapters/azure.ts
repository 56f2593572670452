// Azure status RSS (`azure.status.microsoft/en-us/status/feed/`). The feed lists only
// the issues that are active right now, one item per issue, re-published in place as
// the text is updated (same guid, same pubDate). An issue leaving the feed is over,
// so the item list is the complete set of unresolved incidents.
import type { IncidentRecord } from '../../domain/records.ts';
import { defineAdapter, type AdapterInput } from './adapter.ts';
import { entryUpstreamId } from './feed-entry.ts';
import { parseFeedBody, type FeedEntry } from './feed.ts';
import { recordId } from './mapping.ts';
import { collapseWhitespace, htmlToText } from './text.ts';
import { firstIso, requireIso } from './time.ts';

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
    // Categories name the affected services and regions.
    components: entry.categories,
    updates: [{ status: 'investigating', body: htmlToText(entry.html), createdAt: firstIso(entry.updated, startedAt) ?? startedAt }],
    url: entry.link,
    source: 'azure-rss',
  };
}

export const azureRssAdapter = defineAdapter('azure-rss', (input: AdapterInput) => {
  const feed = parseFeedBody('azure-rss', input.body, input.contentType);
  return {
    incidents: feed.entries.map((e) => mapItem(e, input.vendor, feed.updated)),
    incidentsAreCompleteUnresolvedSet: true,
  };
});
