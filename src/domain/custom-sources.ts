// Status pages a user adds by URL (docs/per-user.md "Custom status pages"): the slug of
// the private vendor, the per-plan caps, and the order in which the documented endpoints
// of each platform are probed. Pure: no I/O.
import { createHash } from 'node:crypto';
import { planAtLeast, type Plan } from './plans.ts';
import type { DataType, SourceType, SourceSnapshot } from './records.ts';

/** Custom status pages per account, by plan (docs/per-user.md "Custom status pages"). */
export const CUSTOM_SOURCE_CAPS: Record<Plan, number> = {
  anonymous: 0,
  free: 3,
  standard: 10,
  pro: 50,
  enterprise: 200,
  vip: 200,
};

/** Detections (adds that probe a page) per account and hour: each one sends up to ten requests out. */
export const DETECTIONS_PER_HOUR = 30;

/** Whether a plan may add pages at all, given the lowest allowed plan (CUSTOM_SOURCES_MIN_PLAN). */
export const mayAddCustomSources = (plan: Plan, minPlan: Plan): boolean => plan !== 'anonymous' && planAtLeast(plan, minPlan);

/** The cap of a plan; 0 when the plan is below the lowest allowed one. */
export const customSourceCap = (plan: Plan, minPlan: Plan): number => (mayAddCustomSources(plan, minPlan) ? CUSTOM_SOURCE_CAPS[plan] : 0);

/** `u-` + 12 hex characters of the account + `-` + a name: the shape of every private slug. */
export const PRIVATE_SLUG = /^u-[0-9a-f]{12}-[a-z0-9][a-z0-9-]*$/;

export const isPrivateSlug = (slug: string): boolean => PRIVATE_SLUG.test(slug);

/** Whether a slug is visible to a user (null: anyone) by its shape: public, or in the user's namespace. */
export const slugVisibleTo = (slug: string, userId: string | null): boolean =>
  !isPrivateSlug(slug) || (userId !== null && slug.startsWith(accountNamespace(userId)));

/**
 * The account's namespace: a short, stable digest of its id (ids are not shown in slugs).
 * The store refuses a namespace another account already uses, so the prefix alone tells
 * whose a private slug is (the stream filters live events by it).
 */
export const accountNamespace = (userId: string): string => `u-${createHash('sha256').update(userId).digest('hex').slice(0, 12)}-`;

const SLUG_MAX = 63;

/** A name part from a display name or host: lower-case letters, digits and single dashes. */
export function slugPart(text: string): string {
  const cleaned = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return cleaned || 'page';
}

/** The name a page gets when the user gives none: its host without `www.`/`status.` and the top-level domain. */
export function nameFromUrl(url: URL): string {
  const labels = url.hostname.toLowerCase().replace(/\.$/, '').split('.');
  while (labels.length > 1 && (labels[0] === 'www' || labels[0] === 'status')) labels.shift();
  if (labels.length > 1 && !/^\d+$/.test(labels.at(-1)!)) labels.pop();
  return labels.join('.');
}

/**
 * The private slug for a page: the account's namespace and the name, cut to the slug
 * length, with `-2`, `-3` ... added when the account already uses it.
 */
