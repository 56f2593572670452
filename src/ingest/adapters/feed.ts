// Generic feed reading: RSS 2.0 (and RSS 1.0/RDF), Atom 1.0 and JSON Feed 1.x into
// one entry shape. Format-specific adapters (AWS, Azure, Statuspage history,
// advisories, release notes) interpret the entries; this module only reads them.
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { Type } from '@sinclair/typebox';
import { AdapterError } from './adapter.ts';
import { decodeBody, looksLikeJson, parseJsonText } from './body.ts';
import { escapeText } from '../../domain/html-escape.ts';
import { isoOrNull } from './time.ts';
import { check, Nullable, OptStr } from './validate.ts';

export interface FeedEntry {
  /** RSS guid, Atom id or JSON Feed id, as written. */
  id: string | null;
  title: string;
  link: string | null;
  /** Date strings exactly as in the document (some adapters need their zone offset). */
  publishedRaw: string | null;
  updatedRaw: string | null;
  published: string | null;
  updated: string | null;
  /** Full body: content:encoded / Atom content / JSON content_html, else the description/summary. */
  html: string;
  /** Short form: RSS description / Atom summary / JSON summary, else the body. */
  summaryHtml: string;
  categories: string[];
}

export interface ParsedFeed {
  format: 'rss' | 'atom' | 'json';
  title: string;
  link: string | null;
  updated: string | null;
  entries: FeedEntry[];
}

const ARRAY_TAGS = new Set(['item', 'entry', 'category', 'link']);

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  textNodeName: '#text',
  // Keep every value a string: a guid like "12345" must not become a number.
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  isArray: (name) => ARRAY_TAGS.has(name),
  // XML entities are decoded once here; HTML entities inside descriptions are the
  // business of htmlToText, so the parser must not decode them a second time.
  processEntities: true,
  htmlEntities: false,
});

type Node = Record<string, unknown>;

const asNode = (v: unknown): Node | null => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Node) : null);
const asArray = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined || v === null ? [] : [v]);

/** Text of an element that may carry attributes (`{'#text': ..., '@_type': ...}`). */
function textOf(v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return textOf(v[0]);
  const node = asNode(v);
  if (node && '#text' in node) return textOf(node['#text']);
  return '';
}

const orNull = (s: string) => (s.trim() === '' ? null : s.trim());

function atomLink(links: unknown): string | null {
  const list = asArray(links)
    .map(asNode)
    .filter((n) => n !== null);
  const alternate = list.find((l) => !l['@_rel'] || l['@_rel'] === 'alternate') ?? list[0];
  return alternate ? orNull(String(alternate['@_href'] ?? '')) : null;
}

function rssLink(links: unknown): string | null {
  for (const l of asArray(links)) {
    const text = orNull(textOf(l));
    if (text) return text;
  }
  return null;
}

function categories(v: unknown): string[] {
  const out: string[] = [];
  for (const c of asArray(v)) {
    const node = asNode(c);
    const text = orNull(node ? String(node['@_term'] ?? node['@_label'] ?? textOf(node)) : textOf(c));
    if (text && !out.includes(text)) out.push(text);
  }
  return out;
}

function entry(parts: {
  id: string;
  title: string;
  link: string | null;
  published: string;
  updated: string;
  html: string;
  summary: string;
  categories: string[];
}): FeedEntry {
  const publishedRaw = orNull(parts.published);
  const updatedRaw = orNull(parts.updated);
  return {
    id: orNull(parts.id),
    title: parts.title.trim(),
    link: parts.link,
    publishedRaw,
    updatedRaw,
    published: isoOrNull(publishedRaw),
    updated: isoOrNull(updatedRaw),
    html: parts.html || parts.summary,
    summaryHtml: parts.summary || parts.html,
    categories: parts.categories,
  };
}

function rssEntry(item: Node): FeedEntry {
  return entry({
    id: textOf(item.guid),
    title: textOf(item.title),
    link: rssLink(item.link),
    published: textOf(item.pubDate) || textOf(item['dc:date']),
    updated: textOf(item['atom:updated']) || textOf(item['dc:modified']),
    html: textOf(item['content:encoded']),
    summary: textOf(item.description),
    categories: categories(item.category ?? item['dc:subject']),
  });
}

function atomEntry(e: Node): FeedEntry {
  return entry({
    id: textOf(e.id),
    title: textOf(e.title),
    link: atomLink(e.link),
    published: textOf(e.published) || textOf(e.issued),
    updated: textOf(e.updated) || textOf(e.modified),
    html: textOf(e.content),
    summary: textOf(e.summary),
    categories: categories(e.category),
  });
}

