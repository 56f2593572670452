// What the feed-based adapters derive alike from an entry: its stable id and its
// plain-text summary.
import { createHash } from 'node:crypto';
import type { FeedEntry } from './feed.ts';
import { htmlToText, truncate } from './text.ts';

/** Summaries are for lists and alerts, not archives: long bodies are cut at a word boundary. */
const SUMMARY_MAX = 1000;

/**
 * guid / Atom id / JSON Feed id, else the link, else a hash of title and date (a feed
 * without any identifier still must not duplicate records on every poll).
 */
export function entryUpstreamId(entry: FeedEntry): string {
  return (
    entry.id ??
    entry.link ??
    createHash('sha256')
      .update(`${entry.title}\n${entry.publishedRaw ?? entry.updatedRaw ?? ''}`)
      .digest('hex')
      .slice(0, 16)
  );
}

export function entrySummary(entry: FeedEntry): string {
  return truncate(htmlToText(entry.summaryHtml), SUMMARY_MAX);
}
