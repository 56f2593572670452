// Merge of the status-page lists of lists.ts into the catalog (docs/catalog.md "How the
// catalog is generated", rules 4 and 5). Same rules as for the VSW snapshot: an existing
// entry keeps its fields and gains evidence (and a source only when it has none); a new
// entry needs a platform we can poll.
import type { CatalogEvidence, CatalogSource, CatalogVendor } from '../../src/domain/records.ts';
import { categorySentence, chooseCategory } from './categories.ts';
import type { ListedPage, ListedPlatform } from './lists.ts';
import {
  addEvidence,
  complianceFrom,
  dataTypesFor,
  findProbo,
  hostOf,
  indexProbo,
  pageUrl,
  proboEvidence,
  type ProboVendor,
  sourcesFor,
  websiteFromStatusHost,
} from './merge.ts';

const SLUG = /^[a-z0-9][a-z0-9-]{0,62}$/;
const FEEDS = new Set(['advisory-feed', 'release-feed']);

/** Hosted-platform domains and the platform they belong to: a list claiming another one is wrong. */
const HOSTED: [string, ListedPlatform[]][] = [
  ['statuspage.io', ['statuspage', 'statuspage-atom']],
  ['status.io', ['statusio']],
  ['instatus.com', ['instatus']],
  ['betteruptime.com', ['betterstack']],
  ['betterstack.com', ['betterstack']],
  ['statuspal.io', ['statuspal']],
  ['statuspal.eu', ['statuspal']],
  ['hund.io', ['hund']],
];

export function slugFor(name: string): string {
  return name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 63)
    .replace(/-+$/, '');
}

const normName = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');

/** A homepage without a locale path (`https://acme.example/fr` → `https://acme.example`). */
export const withoutLocale = (url: string) => url.replace(/^(https:\/\/[^/]+)\/[a-z]{2}(?:-[a-z]{2})?$/i, '$1');

/** Status hosts a list names for a vendor the catalog holds under another host. */
export const SAME_VENDOR: Record<string, string> = {
  'status.claude.com': 'anthropic',
};

/**
 * Vendors whose lists disagree on the platform: no source is given from a list, the entry
 * stays not monitored (docs/catalog.md says why).
 */
export const CONTRADICTED: Record<string, string> = {
  pagerduty: 'stts reads status.pagerduty.com as a PagerDuty-hosted page; statuspile and multi-status list it as Statuspage',
};

/** Sources for a listed page: the platform's documented endpoints, or the feed the list polls. */
export function listedSources(p: ListedPage): CatalogSource[] {
  switch (p.platform) {
    case null:
      return [];
    case 'statuspage-atom':
      return [{ type: 'statuspage-atom', url: p.endpoint!, intervalSeconds: 300 }];
    case 'cachet':
      return [
        { type: 'cachet', url: `${p.page}/api/v1/components` },
        { type: 'cachet', url: `${p.page}/api/v1/incidents`, intervalSeconds: 300 },
      ];
    default:
      return sourcesFor(p.platform, p.page, p.pageId);
  }
}

/** What the list's entry evidences: the platform (and the endpoint, when it names the URL). */
function gaveOf(p: ListedPage): CatalogEvidence['gave'] {
  return [...(p.platform ? ['platform'] : []), ...(p.endpoint ? ['endpoint'] : []), 'statusPageUrl'];
}

export interface ListedReport {
  added: number;
  enriched: number;
  sourced: string[];
  byKey: Record<string, number>;
  skipped: { key: string; name: string; page: string; why: string }[];
}

