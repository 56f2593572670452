import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { DATA_TYPES, SOURCE_TYPES, type CatalogVendor } from '../../src/domain/records.ts';

// Keep in sync with the category table in docs/catalog.md.
const CATEGORIES = new Set([
  'cloud',
  'cdn-edge',
  'hosting',
  'devtools',
  'ai-ml',
  'database',
  'observability',
  'security',
  'communications',
  'productivity',
  'business-apps',
  'payments',
  'consumer',
]);

/** Source types that report a vendor's own status (as opposed to advisory or release-note feeds). */
const FEED_TYPES = new Set(['advisory-feed', 'release-feed']);

/** Source types whose payload also carries scheduled maintenance. */
const MAINTENANCE_TYPES = new Set(['statuspage-v2', 'incidentio', 'instatus', 'betterstack', 'statusio', 'sorry']);

/** Source keys of docs/catalog.md "Evidence". */
const EVIDENCE_KEYS = new Set([
  'VSW',
  'VSW-PLATFORMS',
  'PROBO',
  'SPH',
  'ASD',
  'ACS',
  'SG',
  'FX',
  'HEROKU-CLI',
  'SVELTIA',
  'VENDOR-DOCS',
  'PROBE',
  'STTS',
  'MULTI',
  'PILE',
  'STATUSWATCH',
  'SENTRY',
  'AWESOME',
  'CSTATE',
  'GWS',
]);
const EVIDENCE_FACTS = new Set(['platform', 'statusPageUrl', 'website', 'category', 'endpoint', 'compliance', 'name', 'feed']);

const SLUG = /^[a-z0-9][a-z0-9-]{0,62}$/;

const vendors = JSON.parse(readFileSync(new URL('../../catalog/vendors.json', import.meta.url), 'utf8')) as CatalogVendor[];

function assertHttps(value: unknown, where: string): void {
  assert.equal(typeof value, 'string', `${where} must be a string`);
  let url: URL;
  try {
    url = new URL(value as string);
  } catch {
    assert.fail(`${where} is not a valid URL: ${String(value)}`);
  }
  assert.equal(url.protocol, 'https:', `${where} must use https: ${String(value)}`);
}

test('catalog is an array of at least 500 vendors, at least 500 of them with a status source', () => {
  assert.ok(Array.isArray(vendors));
  assert.ok(vendors.length >= 500, `expected >= 500 vendors, got ${vendors.length}`);
  const withSource = vendors.filter((v) => v.sources.some((s) => !FEED_TYPES.has(s.type))).length;
  assert.ok(withSource >= 500, `expected >= 500 vendors with a status source, got ${withSource}`);
});

test('the most depended-on bespoke pages have a status source', () => {
  for (const [slug, type] of [
    ['slack', 'slack-status'],
    ['heroku', 'heroku-status'],
    ['gitlab', 'statusio'],
    ['salesforce', 'salesforce-trust'],
  ]) {
    const v = vendors.find((x) => x.slug === slug);
    assert.ok(v, `${slug} is in the catalog`);
    assert.ok(
      v.sources.some((s) => s.type === type),
      `${slug} has a ${type} source`,
    );
  }
});

test('every vendor names its evidence: known source keys, a 40-hex commit, the facts given', () => {
  for (const v of vendors) {
    assert.ok(Array.isArray(v.evidence) && v.evidence.length > 0, `${v.slug}: evidence`);
    for (const e of v.evidence!) {
      assert.ok(EVIDENCE_KEYS.has(e.key), `${v.slug}: unknown evidence key ${e.key}`);
      assert.match(e.commit, /^[0-9a-f]{40}$/, `${v.slug}: evidence commit`);
      assert.ok(e.gave.length > 0 && e.gave.every((g) => EVIDENCE_FACTS.has(g)), `${v.slug}: evidence facts ${e.gave.join(',')}`);
    }
    // A status source must rest on evidence of its platform or endpoint.
    if (v.sources.some((s) => !FEED_TYPES.has(s.type))) {
      assert.ok(
        v.evidence!.some((e) => e.gave.includes('platform') || e.gave.includes('endpoint')),
        `${v.slug}: a status source without platform evidence`,
      );
    }
  }
});

