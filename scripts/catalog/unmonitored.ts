// Vendors that teams ask for whose status page is evidenced but whose platform we cannot
// poll (docs/catalog.md "Vendors without a machine-readable source"). They enter the
// catalog with no source, so they read as not monitored, never as "not read yet".
import type { CatalogEvidence, CatalogSource, CatalogVendor } from '../../src/domain/records.ts';
import { STTS_COMMIT } from './lists.ts';
import { addEvidence, hostOf, PROBO_COMMIT, SPH_COMMIT } from './merge.ts';

const STTS = (gave: CatalogEvidence['gave']): CatalogEvidence => ({ key: 'STTS', commit: STTS_COMMIT, gave });
const SPH: CatalogEvidence = { key: 'SPH', commit: SPH_COMMIT, gave: ['statusPageUrl'] };
const PROBO = (gave: CatalogEvidence['gave']): CatalogEvidence => ({ key: 'PROBO', commit: PROBO_COMMIT, gave });

type Unmonitored = Pick<CatalogVendor, 'slug' | 'name' | 'website' | 'category' | 'description' | 'statusPageUrl'> & { evidence: CatalogEvidence[] };

export const UNMONITORED: Unmonitored[] = [
  {
    slug: 'pagerduty',
    name: 'PagerDuty',
    website: 'https://www.pagerduty.com',
    category: 'observability',
    description: 'PagerDuty provides on-call scheduling, alerting and incident response.',
    statusPageUrl: 'https://status.pagerduty.com',
    evidence: [STTS(['platform', 'statusPageUrl'])],
  },
  {
    slug: 'zendesk',
    name: 'Zendesk',
    website: 'https://www.zendesk.com',
    category: 'business-apps',
    description: 'Zendesk provides customer service and support ticketing software.',
    statusPageUrl: 'https://status.zendesk.com',
    evidence: [STTS(['platform', 'statusPageUrl']), PROBO(['website'])],
  },
  {
    slug: 'paypal',
    name: 'PayPal',
    website: 'https://www.paypal.com',
    category: 'payments',
    description: 'PayPal provides online payments and merchant payment processing.',
    statusPageUrl: 'https://www.paypal-status.com/product/production',
    evidence: [STTS(['platform']), PROBO(['website', 'statusPageUrl'])],
  },
  {
    slug: 'algolia',
    name: 'Algolia',
    website: 'https://www.algolia.com',
    category: 'devtools',
    description: 'Algolia provides a hosted search API.',
    statusPageUrl: 'https://status.algolia.com',
    evidence: [STTS(['platform', 'statusPageUrl']), PROBO(['website', 'statusPageUrl', 'category'])],
  },
  {
    slug: 'mailchimp',
    name: 'Mailchimp',
    website: 'https://mailchimp.com',
    category: 'communications',
    description: 'Mailchimp provides email marketing and transactional email delivery.',
    statusPageUrl: 'https://status.mailchimp.com',
    evidence: [PROBO(['website', 'statusPageUrl'])],
  },
  {
    slug: 'zscaler',
    name: 'Zscaler',
    website: 'https://www.zscaler.com',
    category: 'security',
    description: 'Zscaler provides cloud security services such as secure web gateways and zero-trust access.',
    statusPageUrl: 'https://trust.zscaler.com/cloud-status',
    evidence: [SPH],
  },
  {
    slug: 'hetzner',
    name: 'Hetzner',
    website: 'https://www.hetzner.com',
    category: 'cloud',
    description: 'Hetzner provides dedicated servers, cloud servers and storage.',
    statusPageUrl: 'https://status.hetzner.com',
    evidence: [PROBO(['website', 'statusPageUrl', 'category']), SPH],
  },
  {
    slug: 'vultr',
    name: 'Vultr',
    website: 'https://www.vultr.com',
    category: 'cloud',
    description: 'Vultr provides cloud compute, bare metal and storage.',
    statusPageUrl: 'https://status.vultr.com',
    evidence: [PROBO(['website', 'category']), SPH],
  },
  {
    slug: 'oracle-cloud',
    name: 'Oracle Cloud Infrastructure',
    website: 'https://www.oracle.com/cloud',
    category: 'cloud',
    description: 'Oracle Cloud Infrastructure provides cloud compute, storage, databases and networking.',
    statusPageUrl: 'https://ocistatus.oraclecloud.com',
    evidence: [SPH],
  },
  {
    slug: 'ibm-cloud',
    name: 'IBM Cloud',
    website: 'https://www.ibm.com/cloud',
    category: 'cloud',
    description: 'IBM Cloud provides cloud compute, storage, databases and AI services.',
    statusPageUrl: 'https://cloud.ibm.com/status',
    evidence: [SPH],
  },
  {
    slug: 'microsoft-365',
    name: 'Microsoft 365',
    website: 'https://www.microsoft.com/microsoft-365',
    category: 'productivity',
    description: 'Microsoft 365 provides email, documents, chat and meetings (Exchange Online, SharePoint, Teams).',
    statusPageUrl: 'https://status.office365.com',
    evidence: [PROBO(['website', 'category']), SPH],
  },
  {
    slug: 'google-workspace',
    name: 'Google Workspace',
    website: 'https://workspace.google.com',
    category: 'productivity',
    description: 'Google Workspace provides email, documents, chat and meetings (Gmail, Drive, Meet).',
    statusPageUrl: 'https://www.google.com/appsstatus/dashboard',
    evidence: [PROBO(['website', 'statusPageUrl', 'category'])],
  },
  // Infrastructure vendors whose pages stts files under a platform we have no adapter for.
  {
    slug: 'civo',
    name: 'Civo',
    website: 'https://www.civo.com',
    category: 'cloud',
    description: 'Civo provides managed Kubernetes and cloud compute.',
    statusPageUrl: 'https://status.civo.com',
    evidence: [STTS(['platform', 'statusPageUrl', 'name'])],
  },
  {
    slug: 'wp-engine',
    name: 'WP Engine',
    website: 'https://wpengine.com',
    category: 'hosting',
    description: 'WP Engine provides managed WordPress hosting.',
    statusPageUrl: 'https://wpenginestatus.com',
    evidence: [STTS(['platform', 'statusPageUrl', 'name'])],
  },
  {
    slug: 'site24x7',
    name: 'Site24x7',
    website: 'https://www.site24x7.com',
    category: 'observability',
    description: 'Site24x7 provides website, server and application monitoring.',
    statusPageUrl: 'https://status.site24x7.com',
    evidence: [STTS(['platform', 'statusPageUrl', 'name'])],
  },
  {
    slug: 'canonical',
    name: 'Canonical',
    website: 'https://canonical.com',
    category: 'devtools',
    description: 'Canonical publishes Ubuntu and runs its online services such as Launchpad and the Snap Store.',
    statusPageUrl: 'https://status.canonical.com',
    evidence: [STTS(['platform', 'statusPageUrl', 'name'])],
  },
];

