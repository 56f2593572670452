// Stable ids for feed entries: guid / Atom id / JSON Feed id, else the link, else a
// hash of title and date (a feed without any identifier still must not duplicate).
import { createHash } from 'node:crypto';
import type { FeedEntry } from './feed.ts';

export function entryUpstreamId(entry: FeedEntry): string {
  return (
    entry.id ??
    entry.link ??
    createHash('sha256').update(`${entry.title}\n${entry.publishedRaw ?? entry.updatedRaw ?? ''}`).digest('hex').slice(0, 16)
  );
}