test('the vendors teams asked for are in the catalog; those without a source are listed as not monitored with why', () => {
  const asked = [
    'pagerduty',
    'sendgrid',
    'auth0',
    'zendesk',
    'paypal',
    'algolia',
    'mailchimp',
    'intercom',
    'cloudinary',
    'zscaler',
    'hetzner',
    'vultr',
    'oracle-cloud',
    'ibm-cloud',
    'microsoft-365',
    'google-workspace',
    'stripe',
    'okta',
    'fastly',
    'new-relic',
  ];
  const doc = readFileSync(new URL('../../docs/catalog.md', import.meta.url), 'utf8');
  const table = doc.slice(doc.indexOf('## Vendors without a machine-readable source'), doc.indexOf('## Hand-curated sources'));
  for (const slug of asked)
    assert.ok(
      vendors.some((v) => v.slug === slug),
      `${slug} is in the catalog`,
    );
  for (const v of vendors) {
    if (v.sources.some((s) => !FEED_TYPES.has(s.type))) continue;
    assert.deepEqual(v.availableDataTypes, [], `${v.slug}: no source, no data types`);
    assert.match(
      table,
      new RegExp(`\\n\\| ${v.slug} \\| ${v.statusPageUrl.replace(/[.?]/g, '\\$&')} \\| [^|]{10,} \\|`),
      `${v.slug}: listed with its page and why`,
    );
  }
});

test('slugs are unique and well-formed', () => {
  const seen = new Set<string>();
  for (const v of vendors) {
    assert.match(v.slug, SLUG, `bad slug ${v.slug}`);
    assert.ok(!seen.has(v.slug), `duplicate slug ${v.slug}`);
    seen.add(v.slug);
  }
});

test('every vendor has exactly the CatalogVendor fields', () => {
  const keys = ['availableDataTypes', 'category', 'compliance', 'description', 'evidence', 'name', 'slug', 'sources', 'statusPageUrl', 'website'];
  for (const v of vendors) {
    // `hostnames` is optional: the hosts a vendor documents (docs/diagnose.md "Hosts");
    // so is `probes`: its public endpoints probed for early warning (docs/early-warning.md "Probes").
    assert.deepEqual(
      Object.keys(v)
        .filter((k) => k !== 'hostnames' && k !== 'probes')
        .sort(),
      keys,
      `fields of ${v.slug}`,
    );
    assert.ok(v.name.trim().length > 0, `${v.slug}: empty name`);
    assert.ok(v.description.trim().length > 0, `${v.slug}: empty description`);
    assert.ok(Array.isArray(v.sources), `${v.slug}: sources must be an array`);
    assert.ok(Array.isArray(v.availableDataTypes), `${v.slug}: availableDataTypes must be an array`);
  }
});

test('every URL parses as https', () => {
  for (const v of vendors) {
    assertHttps(v.website, `${v.slug}.website`);
    assertHttps(v.statusPageUrl, `${v.slug}.statusPageUrl`);
    for (const [i, s] of v.sources.entries()) assertHttps(s.url, `${v.slug}.sources[${i}].url`);
    if (v.compliance.sourceUrl !== null) assertHttps(v.compliance.sourceUrl, `${v.slug}.compliance.sourceUrl`);
    for (const [i, item] of v.compliance.items.entries()) {
      if (item.compliancePageLink !== null) {
        assertHttps(item.compliancePageLink, `${v.slug}.compliance.items[${i}].compliancePageLink`);
      }
    }
  }
});

test('every source has a known type, a unique URL and a sane interval', () => {
  const known = new Set<string>(SOURCE_TYPES);
  for (const v of vendors) {
    const urls = new Set<string>();
    for (const s of v.sources) {
      assert.ok(known.has(s.type), `${v.slug}: unknown source type ${s.type}`);
      assert.ok(!urls.has(s.url), `${v.slug}: duplicate source URL ${s.url}`);
      urls.add(s.url);
      if (s.intervalSeconds !== undefined) {
        assert.ok(Number.isInteger(s.intervalSeconds) && s.intervalSeconds >= 30, `${v.slug}: bad interval`);
      }
    }
  }
});

