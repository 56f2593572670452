// Pure merge of public vendor lists into catalog entries (docs/catalog.md "How the
// catalog is generated"). Existing entries keep every hand-written field; generated
// entries get a source only for a platform the source list evidences and we can parse.
import type { CatalogEvidence, CatalogSource, CatalogVendor, ComplianceEntry, DataType } from '../../src/domain/records.ts';
import { statuspalSummaryUrl } from '../../src/domain/custom-sources.ts';
import { categorySentence, chooseCategory } from './categories.ts';

export const VSW_COMMIT = '0c97c300c6ffc13863f5bfb20491868927a04416';
export const PROBO_COMMIT = 'd0ec27e3a007ee67fc46eebb36e03a69d27ef634';
export const SPH_COMMIT = '8d0ccbb7fd850db0318b0f05d23bb8edb99d6e8e';
/** Commit date of the PROBO data, used as `researchedAt` of the compliance it gives. */
export const PROBO_DATE = '2026-08-13T00:00:00.000Z';

/** One vendor of vendor-status-watch's `APVentureEngine/vendor-status-watch:docs/api/snapshot.json`. */
export interface VswVendor {
  slug: string;
  vendor: string;
  platform: string;
  status_url: string;
  page_id: string | null;
  error?: string | null;
}

/** One third party of PROBO's `data.json` (only the fields used). */
export interface ProboVendor {
  name: string;
  websiteUrl?: string;
  statusPageUrl?: string;
  trustPageUrl?: string;
  securityPageUrl?: string;
  category?: string;
  certifications?: string[];
  domains?: string[];
}

export interface Sources {
  vsw: VswVendor[];
  probo: ProboVendor[];
  /** statusphere's status page URLs (status URL evidence only). */
  statusphere: { url: string; name: string }[];
}

const SLUG = /^[a-z0-9][a-z0-9-]{0,62}$/;
const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/;
const STATUSIO_ID = /^[0-9a-f]{24}$/;

/** `https://host` without path, query or trailing slash; http becomes https. */
export function pageUrl(raw: string): string | null {
  try {
    const u = new URL(raw.trim());
    if (u.protocol !== 'https:' && u.protocol !== 'http:') return null;
    const path = u.pathname.replace(/\/+$/, '');
    return `https://${u.host.toLowerCase()}${path}`;
  } catch {
    return null;
  }
}

export const hostOf = (url: string | null | undefined) => {
  try {
    return url ? new URL(url).host.toLowerCase().replace(/^www\./, '') : '';
  } catch {
    return '';
  }
};

const normName = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');

/** Hosted-platform domains: a page there says nothing about the vendor's own domain. */
const PLATFORM_DOMAINS = [
  'statuspage.io',
  'instatus.com',
  'betteruptime.com',
  'betterstack.com',
  'status.io',
  'freshstatus.io',
  'atlassian.com',
  'statuspal.io',
  'statuspal.eu',
  'hund.io',
  'incident.io',
];

/**
 * The vendor's homepage when no source names it: the status host without a leading
 * status-like label (status., statuspage., trust., uptime.), else the status page itself.
 */
export function websiteFromStatusHost(statusUrl: string): string {
  const u = new URL(statusUrl);
  const host = u.host.toLowerCase();
  const m = /^(status|statuspage|trust|uptime|app-status)\.(.+)$/.exec(host);
  if (m && m[2]!.includes('.') && !PLATFORM_DOMAINS.some((d) => m[2] === d || m[2]!.endsWith(`.${d}`))) return `https://${m[2]}`;
  return `https://${host}`;
}

/** The platform a snapshot entry evidences, in our words, or null when we cannot poll it. */
export function platformOf(v: VswVendor): 'statuspage' | 'incidentio-compat' | 'statusio' | 'instatus' | 'betterstack' | 'incidentio' | 'sorry' | null {
  switch (v.platform) {
    case 'statuspage':
      if (!v.page_id) return null;
      return ULID.test(v.page_id) ? 'incidentio-compat' : 'statuspage';
    case 'status.io':
      return v.page_id && STATUSIO_ID.test(v.page_id) ? 'statusio' : null;
    case 'instatus':
      return 'instatus';
    case 'betterstack':
      return 'betterstack';
    case 'incident.io':
      return 'incidentio';
    case 'sorry':
      return 'sorry';
    default:
      return null;
  }
}