export function mergeListed(catalog: CatalogVendor[], pages: ListedPage[], probo: ProboVendor[]): { catalog: CatalogVendor[]; report: ListedReport } {
  const report: ListedReport = { added: 0, enriched: 0, sourced: [], byKey: {}, skipped: [] };
  const out: CatalogVendor[] = catalog.map((v) => ({ ...v, evidence: [...(v.evidence ?? [])] }));
  const pidx = indexProbo(probo);
  const bySlug = new Map(out.map((v) => [v.slug, v]));
  const byHost = new Map<string, CatalogVendor>();
  const byName = new Map<string, CatalogVendor>();
  const byWebsite = new Map<string, CatalogVendor>();
  for (const v of out) {
    byHost.set(hostOf(v.statusPageUrl), v);
    for (const s of v.sources) if (!byHost.has(hostOf(s.url))) byHost.set(hostOf(s.url), v);
    if (!byName.has(normName(v.name))) byName.set(normName(v.name), v);
    // A website that is the status page itself (a hosted page) says nothing about the vendor.
    if (hostOf(v.website) !== hostOf(v.statusPageUrl) && !byWebsite.has(hostOf(v.website))) byWebsite.set(hostOf(v.website), v);
  }
  const skip = (p: ListedPage, why: string) => report.skipped.push({ key: p.key, name: p.name, page: p.page, why });
  const added: CatalogVendor[] = [];

  // Pages with a platform we poll go first, so a page another list names without one (stts's
  // StatusCast pages) finds the entry and adds its evidence in this same run.
  const ordered = [...pages.filter((p) => p.platform), ...pages.filter((p) => !p.platform)];
  for (const p of ordered) {
    const host = hostOf(p.page);
    const hosted = HOSTED.find(([d]) => host === d || host.endsWith(`.${d}`));
    if (p.platform && hosted && !hosted[1].includes(p.platform)) {
      skip(p, `the list says ${p.listPlatform}, the host is ${hosted[0]}`);
      continue;
    }
    const match = byHost.get(host) ?? bySlug.get(SAME_VENDOR[host] ?? '');
    if (match) {
      addEvidence(match.evidence!, { key: p.key, commit: p.commit, gave: gaveOf(p) });
      report.enriched++;
      // An entry that still has no status source gains the evidenced one.
      const sources = listedSources(p);
      if (sources.length && !CONTRADICTED[match.slug] && !match.sources.some((s) => !FEEDS.has(s.type))) {
        match.sources = [...sources, ...match.sources];
        match.availableDataTypes = dataTypesFor(match.sources);
        report.sourced.push(match.slug);
      }
      continue;
    }
    const sameName = byName.get(normName(p.name));
    if (sameName) {
      skip(p, `same name as ${sameName.slug} on another status host (${hostOf(sameName.statusPageUrl)})`);
      continue;
    }
    const sources = listedSources(p);
    if (!sources.length) {
      skip(p, `platform ${p.listPlatform} has no adapter or no usable page id`);
      continue;
    }
    const slug = slugFor(p.name);
    if (!SLUG.test(slug) || bySlug.has(slug)) {
      skip(p, bySlug.has(slug) ? `slug ${slug} is taken by another vendor` : 'no usable slug');
      continue;
    }
    const pv = findProbo(pidx, { name: p.name, statusHost: host });
    const name = pv?.name?.trim() || p.name;
    const sameVendor = byName.get(normName(name));
    if (sameVendor) {
      skip(p, `PROBO names it ${name}, as ${sameVendor.slug} on another status host (${hostOf(sameVendor.statusPageUrl)})`);
      continue;
    }
    const website = withoutLocale(pageUrl(pv?.websiteUrl ?? '') ?? p.website ?? websiteFromStatusHost(p.page));
    const sameSite = hostOf(website) !== host ? byWebsite.get(hostOf(website)) : undefined;
    if (sameSite) {
      skip(p, `same website as ${sameSite.slug} (${hostOf(website)}), on another status host`);
      continue;
    }
    const choice = p.category ? { category: p.category, by: 'list' as const } : chooseCategory({ proboCategory: pv?.category, name, slug, host });
    const listWebsite = !pv?.websiteUrl && p.website ? ['website'] : [];
    const evidence: CatalogEvidence[] = [
      { key: p.key, commit: p.commit, gave: [...gaveOf(p), 'name', ...listWebsite, ...(choice.by === 'list' ? ['category'] : [])] },
    ];
    for (const e of proboEvidence(pv, host, choice.by === 'probo')) addEvidence(evidence, e);
    const entry: CatalogVendor = {
      slug,
      name,
      website,
      category: choice.category,
      description: categorySentence(name, choice.category),
      statusPageUrl: p.page,
      availableDataTypes: dataTypesFor(sources),
      sources,
      compliance: complianceFrom(pv),
      evidence,
    };
    bySlug.set(slug, entry);
    byHost.set(host, entry);
    byName.set(normName(name), entry);
    if (hostOf(website) !== host) byWebsite.set(hostOf(website), entry);
    added.push(entry);
    report.byKey[p.key] = (report.byKey[p.key] ?? 0) + 1;
  }
  added.sort((a, b) => a.slug.localeCompare(b.slug));
  report.added = added.length;
  return { catalog: [...out, ...added], report };
}