test('every data type is valid and listed once', () => {
  const known = new Set<string>(DATA_TYPES);
  for (const v of vendors) {
    for (const t of v.availableDataTypes) assert.ok(known.has(t), `${v.slug}: unknown data type ${t}`);
    assert.equal(new Set(v.availableDataTypes).size, v.availableDataTypes.length, `${v.slug}: repeated data type`);
  }
});

test('data types match the sources', () => {
  for (const v of vendors) {
    const types = new Set(v.sources.map((s) => s.type));
    const hasStatus = [...types].some((t) => !FEED_TYPES.has(t));
    const has = (d: string) => v.availableDataTypes.includes(d as CatalogVendor['availableDataTypes'][number]);
    assert.equal(has('incidents'), hasStatus, `${v.slug}: "incidents" iff it has a status source`);
    assert.equal(
      has('maintenance'),
      [...types].some((t) => MAINTENANCE_TYPES.has(t)),
      `${v.slug}: "maintenance" iff it has a source that publishes maintenance`,
    );
    assert.equal(has('advisories'), types.has('advisory-feed'), `${v.slug}: "advisories" iff it has an advisory feed`);
    assert.equal(has('updates'), types.has('release-feed'), `${v.slug}: "updates" iff it has a release feed`);
  }
});

test('Statuspage vendors poll summary, incident history and maintenance history', () => {
  for (const v of vendors) {
    const paths = v.sources
      .filter((s) => s.type === 'statuspage-v2')
      .map((s) => new URL(s.url).pathname)
      .sort();
    if (paths.length === 0) continue;
    assert.deepEqual(paths, ['/api/v2/incidents.json', '/api/v2/scheduled-maintenances.json', '/api/v2/summary.json'], `${v.slug}: Statuspage endpoints`);
  }
});

test('categories come from the documented fixed set', () => {
  for (const v of vendors) assert.ok(CATEGORIES.has(v.category), `${v.slug}: unknown category ${v.category}`);
});

test('compliance entries are complete', () => {
  for (const v of vendors) {
    assert.ok(v.compliance && Array.isArray(v.compliance.items), `${v.slug}: compliance.items`);
    for (const item of v.compliance.items) {
      assert.ok(item.name && item.description && item.category, `${v.slug}: incomplete compliance item`);
      if (item.researchedAt !== null) {
        assert.ok(!Number.isNaN(Date.parse(item.researchedAt)), `${v.slug}: bad researchedAt`);
      }
    }
  }
});

test('the catalog covers every data type', () => {
  const count = (d: string) => vendors.filter((v) => v.availableDataTypes.includes(d as CatalogVendor['availableDataTypes'][number])).length;
  assert.ok(count('incidents') >= 60);
  assert.ok(count('maintenance') >= 1);
  assert.ok(count('updates') >= 5);
  assert.ok(count('advisories') >= 3);
});

test("catalog probes: at least 30 vendors, each probe under the vendor's hostnames; a bad probe stops the loader", async () => {
  const fs = await import('node:fs');
  const os = await import('node:os');
  const path = await import('node:path');
  const { readCatalog } = await import('../../src/services/vendors/catalog-loader.ts');
  const probed = vendors.filter((v) => v.probes?.length);
  assert.ok(probed.length >= 30, `${probed.length} vendors with probes`);
  assert.ok(
    probed.every((v) => v.hostnames?.length),
    'every probed vendor documents its hostnames',
  );
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'catalog-probes-'));
  const github = vendors.find((v) => v.slug === 'github')!;
  for (const [probe, why] of [
    [{ kind: 'http', url: 'https://169.254.169.254/latest/meta-data', expect: [200] }, /probe 1: .*DNS name/],
    [{ kind: 'http', url: 'https://api.stripe.com/', expect: [200] }, /probe 1: .*hostnames/],
    [{ kind: 'tcp', host: 'api.github.com' }, /probe 1: host must be host:port/],
  ] as const) {
    const file = path.join(dir, 'vendors.json');
    fs.writeFileSync(file, JSON.stringify([{ ...github, probes: [probe] }]));
    assert.throws(() => readCatalog(file), why);
  }
});