/** Platforms the lists evidence besides the snapshot's: pages hosted on Statuspal or Hund. */
export type Platform = NonNullable<ReturnType<typeof platformOf>> | 'statuspal' | 'hund';

/** Sources for an evidenced platform (docs/catalog.md "Platform to source type"). */
export function sourcesFor(platform: Platform, page: string, pageId: string | null): CatalogSource[] {
  const host = new URL(page).host;
  switch (platform) {
    case 'statuspage':
      return [
        { type: 'statuspage-v2', url: `${page}/api/v2/summary.json` },
        { type: 'statuspage-v2', url: `${page}/api/v2/incidents.json`, intervalSeconds: 300 },
        { type: 'statuspage-v2', url: `${page}/api/v2/scheduled-maintenances.json`, intervalSeconds: 300 },
      ];
    case 'incidentio-compat':
      return [{ type: 'incidentio', url: `${page}/api/v2/summary.json` }];
    case 'incidentio':
      return [{ type: 'incidentio', url: `https://${host}/proxy/${host}` }];
    case 'statusio':
      return [{ type: 'statusio', url: `https://api.status.io/1.0/status/${pageId}` }];
    case 'instatus':
      return [{ type: 'instatus', url: `${page}/summary.json` }];
    case 'betterstack':
      return [{ type: 'betterstack', url: `${page}/index.json` }];
    case 'sorry':
      return [
        { type: 'sorry', url: `${page}/api/v1/status` },
        { type: 'sorry', url: `${page}/api/v1/notices`, intervalSeconds: 300 },
      ];
    // A `<subdomain>.statuspal.io` page serves its data from Statuspal's API (docs/mappings.md "Statuspal").
    case 'statuspal': {
      const url = statuspalSummaryUrl(new URL(page));
      return url ? [{ type: 'statuspal', url }] : [];
    }
    // Hund's live stream, read up to its first event (docs/mappings.md "Hund").
    case 'hund':
      return [{ type: 'hund', url: `https://${host}/live/v2/status_page` }];
  }
}

const FEED_TYPES = new Set(['advisory-feed', 'release-feed']);
const MAINTENANCE_TYPES = new Set(['statuspage-v2', 'incidentio', 'instatus', 'betterstack', 'statusio', 'sorry']);

/** The availableDataTypes rule of docs/catalog.md. */
export function dataTypesFor(sources: CatalogSource[]): DataType[] {
  const types = new Set(sources.map((s) => s.type));
  const out: DataType[] = [];
  if ([...types].some((t) => !FEED_TYPES.has(t))) out.push('incidents');
  if ([...types].some((t) => MAINTENANCE_TYPES.has(t))) out.push('maintenance');
  if (types.has('advisory-feed')) out.push('advisories');
  if (types.has('release-feed')) out.push('updates');
  return out;
}

const COMPLIANCE: [RegExp, Omit<ComplianceEntry, 'compliancePageLink' | 'researchedAt'>][] = [
  [
    /SOC ?2/i,
    {
      name: 'SOC 2',
      category: 'security',
      description: "AICPA SOC 2 attestation report on the vendor's controls for security and related trust services criteria.",
    },
  ],
  [
    /ISO\/?(IEC)? ?27001/i,
    { name: 'ISO/IEC 27001', category: 'security', description: "Certification of the vendor's information security management system against ISO/IEC 27001." },
  ],
  [
    /PCI/i,
    { name: 'PCI DSS', category: 'industry', description: 'Compliance with the Payment Card Industry Data Security Standard for handling cardholder data.' },
  ],
  [
    /HIPAA/i,
    {
      name: 'HIPAA',
      category: 'privacy',
      description: 'Listed as supporting US HIPAA safeguards for protected health information (HIPAA is a law, not a certification).',
    },
  ],
  [
    /FedRAMP/i,
    {
      name: 'FedRAMP',
      category: 'government',
      description: 'Authorization under the US Federal Risk and Authorization Management Program for cloud services used by federal agencies.',
    },
  ],
];

