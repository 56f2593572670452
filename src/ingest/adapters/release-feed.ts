// Release-note / changelog feeds (RSS, Atom or JSON Feed) → UpdateRecord, with the
// entry's categories (RSS <category>, Atom category@term, JSON Feed tags).
import type { UpdateRecord } from '../../domain/records.ts';
import { defineAdapter, type AdapterInput } from './adapter.ts';
import { entryUpstreamId } from './feed-ids.ts';
import { parseFeedBody, type FeedEntry } from './feed.ts';
import { recordId } from './mapping.ts';
import { collapseWhitespace, htmlToText, truncate } from './text.ts';
import { firstIso, requireIso } from './time.ts';

export const SUMMARY_MAX = 1000;

function mapEntry(entry: FeedEntry, vendor: string): UpdateRecord {
  const upstream = entryUpstreamId(entry);
  return {
    id: recordId(vendor, upstream),
    vendor,
    title: collapseWhitespace(entry.title),
    publishedAt: requireIso(`release-feed: entry ${upstream} published`, firstIso(entry.published, entry.updated)),
    summary: truncate(htmlToText(entry.summaryHtml), SUMMARY_MAX),
    categories: entry.categories,
    url: entry.link,
    source: 'release-feed',
  };
}

export const releaseFeedAdapter = defineAdapter('release-feed', (input: AdapterInput) => {
  const feed = parseFeedBody('release-feed', input.body, input.contentType, { allowJson: true });
  return { updates: feed.entries.map((e) => mapEntry(e, input.vendor)) };
});
