// Status-page lists that give URLs only (docs/catalog.md "Pages on a platform's own domain"):
// a page whose host is a subdomain of a status platform's hosting domain runs on that
// platform, whatever the list says, so the URL itself evidences the platform. Pages on the
// vendor's own domain say nothing and are left out here.
import type { ListedPage, ListedPlatform } from './lists.ts';
import { hostOf, PROBO_COMMIT, type ProboVendor, pageUrl, SPH_COMMIT } from './merge.ts';

export const SENTRY_COMMIT = '23958886e21c5b16992aa983b5f394d8527ea713';
export const AWESOME_COMMIT = '18f532009f0871364fac3e38501100c073d8b1d4';

/**
 * Hosting domains whose subdomains are pages of one platform, with the platform. A status.io
 * page (`<name>.status.io`) is not here: its adapter needs the 24-hex page id, which the URL
 * does not carry. Freshstatus and UptimeRobot pages have no adapter.
 */
const HOSTING: [string, ListedPlatform][] = [
  ['statuspage.io', 'statuspage'],
  ['instatus.com', 'instatus'],
  ['betteruptime.com', 'betterstack'],
  ['betterstack.com', 'betterstack'],
  ['statuspal.io', 'statuspal'],
  ['statuspal.eu', 'statuspal'],
  ['hund.io', 'hund'],
  ['incident.io', 'incidentio'],
];

/** Hosted pages a list names that are no vendor's page (a platform's test page). */
const NOT_A_VENDOR = new Set(['sgtest1.statuspage.io']);

/** The platform a page's host belongs to, or null (the vendor's own domain, or the platform's site). */
export function hostedPlatform(page: string): ListedPlatform | null {
  const host = hostOf(page);
  for (const [domain, platform] of HOSTING) {
    if (!host.endsWith(`.${domain}`)) continue;
    const label = host.slice(0, -domain.length - 1);
    // One label under the domain: `<page>.statuspage.io`, not `www.` (the platform's own site)
    // nor deeper names. incident.io's own page is `status.incident.io`.
    if (label.includes('.') || label === 'www' || label === 'api' || label === 'app') return null;
    return platform;
  }
  return null;
}

type UrlList = ListedPage['key'];

/** The pages of a URL-only list that sit on a platform's domain, as listed pages. */
export function hostedPages(key: UrlList, commit: string, entries: { name: string; url: string }[]): ListedPage[] {
  const out: ListedPage[] = [];
  const seen = new Set<string>();
  for (const e of entries) {
    const url = pageUrl(e.url);
    if (!url) continue;
    // The page is the host: a path on a hosted page is one of its sub-pages or a locale.
    const page = `https://${hostOf(url)}`;
    const platform = hostedPlatform(page);
    const name = e.name.trim();
    if (!platform || !name || seen.has(page) || NOT_A_VENDOR.has(hostOf(page))) continue;
    seen.add(page);
    out.push({ key, commit, name, page, platform, listPlatform: `host ${hostOf(page)}`, pageId: null, endpoint: null, category: null });
  }
  return out;
}

/** getsentry/status-page-list, one file per page in its `data` folder: `export const name = "..."` and `statusPageUrl`. */
export function readSentryFile(text: string): { name: string; url: string } | null {
  const name = /export const name = "([^"]+)"/.exec(text)?.[1];
  const url = /export const statusPageUrl = "([^"]+)"/.exec(text)?.[1];
  return name && url ? { name, url } : null;
}

/** ivbeg/awesome-status-pages `README.md`: `* [Name](url) - ...` lines. */
export function readAwesome(text: string): { name: string; url: string }[] {
  return [...text.matchAll(/^\s*[*-]\s*\[([^\]]+)\]\((https?:\/\/[^)\s]+)\)/gm)].map((m) => ({ name: m[1]!, url: m[2]! }));
}

/** The URLs of the lists the generator already reads (statusphere, PROBO) that sit on a platform's domain. */
export function hostedFromInputs(statusphere: { url: string; name: string }[], probo: ProboVendor[]): ListedPage[] {
  return [
    ...hostedPages('SPH', SPH_COMMIT, statusphere),
    ...hostedPages(
      'PROBO',
      PROBO_COMMIT,
      probo.filter((p) => p.statusPageUrl).map((p) => ({ name: p.name, url: p.statusPageUrl! })),
    ),
  ];
}