/** PROBO's certifications reduced to the five flags the catalog carries. */
export function complianceFrom(p: ProboVendor | undefined): CatalogVendor['compliance'] {
  const link = pageUrl(p?.trustPageUrl ?? p?.securityPageUrl ?? '') ?? null;
  const certs = p?.certifications ?? [];
  if (!p || certs.length === 0 || !link) return { sourceUrl: null, items: [] };
  const items = COMPLIANCE.filter(([rule]) => certs.some((c) => rule.test(c))).map(([, item]) => ({
    ...item,
    compliancePageLink: link,
    researchedAt: PROBO_DATE,
  }));
  return items.length ? { sourceUrl: link, items } : { sourceUrl: null, items: [] };
}

export interface ProboIndex {
  byStatusHost: Map<string, ProboVendor>;
  byName: Map<string, ProboVendor>;
  byDomain: Map<string, ProboVendor>;
}

export function indexProbo(list: ProboVendor[]): ProboIndex {
  const idx: ProboIndex = { byStatusHost: new Map(), byName: new Map(), byDomain: new Map() };
  for (const p of list) {
    const sh = hostOf(p.statusPageUrl);
    if (sh && !idx.byStatusHost.has(sh)) idx.byStatusHost.set(sh, p);
    const n = normName(p.name);
    if (n && !idx.byName.has(n)) idx.byName.set(n, p);
    for (const d of p.domains ?? []) if (!idx.byDomain.has(d.toLowerCase())) idx.byDomain.set(d.toLowerCase(), p);
  }
  return idx;
}

/** PROBO's entry for a vendor: same status host, else same name, else the status host's domain. */
export function findProbo(idx: ProboIndex, v: { name: string; statusHost: string }): ProboVendor | undefined {
  const direct = idx.byStatusHost.get(v.statusHost) ?? idx.byName.get(normName(v.name));
  if (direct) return direct;
  const parts = v.statusHost.split('.');
  for (let i = 1; i < parts.length - 1; i++) {
    const hit = idx.byDomain.get(parts.slice(i).join('.'));
    if (hit && !PLATFORM_DOMAINS.includes(parts.slice(i).join('.'))) return hit;
  }
  return undefined;
}

/**
 * Entries whose source is curated by hand from a named public source because the snapshot
 * classes their page as bespoke or does not poll it (docs/catalog.md "Hand-curated sources").
 */
export const CURATED: Record<string, { sources: CatalogSource[]; evidence: CatalogEvidence[] }> = {
  slack: {
    sources: [{ type: 'slack-status', url: 'https://slack-status.com/api/v2.0.0/current' }],
    evidence: [
      { key: 'VSW', commit: VSW_COMMIT, gave: ['platform'] },
      { key: 'VSW-PLATFORMS', commit: '15ab4880e563923463b466fb489aef945fc8adf1', gave: ['endpoint'] },
      { key: 'ASD', commit: '869c51ef8f609f4d5b6ba32bde5c33ee09255972', gave: ['platform', 'statusPageUrl'] },
    ],
  },
  heroku: {
    sources: [{ type: 'heroku-status', url: 'https://status.heroku.com/api/v4/current-status' }],
    evidence: [
      { key: 'VSW', commit: VSW_COMMIT, gave: ['platform'] },
      { key: 'HEROKU-CLI', commit: 'c5fbf4b4321cfd8c97c78d0603685b2482bbce02', gave: ['endpoint'] },
    ],
  },
  gitlab: {
    sources: [{ type: 'statusio', url: 'https://status-api.hostedstatus.com/1.0/status/5b36dc6502d06804c08349f7' }],
    evidence: [{ key: 'SVELTIA', commit: '8c681ad8f5f4948cf2363a88bf58cef50678a708', gave: ['platform', 'endpoint'] }],
  },
  salesforce: {
    sources: [{ type: 'salesforce-trust', url: 'https://api.status.salesforce.com/v1/incidents/active' }],
    evidence: [
      { key: 'HEROKU-CLI', commit: 'c5fbf4b4321cfd8c97c78d0603685b2482bbce02', gave: ['platform', 'endpoint'] },
      { key: 'ASD', commit: '869c51ef8f609f4d5b6ba32bde5c33ee09255972', gave: ['platform'] },
    ],
  },
};

