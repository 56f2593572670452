// Security advisory feeds (RSS, Atom or JSON Feed) → AdvisoryRecord. Feeds rarely
// carry a machine-readable severity, so it is inferred from the text (see
// inferSeverity), and CVE ids are collected wherever they appear.
import type { AdvisoryRecord, Severity } from '../../domain/records.ts';
import { defineAdapter, type AdapterInput } from './adapter.ts';
import { entrySummary, entryUpstreamId } from './feed-entry.ts';
import { parseFeedBody, type FeedEntry } from './feed.ts';
import { recordId } from './mapping.ts';
import { collapseWhitespace, htmlToText } from './text.ts';
import { firstIso, latestIso, requireIso } from './time.ts';

const WORD_SEVERITY: Record<string, Severity> = {
  critical: 'critical',
  high: 'high',
  important: 'high',
  medium: 'medium',
  moderate: 'medium',
  low: 'low',
};

const LEVEL = '(critical|high|important|medium|moderate|low)';
const LABELLED_BEFORE = new RegExp(`\\b(?:severity|severity rating|threat level|risk|impact|priority)\\s*(?:level|rating)?\\s*[:=\\-]?\\s*${LEVEL}\\b`, 'i');
const LABELLED_AFTER = new RegExp(`\\b${LEVEL}[\\s-]+(?:severity|risk|impact|priority)\\b`, 'i');
// "CVSS v3.1 base score: 9.8", "CVSS score of 7.5", "CVSSv3 8.1" — but not a vector "CVSS:3.1/AV:N…".
const CVSS = /\bCVSS(?:\s*v?[234](?:\.\d)?)?(?:\s*base)?(?:\s*score)?(?:\s*of)?\s*[:=]?\s*(\d{1,2}\.\d)(?![\d/])/i;
const TITLE_WORD = new RegExp(`\\b${LEVEL}\\b`, 'i');

function severityOfCvss(score: number): Severity {
  if (score >= 9) return 'critical';
  if (score >= 7) return 'high';
  if (score >= 4) return 'medium';
  return 'low';
}

/**
 * Severity, first match wins: an explicit label ("Severity: High", "critical severity")
 * anywhere; else a CVSS base score (9.0+ critical, 7.0+ high, 4.0+ medium, else low);
 * else a level word in the title ("Important: kernel security update"); else medium.
 */
export function inferSeverity(title: string, text: string): Severity {
  const all = `${title} ${text}`;
  const labelled = LABELLED_BEFORE.exec(all) ?? LABELLED_AFTER.exec(all);
  if (labelled) return WORD_SEVERITY[labelled[1]!.toLowerCase()]!;
  const cvss = CVSS.exec(all);
  if (cvss) {
    const score = Number(cvss[1]);
    if (score >= 0 && score <= 10) return severityOfCvss(score);
  }
  const word = TITLE_WORD.exec(title);
  if (word) return WORD_SEVERITY[word[1]!.toLowerCase()]!;
  return 'medium';
}

/** CVE ids in order of first appearance, upper-cased and de-duplicated. */
export function extractCves(...texts: string[]): string[] {
  const out: string[] = [];
  for (const text of texts) {
    for (const m of text.matchAll(/\bCVE-(\d{4})-(\d{4,7})\b/gi)) {
      const id = `CVE-${m[1]}-${m[2]}`;
      if (!out.includes(id)) out.push(id);
    }
  }
  return out;
}

function mapEntry(entry: FeedEntry, vendor: string): AdvisoryRecord {
  const upstream = entryUpstreamId(entry);
  const publishedAt = requireIso(`advisory-feed: entry ${upstream} published`, firstIso(entry.published, entry.updated));
  const summary = entrySummary(entry);
  const fullText = htmlToText(entry.html);
  const title = collapseWhitespace(entry.title);
  const categories = entry.categories.join(' ');
  return {
    id: recordId(vendor, upstream),
    vendor,
    title,
    // Categories first: a feed that tags severity explicitly should not be overruled by prose.
    severity: inferSeverity(title, `${categories} ${summary} ${fullText}`),
    cves: extractCves(title, summary, fullText, categories, entry.link ?? ''),
    publishedAt,
    updatedAt: latestIso([entry.updated, publishedAt]) ?? publishedAt,
    summary,
    url: entry.link,
    source: 'advisory-feed',
  };
}

export const advisoryFeedAdapter = defineAdapter('advisory-feed', (input: AdapterInput) => {
  const feed = parseFeedBody('advisory-feed', input.body, input.contentType, { allowJson: true });
  return { advisories: feed.entries.map((e) => mapEntry(e, input.vendor)) };
});