/** Existing entries without a source whose page stts reads with a bespoke parser. */
export const BESPOKE_EVIDENCE: Record<string, CatalogEvidence[]> = {
  stripe: [STTS(['platform', 'statusPageUrl'])],
  okta: [STTS(['platform', 'statusPageUrl'])],
  fastly: [STTS(['platform', 'statusPageUrl'])],
};

/** cState's own template, which renders every cState page's `/index.json`. */
const CSTATE: CatalogEvidence = { key: 'CSTATE', commit: '1fb3e0d3ca8a7bbab9de02c5b279a95f8a8d7fe2', gave: ['endpoint'] };
/** Public code that reads Google Workspace's incident list. */
const GWS: CatalogEvidence = { key: 'GWS', commit: '2ac2f22e55dc0fdd30424a2695430cfde91a5d2c', gave: ['platform', 'endpoint'] };

/**
 * Vendors above (and Stripe, Okta) read through an adapter of their own endpoint or page
 * platform (docs/catalog.md "Read by their own endpoint"): the endpoint public code reads,
 * with that code as evidence. Given to an entry that has no status source yet.
 */
export const ADAPTER_SOURCES: Record<string, { source: CatalogSource; evidence: CatalogEvidence[] }> = {
  stripe: { source: { type: 'stripe-status', url: 'https://status.stripe.com/current/full' }, evidence: [STTS(['platform', 'endpoint'])] },
  okta: { source: { type: 'okta-status', url: 'https://status.okta.com' }, evidence: [STTS(['platform', 'endpoint'])] },
  fastly: { source: { type: 'fastly-status', url: 'https://www.fastlystatus.com' }, evidence: [STTS(['platform', 'endpoint'])] },
  zendesk: { source: { type: 'zendesk-status', url: 'https://status.zendesk.com/api/ssp/incidents.json' }, evidence: [STTS(['platform', 'endpoint'])] },
  paypal: { source: { type: 'paypal-status', url: 'https://www.paypal-status.com/api/v1/components' }, evidence: [STTS(['platform', 'endpoint'])] },
  algolia: {
    source: { type: 'algolia-status', url: 'https://status.algolia.com/2/status/service/all/period/current' },
    evidence: [STTS(['platform', 'endpoint'])],
  },
  civo: { source: { type: 'cstate', url: 'https://status.civo.com/index.json' }, evidence: [STTS(['platform']), CSTATE] },
  site24x7: {
    source: { type: 'site24x7', url: 'https://status.site24x7.com/sp/api/public/summary_details/statuspages/7Ca9wFlVF-AlbjpE2tzER6FUegHamCQNyZF5CbAffCs=' },
    evidence: [STTS(['platform', 'endpoint'])],
  },
  canonical: {
    source: { type: 'site24x7', url: 'https://status.canonical.com/sp/api/public/summary_details/statuspages/KNms6QK9ewuzz-7xUsPsN927u5djVcb3oZX1-zOu_go=' },
    evidence: [STTS(['platform', 'endpoint'])],
  },
  mailchimp: {
    source: { type: 'statuscake', url: 'https://app.statuscake.com/Workfloor/PublicReportHandler.php?PublicID=58JncZazfp' },
    evidence: [STTS(['platform', 'endpoint'])],
  },
  'wp-engine': { source: { type: 'statushub', url: 'https://wpenginestatus.com/api/statuses' }, evidence: [STTS(['platform', 'endpoint'])] },
  'google-workspace': { source: { type: 'gcp-json', url: 'https://www.google.com/appsstatus/dashboard/incidents.json' }, evidence: [GWS] },
};