const ACS_COMMIT = '67431930a387f4c633fd73d788d03f3f5ca8ec06';

/**
 * Hand-written entries whose endpoint comes from AI-Cloud-Status's provider registry
 * (the hyperscalers' own feeds, Instatus and Checkly pages), which the snapshot does not poll.
 */
export const EXISTING_EVIDENCE: Record<string, CatalogEvidence[]> = {
  'amazon-web-services': [{ key: 'ACS', commit: ACS_COMMIT, gave: ['platform', 'endpoint'] }],
  'google-cloud': [{ key: 'ACS', commit: ACS_COMMIT, gave: ['platform', 'endpoint'] }],
  'microsoft-azure': [{ key: 'ACS', commit: ACS_COMMIT, gave: ['platform', 'endpoint'] }],
  perplexity: [{ key: 'ACS', commit: ACS_COMMIT, gave: ['platform', 'endpoint', 'statusPageUrl'] }],
  'mistral-ai': [{ key: 'ACS', commit: ACS_COMMIT, gave: ['platform', 'endpoint', 'statusPageUrl'] }],
};

/** The PROBO evidence of a new entry: the facts PROBO gave it, or none. */
export function proboEvidence(p: ProboVendor | undefined, statusHost: string, gaveCategory: boolean): CatalogEvidence[] {
  const gave = [
    ...(p?.websiteUrl ? ['website'] : []),
    ...(gaveCategory ? ['category'] : []),
    ...(p && hostOf(p.statusPageUrl) === statusHost ? ['statusPageUrl'] : []),
    ...(complianceFrom(p).items.length ? ['compliance'] : []),
  ];
  return p && gave.length ? [{ key: 'PROBO', commit: PROBO_COMMIT, gave }] : [];
}

export interface MergeReport {
  kept: number;
  added: number;
  skipped: { slug: string; why: string }[];
  categoryBy: Record<string, number>;
  platforms: Record<string, number>;
}

export function addEvidence(list: CatalogEvidence[], e: CatalogEvidence) {
  const same = list.find((x) => x.key === e.key && x.commit === e.commit);
  if (same) same.gave = [...new Set([...same.gave, ...e.gave])];
  else list.push({ ...e, gave: [...e.gave] });
}

