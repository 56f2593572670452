// Release-note / changelog feeds (RSS, Atom or JSON Feed) → UpdateRecord, with the
// entry's categories (RSS <category>, Atom category@term, JSON Feed tags).
import type { UpdateRecord } from '../../domain/records.ts';
import { defineAdapter, type AdapterInput } from './adapter.ts';
import { entrySummary, entryUpstreamId } from './feed-entry.ts';
import { parseFeedBody, type FeedEntry } from './feed.ts';
import { recordId } from './mapping.ts';
import { collapseWhitespace } from './text.ts';
import { firstIso, requireIso } from './time.ts';

function mapEntry(entry: FeedEntry, vendor: string): UpdateRecord {
  const upstream = entryUpstreamId(entry);
  return {
    id: recordId(vendor, upstream),
    vendor,
    title: collapseWhitespace(entry.title),
    publishedAt: requireIso(`release-feed: entry ${upstream} published`, firstIso(entry.published, entry.updated)),
    summary: entrySummary(entry),
    categories: entry.categories,
    url: entry.link,
    source: 'release-feed',
  };
}

export const releaseFeedAdapter = defineAdapter('release-feed', (input: AdapterInput) => {
  const feed = parseFeedBody('release-feed', input.body, input.contentType, { allowJson: true });
  return { updates: feed.entries.map((e) => mapEntry(e, input.vendor)) };
});