function parseXmlFeed(context: string, raw: string): ParsedFeed {
  // Feeds embedded in other files sometimes keep leading indentation before <?xml.
  const text = raw.trimStart();
  const valid = XMLValidator.validate(text);
  if (valid !== true) {
    throw new AdapterError(`${context}: invalid XML at line ${valid.err.line}, column ${valid.err.col}: ${valid.err.msg}`, { kind: 'invalid XML' });
  }
  let doc: Node;
  try {
    doc = parser.parse(text) as Node;
  } catch (err) {
    throw new AdapterError(`${context}: invalid XML (${err instanceof Error ? err.message : String(err)})`, { cause: err, kind: 'invalid XML' });
  }
  const rss = asNode(doc.rss);
  if (rss) {
    const channel = asNode(rss.channel);
    if (!channel) throw new AdapterError(`${context}: RSS document without <channel>`, { kind: 'RSS document without <channel>' });
    return {
      format: 'rss',
      title: textOf(channel.title).trim(),
      link: rssLink(channel.link),
      updated: isoOrNull(textOf(channel.lastBuildDate) || textOf(channel.pubDate)),
      entries: asArray(channel.item)
        .map(asNode)
        .filter((n) => n !== null)
        .map(rssEntry),
    };
  }
  const rdf = asNode(doc['rdf:RDF']);
  if (rdf) {
    const channel = asNode(rdf.channel) ?? {};
    return {
      format: 'rss',
      title: textOf(channel.title).trim(),
      link: rssLink(channel.link),
      updated: isoOrNull(textOf(channel['dc:date'])),
      entries: asArray(rdf.item)
        .map(asNode)
        .filter((n) => n !== null)
        .map(rssEntry),
    };
  }
  const feed = asNode(doc.feed);
  if (feed) {
    return {
      format: 'atom',
      title: textOf(feed.title).trim(),
      link: atomLink(feed.link),
      updated: isoOrNull(textOf(feed.updated)),
      entries: asArray(feed.entry)
        .map(asNode)
        .filter((n) => n !== null)
        .map(atomEntry),
    };
  }
  const root = Object.keys(doc).find((k) => !k.startsWith('?')) ?? 'none';
  throw new AdapterError(`${context}: not an RSS or Atom feed (root element <${root}>)`, { kind: 'not an RSS or Atom feed' });
}

const JsonFeedSchema = Type.Object({
  version: Type.String({ pattern: '^https?://jsonfeed\\.org/version/' }),
  title: Type.Optional(Type.String()),
  home_page_url: OptStr,
  items: Type.Array(
    Type.Object({
      id: Type.Union([Type.String(), Type.Number()]),
      url: OptStr,
      external_url: OptStr,
      title: OptStr,
      content_html: OptStr,
      content_text: OptStr,
      summary: OptStr,
      date_published: OptStr,
      date_modified: OptStr,
      tags: Type.Optional(Nullable(Type.Array(Type.String()))),
    }),
  ),
});

function parseJsonFeed(context: string, data: unknown): ParsedFeed {
  const feed = check(context, JsonFeedSchema, data);
  return {
    format: 'json',
    title: feed.title ?? '',
    link: feed.home_page_url ?? null,
    updated: null,
    entries: feed.items.map((item) =>
      entry({
        id: String(item.id),
        title: item.title ?? '',
        link: item.url ?? item.external_url ?? null,
        published: item.date_published ?? '',
        updated: item.date_modified ?? '',
        // content_text is plain text; escaping keeps it text when it is later read as HTML.
        html: item.content_html ?? (item.content_text ? escapeText(item.content_text) : ''),
        summary: item.summary ? escapeText(item.summary) : '',
        categories: [...new Set((item.tags ?? []).map((t) => t.trim()).filter((t) => t !== ''))],
      }),
    ),
  };
}

/** Reads RSS/Atom, or JSON Feed when `allowJson` and the body is JSON. */
export function parseFeedBody(
  context: string,
  body: Buffer,
  contentType: string | null | undefined,
  options: { allowJson: boolean } = { allowJson: false },
): ParsedFeed {
  const text = decodeBody(context, body, contentType);
  if (looksLikeJson(text)) {
    if (!options.allowJson) throw new AdapterError(`${context}: expected an RSS or Atom feed, got JSON`, { kind: 'expected an RSS or Atom feed, got JSON' });
    return parseJsonFeed(context, parseJsonText(context, text));
  }
  return parseXmlFeed(context, text);
}