/** Adds the entries above that the catalog does not hold yet (by slug or status host). */
export function addUnmonitored(catalog: CatalogVendor[]): { catalog: CatalogVendor[]; added: string[] } {
  const out = catalog.map((v) => ({ ...v, evidence: [...(v.evidence ?? [])] }));
  for (const v of out) for (const e of BESPOKE_EVIDENCE[v.slug] ?? []) addEvidence(v.evidence!, e);
  const slugs = new Set(out.map((v) => v.slug));
  const hosts = new Set(out.map((v) => hostOf(v.statusPageUrl)));
  const added: string[] = [];
  for (const u of UNMONITORED) {
    if (slugs.has(u.slug) || hosts.has(hostOf(u.statusPageUrl))) continue;
    const { evidence, ...fields } = u;
    out.push({
      ...fields,
      availableDataTypes: [],
      sources: [],
      compliance: { sourceUrl: null, items: [] },
      evidence: evidence.map((e) => ({ ...e, gave: [...e.gave] })),
    });
    added.push(u.slug);
  }
  for (const v of out) {
    const read = ADAPTER_SOURCES[v.slug];
    if (!read || v.sources.length > 0) continue;
    v.sources = [{ ...read.source }];
    v.availableDataTypes = ['incidents'];
    for (const e of read.evidence) addEvidence(v.evidence!, e);
  }
  return { catalog: out, added };
}
