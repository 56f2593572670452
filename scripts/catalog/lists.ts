// Readers for the public status-page lists that name a platform or an endpoint per page
// (docs/catalog.md "Evidence": STTS, MULTI, PILE). Each turns its list into `ListedPage`s;
// what the merge does with them is in listed.ts.
import { hostOf, pageUrl } from './merge.ts';

export const STTS_COMMIT = '240c03a40fe69052036ce325d061437d65e3082a';
export const MULTI_COMMIT = '3c18f063bdc315bd36b5bce0eb154e736866a93b';
export const PILE_COMMIT = 'b590b42031f90f96bf900449c3da0ef0230f97b1';

/** Platforms a list can evidence that we can poll; `statuspage-atom` carries its feed URL. */
export type ListedPlatform =
  | 'statuspage'
  | 'incidentio-compat'
  | 'statusio'
  | 'instatus'
  | 'betterstack'
  | 'incidentio'
  | 'sorry'
  | 'cachet'
  | 'statuspal'
  | 'hund'
  | 'statuspage-atom';

export interface ListedPage {
  key: 'STTS' | 'MULTI' | 'PILE' | 'STATUSWATCH' | 'SENTRY' | 'AWESOME' | 'SPH' | 'PROBO';
  commit: string;
  name: string;
  /** The human status page, `https://` without a trailing slash. */
  page: string;
  /** The platform the list states, or null when it names one we cannot poll (`listPlatform` says which). */
  platform: ListedPlatform | null;
  listPlatform: string;
  pageId: string | null;
  /** The polled URL, when the list gives it (MULTI's feeds). */
  endpoint: string | null;
  /** A category of ours, when the list files the page under one. */
  category: string | null;
  /** The vendor's homepage, when the list gives one (statuswatch's `websiteUrl`). */
  website?: string;
}

const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/;
const STATUSPAGE_ID = /^[a-z0-9]{12}$/;
const STATUSIO_ID = /^[0-9a-f]{24}$/;

/** stts writes its services.json with trailing commas; JSON.parse refuses them. */
export function parseLenientJson(text: string): unknown {
  return JSON.parse(text.replace(/,(\s*[\]}])/g, '$1'));
}

function sttsPlatform(list: string, id: string | null): ListedPlatform | null {
  switch (list) {
    case 'statuspage':
    case 'sendbird': // Sendbird's regional pages are Statuspage pages polled by page id
      if (!id) return null;
      if (ULID.test(id)) return 'incidentio-compat';
      return STATUSPAGE_ID.test(id) ? 'statuspage' : null;
    case 'statusiov1':
      return id && STATUSIO_ID.test(id) ? 'statusio' : null;
    case 'incidentio':
      return 'incidentio';
    case 'instatus':
      return 'instatus';
    // Better Uptime is Better Stack's earlier name; both serve the same page product.
    case 'betterstack':
    case 'betteruptime':
      return 'betterstack';
    case 'sorry':
      return 'sorry';
    default:
      return null;
  }
}

/**
 * inket/stts `Resources/services.json`: `{<platform>: [{name, url, id?, subservice?}]}`.
 * Pages of one host listed several times (regional sub-pages such as Intercom's
 * `/us-hosting`) become one page at the host, named by the part the names share.
 */
export function readStts(text: string): ListedPage[] {
  const data = parseLenientJson(text) as Record<string, { name: string; url: string; id?: string }[]>;
  const byHost = new Map<string, { list: string; name: string; url: string; id: string | null }[]>();
  for (const [list, entries] of Object.entries(data)) {
    if (!Array.isArray(entries)) continue;
    for (const e of entries) {
      const host = hostOf(pageUrl(e.url));
      if (!host) continue;
      byHost.set(host, [...(byHost.get(host) ?? []), { list, name: e.name, url: e.url, id: e.id ?? null }]);
    }
  }
  const out: ListedPage[] = [];
  for (const group of byHost.values()) {
    const first = group[0]!;
    const shared = group.length > 1;
    const page = shared ? `https://${new URL(pageUrl(first.url)!).host}` : pageUrl(first.url)!;
    const name = shared ? first.name.split(/ - | \(/)[0]!.trim() : first.name.trim();
    out.push({
      key: 'STTS',
      commit: STTS_COMMIT,
      name,
      page,
      platform: sttsPlatform(first.list, first.id),
      listPlatform: first.list,
      pageId: first.id,
      endpoint: null,
      category: null,
    });
  }
  return out;
}

/** multi-status files its feeds under headings; the ones that name a category of ours. */
const MULTI_CATEGORIES: Record<string, string> = {
  Communications: 'communications',
  Messaging: 'communications',
  Email: 'communications',
  Cloud: 'cloud',
  Storage: 'cloud',
  DNS: 'cdn-edge',
  CDN: 'cdn-edge',
  IAM: 'security',
  'Remote Access': 'security',
  Monitoring: 'observability',
  'Logging / SIEM': 'observability',
  'Incident Management': 'observability',
  AI: 'ai-ml',
  DevOps: 'devtools',
  'CI/CD': 'devtools',
  Testing: 'devtools',
  'git Hosting': 'devtools',
  'Code Quality': 'devtools',
  'Project Management': 'productivity',
  'E-commerce': 'business-apps',
  CRM: 'business-apps',
  Analytics: 'business-apps',
};

const attr = (tag: string, name: string) => new RegExp(`\\b${name}="([^"]*)"`).exec(tag)?.[1] ?? null;
const unescapeXml = (s: string) =>
  s
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>');

/**
 * lwindolf/multi-status `frontend/feeds.opml`. Only Statuspage history feeds
 * (`<page>/history.atom`) are taken: that path is Statuspage's, and our `statuspage-atom`
 * adapter reads it. Other feeds (RSS of bespoke pages) are left out.
 */
export function readMultiStatus(text: string): ListedPage[] {
  const out: ListedPage[] = [];
  let heading: string | null = null;
  for (const m of text.matchAll(/<outline\b[^>]*>/g)) {
    const tag = m[0];
    const xmlUrl = attr(tag, 'xmlUrl');
    if (!xmlUrl) {
      heading = attr(tag, 'text');
      continue;
    }
    const feed = pageUrl(unescapeXml(xmlUrl));
    if (!feed?.endsWith('/history.atom')) continue;
    const page = feed.slice(0, -'/history.atom'.length);
    const name = unescapeXml(attr(tag, 'text') ?? '').trim();
    if (!name) continue;
    out.push({
      key: 'MULTI',
      commit: MULTI_COMMIT,
      name,
      page,
      platform: 'statuspage-atom',
      listPlatform: 'statuspage',
      pageId: null,
      endpoint: feed,
      category: (heading && MULTI_CATEGORIES[heading]) ?? null,
    });
  }
  return out;
}

/** `dogsbodytech/statuspile:src/providers.js`: `{name, type, url}` literals. */
export function readStatuspile(text: string): ListedPage[] {
  const out: ListedPage[] = [];
  for (const m of text.matchAll(/name:\s*"([^"]+)",\s*type:\s*"([^"]+)",\s*url:\s*"([^"]+)"/g)) {
    const [, name, type, url] = m;
    const page = pageUrl(url!);
    if (!page) continue;
    const platform: ListedPlatform | null = type === 'statuspage' ? 'statuspage' : type === 'cachet' ? 'cachet' : null;
    out.push({ key: 'PILE', commit: PILE_COMMIT, name: name!.trim(), page, platform, listPlatform: type!, pageId: null, endpoint: null, category: null });
  }
  return out;
}
