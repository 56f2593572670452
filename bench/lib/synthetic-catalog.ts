import type { CatalogVendor, SourceType } from '../../src/domain/records.ts';

// A catalog of synthetic vendors for the benchmarks that poll the simulated fleet at
// catalog scale (ingest-round, freshness): vendors cycling through the formats the
// simulator serves (one status format per vendor, as in the real catalog), until there
// are `n` sources. Every vendor's first source is a status source.

const MIXES: [SourceType, string][][] = [
  [
    ['statuspage-v2', '/api/v2/summary.json'],
    ['statuspage-v2', '/api/v2/incidents.json'],
    ['statuspage-v2', '/api/v2/scheduled-maintenances.json'],
    ['release-feed', '/changelog.atom'],
  ],
  [
    ['incidentio', '/api/v2/summary.json'],
    ['advisory-feed', '/security.rss'],
    ['release-feed', '/changelog.atom'],
  ],
  [
    ['instatus', '/summary.json'],
    ['release-feed', '/changelog.atom'],
  ],
  [
    ['gcp-json', '/incidents.json'],
    ['advisory-feed', '/security.rss'],
    ['release-feed', '/changelog.atom'],
  ],
  [
    ['azure-rss', '/status/feed/'],
    ['release-feed', '/changelog.atom'],
  ],
  [
    ['statuspage-rss', '/history.rss'],
    ['advisory-feed', '/security.rss'],
  ],
  [
    ['statuspage-atom', '/history.atom'],
    ['release-feed', '/changelog.atom'],
  ],
];

export function syntheticCatalog(n: number): CatalogVendor[] {
  const vendors: CatalogVendor[] = [];
  let count = 0;
  for (let i = 0; count < n; i++) {
    const slug = `bench-${String(i).padStart(4, '0')}`;
    const host = `https://${slug}.example`;
    const picked = MIXES[i % MIXES.length]!.slice(0, n - count);
    count += picked.length;
    vendors.push({
      slug,
      name: `Bench Vendor ${i}`,
      website: host,
      category: 'cloud',
      description: 'Synthetic vendor for the ingestion benchmarks.',
      statusPageUrl: host,
      availableDataTypes: ['incidents', 'maintenance', 'advisories', 'updates'],
      sources: picked.map(([type, p]) => ({ type, url: `${host}${p}` })),
      compliance: { sourceUrl: null, items: [] },
    });
  }
  return vendors;
}