/** Merges the source lists into the existing catalog; returns the new catalog and what happened. */
export function mergeCatalog(existing: CatalogVendor[], src: Sources): { catalog: CatalogVendor[]; report: MergeReport } {
  const report: MergeReport = { kept: existing.length, added: 0, skipped: [], categoryBy: {}, platforms: {} };
  const probo = indexProbo(src.probo);
  const sphHosts = new Set(src.statusphere.map((s) => hostOf(s.url)).filter(Boolean));
  const out: CatalogVendor[] = existing.map((v) => ({ ...v, evidence: [...(v.evidence ?? [])] }));
  const bySlug = new Map(out.map((v) => [v.slug, v]));
  const byHost = new Map<string, CatalogVendor>();
  for (const v of out) {
    byHost.set(hostOf(v.statusPageUrl), v);
    for (const s of v.sources) if (!byHost.has(hostOf(s.url))) byHost.set(hostOf(s.url), v);
  }

  // Existing entries: record which public lists name them, and add curated sources.
  for (const v of out) {
    const host = hostOf(v.statusPageUrl);
    const p = findProbo(probo, { name: v.name, statusHost: host });
    const gave = [
      ...(p && hostOf(p.statusPageUrl) === host ? ['statusPageUrl'] : []),
      ...(p && pageUrl(p.websiteUrl ?? '') === pageUrl(v.website) ? ['website'] : []),
      ...(p && v.compliance.items.length > 0 && complianceFrom(p).items.length > 0 ? ['compliance'] : []),
    ];
    if (gave.length) addEvidence(v.evidence!, { key: 'PROBO', commit: PROBO_COMMIT, gave });
    if (sphHosts.has(host)) addEvidence(v.evidence!, { key: 'SPH', commit: SPH_COMMIT, gave: ['statusPageUrl'] });
    for (const e of EXISTING_EVIDENCE[v.slug] ?? []) addEvidence(v.evidence!, e);
    const curated = CURATED[v.slug];
    if (curated) {
      const known = new Set(v.sources.map((s) => s.url));
      v.sources = [...curated.sources.filter((s) => !known.has(s.url)), ...v.sources];
      for (const e of curated.evidence) addEvidence(v.evidence!, e);
      v.availableDataTypes = dataTypesFor(v.sources);
    }
  }

  const added: CatalogVendor[] = [];
  for (const w of src.vsw) {
    const page = pageUrl(w.status_url);
    const host = hostOf(page);
    const match = bySlug.get(w.slug) ?? byHost.get(host);
    const platform = w.error ? null : platformOf(w);
    if (match) {
      addEvidence(match.evidence!, { key: 'VSW', commit: VSW_COMMIT, gave: platform ? ['platform', 'statusPageUrl'] : ['statusPageUrl'] });
      // A hand-written entry that still has no status source gains the evidenced one.
      if (platform && page && !match.sources.some((s) => !['advisory-feed', 'release-feed'].includes(s.type))) {
        match.sources = [...sourcesFor(platform, pageUrl(match.statusPageUrl) ?? page, w.page_id), ...match.sources];
        match.availableDataTypes = dataTypesFor(match.sources);
      }
      continue;
    }
    if (!page || !platform) {
      report.skipped.push({ slug: w.slug, why: w.error ? `snapshot error: ${w.error}` : `platform ${w.platform} has no adapter or no usable page id` });
      continue;
    }
    if (!SLUG.test(w.slug)) {
      report.skipped.push({ slug: w.slug, why: 'slug does not fit the catalog rule' });
      continue;
    }
    const p = findProbo(probo, { name: w.vendor, statusHost: host });
    const name = p?.name?.trim() || w.vendor.trim();
    const choice = chooseCategory({ proboCategory: p?.category, name, slug: w.slug, host });
    const evidence: CatalogEvidence[] = [{ key: 'VSW', commit: VSW_COMMIT, gave: ['platform', 'statusPageUrl', 'name'] }];
    evidence.push(...proboEvidence(p, host, choice.by === 'probo'));
    if (sphHosts.has(host)) evidence.push({ key: 'SPH', commit: SPH_COMMIT, gave: ['statusPageUrl'] });
    const sources = sourcesFor(platform, page, w.page_id);
    const entry: CatalogVendor = {
      slug: w.slug,
      name,
      website: pageUrl(p?.websiteUrl ?? '') ?? websiteFromStatusHost(page),
      category: choice.category,
      description: categorySentence(name, choice.category),
      statusPageUrl: page,
      availableDataTypes: dataTypesFor(sources),
      sources,
      compliance: complianceFrom(p),
      evidence,
    };
    report.categoryBy[choice.by] = (report.categoryBy[choice.by] ?? 0) + 1;
    report.platforms[platform] = (report.platforms[platform] ?? 0) + 1;
    bySlug.set(entry.slug, entry);
    byHost.set(host, entry);
    added.push(entry);
  }
  added.sort((a, b) => a.slug.localeCompare(b.slug));
  report.added = added.length;
  return { catalog: [...out, ...added], report };
}