export function privateSlug(userId: string, name: string, taken: ReadonlySet<string>): string {
  const prefix = accountNamespace(userId);
  const base = `${prefix}${slugPart(name)}`.slice(0, SLUG_MAX).replace(/-+$/, '');
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const suffix = `-${n}`;
    const candidate = `${base.slice(0, SLUG_MAX - suffix.length).replace(/-+$/, '')}${suffix}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/** The public slug a promoted page gets unless the operator names one: the name without the namespace. */
export const publicSlugOf = (slug: string): string => slug.replace(/^u-[0-9a-f]{12}-/, '');

/** One endpoint to try, and the platforms (source types) an answer there may prove. */
export interface Probe {
  url: string;
  /** Source types accepted from this endpoint; `feed` = the Statuspage-style history feed. */
  accepts: readonly (SourceType | 'feed')[];
}

/** Every platform the probes can detect, in probing order (named in the 422 answer). */
export const DETECTABLE_PLATFORMS = [
  'statuspage-v2',
  'incidentio',
  'instatus',
  'betterstack',
  'cstate',
  'statusio',
  'cachet',
  'statuspal',
  'uptimerobot',
  'hund',
  'feed',
  'statuspage-html',
] as const;

const API_PLATFORMS: readonly (SourceType | 'feed')[] = [
  'statuspage-v2',
  'incidentio',
  'instatus',
  'betterstack',
  'statusio',
  'cachet',
  'statuspal',
  'uptimerobot',
  'cstate',
  'hund',
  'cstate',
  'feed',
  'statuspage-html',
];

/**
 * The endpoints probed for a page URL, in order (docs/per-user.md "Detection"): the URL
 * itself (it may already be an API endpoint or a feed), then the documented endpoints of
 * each platform under the page: Statuspage and incident.io `/api/v2/summary.json`,
 * Instatus `/summary.json`, Better Stack and cState `/index.json`, Cachet `/api/v1/incidents`, and the
 * history feeds `/history.atom`, `/history.rss`, `/feed.atom`, `/feed.rss`. A status.io page
 * is found through the page id in its HTML (`statusIoApiUrl`). Duplicates are dropped.
 */
export function probePlan(pageUrl: URL): Probe[] {
  const base = new URL(pageUrl.toString());
  base.search = '';
  base.hash = '';
  const root = base.toString().replace(/\/+$/, '');
  const under = (path: string) => `${root}${path}`;
  const probes: Probe[] = [
    { url: pageUrl.toString(), accepts: API_PLATFORMS },
    { url: under('/api/v2/summary.json'), accepts: ['statuspage-v2', 'incidentio'] },
    { url: under('/summary.json'), accepts: ['instatus'] },
    { url: under('/index.json'), accepts: ['betterstack', 'cstate'] },
    { url: under('/api/v1/incidents'), accepts: ['cachet'] },
    { url: under('/history.atom'), accepts: ['feed'] },
    { url: under('/history.rss'), accepts: ['feed'] },
    { url: under('/feed.atom'), accepts: ['feed'] },
    { url: under('/feed.rss'), accepts: ['feed'] },
    { url: under('/live/v2/status_page'), accepts: ['hund'] },
  ];
  const statuspal = statuspalSummaryUrl(base);
  if (statuspal) probes.splice(1, 0, { url: statuspal, accepts: ['statuspal'] });
  const uptimerobot = uptimeRobotListUrl(base);
  if (uptimerobot) probes.splice(1, 0, { url: uptimerobot, accepts: ['uptimerobot'] });
  const seen = new Set<string>();
  return probes.filter((p) => {
    if (seen.has(p.url)) return false;
    seen.add(p.url);
    return true;
  });
}

/**
 * A page hosted at `<subdomain>.statuspal.io` (or `.statuspal.eu`) serves its data from
 * Statuspal's API under that subdomain: `https://statuspal.io/api/v2/status_pages/<subdomain>/summary`.
 */
export function statuspalSummaryUrl(pageUrl: URL): string | null {
  const m = /^([a-z0-9][a-z0-9-]{0,62})\.(statuspal\.(?:io|eu))$/i.exec(pageUrl.hostname.replace(/\.$/, ''));
  if (!m || m[1]!.toLowerCase() === 'www') return null;
  return `https://${m[2]!.toLowerCase()}/api/v2/status_pages/${m[1]!.toLowerCase()}/summary`;
}

/**
 * A page at `stats.uptimerobot.com/<page id>` is drawn from its public monitor list,
 * `https://stats.uptimerobot.com/api/getMonitorList/<page id>?page=1` (docs/mappings.md "UptimeRobot").
 */
export function uptimeRobotListUrl(pageUrl: URL): string | null {
  if (pageUrl.hostname.replace(/\.$/, '').toLowerCase() !== 'stats.uptimerobot.com') return null;
  const id = /^\/([A-Za-z0-9]{4,40})\/?$/.exec(pageUrl.pathname)?.[1];
  return id ? `https://stats.uptimerobot.com/api/getMonitorList/${id}?page=1` : null;
}

/**
 * An UptimeRobot page on its own domain names its monitor list in its HTML (`window.pspApiPath`);
 * only an address on UptimeRobot's own hosts is followed.
 */
export function uptimeRobotApiUrl(html: string): string | null {
  const m = /window\.pspApiPath\s*=\s*['"](https:\/\/(?:[a-z0-9-]+\.)*uptimerobot\.com\/api\/getMonitorList\/[A-Za-z0-9]{4,40})(?:\?[^'"]*)?['"]/.exec(
    html.slice(0, 1_000_000),
  );
  return m ? `${m[1]}?page=1` : null;
}

/** status.io serves its data from its API host, keyed by the 24-hex page id found in the page. */
export function statusIoApiUrl(html: string): string | null {
  const m = /statuspageId\s*[:=]\s*['"]([a-f0-9]{24})['"]/i.exec(html) ?? /api\.status\.io\/1\.0\/status\/([a-f0-9]{24})/i.exec(html);
  return m ? `https://api.status.io/1.0/status/${m[1]}` : null;
}

/** The source type polled for a detected feed: Atom or RSS, told by the document itself. */
export function feedSourceType(text: string): SourceType {
  return /<feed[\s>]/i.test(text.slice(0, 2048)) ? 'statuspage-atom' : 'statuspage-rss';
}

/** Statuspage history lists are polled less often, as in the catalog (docs/catalog.md). */
const HISTORY_INTERVAL_SECONDS = 300;

/**
 * The sources polled for a detected page, as the catalog would list them: a Statuspage
 * summary brings its incident and maintenance history lists along.
 */
export function customPageSources(type: SourceType, url: string): { type: SourceType; url: string; intervalSeconds?: number }[] {
  if (type === 'statuspage-v2' && url.endsWith('/api/v2/summary.json')) {
    const root = url.slice(0, -'/summary.json'.length);
    return [
      { type, url },
      { type, url: `${root}/incidents.json`, intervalSeconds: HISTORY_INTERVAL_SECONDS },
      { type, url: `${root}/scheduled-maintenances.json`, intervalSeconds: HISTORY_INTERVAL_SECONDS },
    ];
  }
  return [{ type, url }];
}

const WITH_MAINTENANCE: ReadonlySet<SourceType> = new Set<SourceType>([
  'statuspage-v2',
  'incidentio',
  'instatus',
  'betterstack',
  'statusio',
  'sorry',
  'cachet',
  'statuspal',
  'hund',
  'statuspage-html',
  'cstate',
  'statuspage-rss',
  'statuspage-atom',
]);

/** The data types a user-added page has: those `customPageDataTypes` gives (docs/catalog.md). */
export const CUSTOM_PAGE_DATA_TYPES = ['incidents', 'maintenance'] as const satisfies readonly DataType[];
export type CustomPageDataType = (typeof CUSTOM_PAGE_DATA_TYPES)[number];

/** The data types a page of that platform publishes (the catalog's rules, docs/catalog.md). */
export const customPageDataTypes = (type: SourceType): CustomPageDataType[] => (WITH_MAINTENANCE.has(type) ? ['incidents', 'maintenance'] : ['incidents']);

/** The category every user-added page is filed under. */
export const CUSTOM_CATEGORY = 'custom';

/** One endpoint probed while detecting a page, and what happened there (shown in the 422 answer). */
export interface ProbeAttempt {
  url: string;
  result: string;
}

export type PageDetection =
  | {
      found: true;
      type: SourceType;
      url: string;
      tried: ProbeAttempt[];
      /** What detection read at `url`, parsed for the vendor slug the page gets (stored at once, docs/per-user.md "Detection"). */
      read?: (vendor: string) => SourceSnapshot;
      /** The name the page gives itself in what was read (docs/catalog.md "Self-healing"). */
      pageName?: string | null;
    }
  | { found: false; tried: ProbeAttempt[] };

/** Detects what a page serves (the I/O lives with the poller; services receive it as a function). */
export type PageDetector = (pageUrl: URL) => Promise<PageDetection>;
