// The catalog generator's merge rules (docs/catalog.md "How the catalog is generated") on
// small lists written for this test.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { CatalogVendor } from '../../../src/domain/records.ts';
import { mergeCatalog, websiteFromStatusHost, type ProboVendor, type VswVendor } from '../../../scripts/catalog/merge.ts';

const handWritten = (slug: string, statusPageUrl: string, sources: CatalogVendor['sources'] = []): CatalogVendor => ({
  slug,
  name: `${slug} (hand-written)`,
  website: `https://${slug}.example`,
  category: 'devtools',
  description: 'Written by hand.',
  statusPageUrl,
  availableDataTypes: sources.length ? ['incidents'] : [],
  sources,
  compliance: { sourceUrl: null, items: [] },
});

const vsw = (slug: string, platform: string, status_url: string, page_id: string | null, error: string | null = null): VswVendor => ({
  slug,
  vendor: slug[0]!.toUpperCase() + slug.slice(1),
  platform,
  status_url,
  page_id,
  error,
});

const existing = [
  handWritten('acme', 'https://status.acme.example', [{ type: 'statuspage-v2', url: 'https://status.acme.example/api/v2/summary.json' }]),
  handWritten('slack', 'https://slack-status.com'),
];
const snapshot: VswVendor[] = [
  vsw('acme-renamed', 'statuspage', 'https://status.acme.example', 'abcdefghijkl'),
  vsw('slack', 'bespoke', 'https://slack-status.com', null),
  vsw('ably', 'statuspage', 'http://status.ably.example/', 'ntqy1wz94gjv'),
  vsw('openco', 'statuspage', 'https://status.openco.example', '01JMDK9XYNY6RXSED6SDWW50WY'),
  vsw('neonish', 'status.io', 'https://neonish.example', '6878fc85709daa75be6c7e3c'),
  vsw('badio', 'status.io', 'https://bad.freshstatus.io', 'not-an-id'),
  vsw('gone', 'statuspage', 'https://status.gone.example', null, 'http 401'),
  vsw('bigco', 'bespoke', 'https://status.bigco.example', null),
  vsw('notiony', 'incident.io', 'https://status.notiony.example', null),
  vsw('mailer', 'sorry', 'https://status.mailer.example', null),
];
const probo: ProboVendor[] = [
  {
    name: 'Ably Realtime',
    websiteUrl: 'https://ably.com/',
    statusPageUrl: 'https://status.ably.example/',
    category: 'ENGINEERING',
    certifications: ['SOC 2 Type 2', 'HIPAA'],
    trustPageUrl: 'https://ably.com/trust',
  },
];

test('hand-written entries keep their fields; a matching snapshot entry adds evidence only', () => {
  const { catalog } = mergeCatalog(existing, { vsw: snapshot, probo, statusphere: [] });
  const acme = catalog.find((v) => v.slug === 'acme')!;
  assert.equal(acme.name, 'acme (hand-written)');
  assert.deepEqual(acme.sources, existing[0]!.sources);
  assert.ok(acme.evidence?.some((e) => e.key === 'VSW' && e.gave.includes('platform')));
  assert.equal(catalog.filter((v) => v.statusPageUrl === 'https://status.acme.example').length, 1, 'no duplicate under the snapshot slug');
});

test('curated sources reach bespoke pages (Slack)', () => {
  const { catalog } = mergeCatalog(existing, { vsw: snapshot, probo, statusphere: [] });
  const slack = catalog.find((v) => v.slug === 'slack')!;
  assert.deepEqual(slack.sources, [{ type: 'slack-status', url: 'https://slack-status.com/api/v2.0.0/current' }]);
  assert.deepEqual(slack.availableDataTypes, ['incidents']);
  assert.ok(slack.evidence?.some((e) => e.key === 'VSW-PLATFORMS' && e.gave.includes('endpoint')));
});

test('new entries: sources from the platform, PROBO facts where it names the vendor, generated description', () => {
  const { catalog, report } = mergeCatalog(existing, { vsw: snapshot, probo, statusphere: [{ url: 'https://status.ably.example', name: 'Ably' }] });
  const by = new Map(catalog.map((v) => [v.slug, v]));
  const ably = by.get('ably')!;
  assert.equal(ably.name, 'Ably Realtime');
  assert.equal(ably.website, 'https://ably.com');
  assert.equal(ably.statusPageUrl, 'https://status.ably.example');
  assert.equal(ably.category, 'devtools');
  assert.equal(ably.description, 'Ably Realtime provides developer tools and infrastructure.');
  assert.deepEqual(
    ably.sources.map((s) => s.url),
    [
      'https://status.ably.example/api/v2/summary.json',
      'https://status.ably.example/api/v2/incidents.json',
      'https://status.ably.example/api/v2/scheduled-maintenances.json',
    ],
  );
  assert.deepEqual(ably.availableDataTypes, ['incidents', 'maintenance']);
  assert.deepEqual(
    ably.compliance.items.map((i) => i.name),
    ['SOC 2', 'HIPAA'],
  );
  assert.deepEqual(
    ably.evidence?.map((e) => e.key),
    ['VSW', 'PROBO', 'SPH'],
  );
  assert.deepEqual(by.get('openco')?.sources, [{ type: 'incidentio', url: 'https://status.openco.example/api/v2/summary.json' }]);
  assert.deepEqual(by.get('neonish')?.sources, [{ type: 'statusio', url: 'https://api.status.io/1.0/status/6878fc85709daa75be6c7e3c' }]);
  assert.deepEqual(by.get('notiony')?.sources, [{ type: 'incidentio', url: 'https://status.notiony.example/proxy/status.notiony.example' }]);
  assert.deepEqual(
    by.get('mailer')?.sources.map((s) => s.type),
    ['sorry', 'sorry'],
  );
  for (const left of ['badio', 'gone', 'bigco']) assert.equal(by.has(left), false, `${left} is left out`);
  assert.deepEqual(report.skipped.map((s) => s.slug).sort(), ['badio', 'bigco', 'gone']);
});

test('running it again on its own output changes nothing', () => {
  const once = mergeCatalog(existing, { vsw: snapshot, probo, statusphere: [] }).catalog;
  const twice = mergeCatalog(once, { vsw: snapshot, probo, statusphere: [] }).catalog;
  assert.deepEqual(twice, once);
});

test('website from the status host', () => {
  assert.equal(websiteFromStatusHost('https://status.ably.com'), 'https://ably.com');
  assert.equal(websiteFromStatusHost('https://acme.statuspage.io'), 'https://acme.statuspage.io');
  assert.equal(websiteFromStatusHost('https://discordstatus.com'), 'https://discordstatus.com');
});
