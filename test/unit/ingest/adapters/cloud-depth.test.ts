import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { affectedServices, impactIndex, recordComponents, type ImpactService } from '../../../../src/domain/impact.ts';
import { keepUnlistedComponents, MAX_KEPT_COMPONENTS } from '../../../../src/domain/kept-components.ts';
import type { ComponentRecord } from '../../../../src/domain/records.ts';
import { regionTagOf } from '../../../../src/domain/regions.ts';
import { azureRssAdapter } from '../../../../src/ingest/adapters/azure.ts';
import { splitAwsKey } from '../../../../src/ingest/adapters/aws-components.ts';
import { MAX_RECORD_COMPONENTS, MAX_SNAPSHOT_COMPONENTS } from '../../../../src/ingest/adapters/cloud-components.ts';
import { gcpAdapter } from '../../../../src/ingest/adapters/gcp.ts';
import { countBy, input, parseFixture } from './helpers.ts';

// Depth for the big clouds (docs/mappings.md "Cloud depth"): components per service and
// region, whose names carry the region tag the impact rules read.

describe('cloud components from recorded payloads', () => {
  test('AWS currentevents: each impacted service in its own region, with its status now', (t) => {
    const s = parseFixture(t, 'aws/currentevents-2026-08-01.json');
    if (!s) return;
    assert.equal(s.componentsKeepUnlisted, true);
    const byId = new Map(s.components!.map((c) => [c.id, c]));
    assert.equal(byId.size, s.components!.length, 'ids are unique');
    assert.deepEqual(byId.get('ec2-me-central-1'), {
      id: 'ec2-me-central-1',
      name: 'Amazon Elastic Compute Cloud (me-central-1)',
      status: 'major_outage',
      group: 'Amazon Elastic Compute Cloud',
      position: byId.get('ec2-me-central-1')!.position,
    });
    assert.equal(byId.get('ec2-me-south-1')!.status, 'major_outage');
    // Route 53 is global and AWS's `current` for it is 0: listed, operational.
    assert.deepEqual([byId.get('route53')!.name, byId.get('route53')!.status], ['Amazon Route 53', 'operational']);
    assert.equal(regionTagOf(byId.get('ec2-me-central-1')!.name)!.code, 'me-central-1');
    assert.equal(regionTagOf(byId.get('route53')!.name), null);
    // Ordered by service, then region; positions are the display order.
    assert.deepEqual(
      s.components!.map((c) => c.position),
      s.components!.map((_, i) => i),
    );
    const groups = s.components!.map((c) => c.group!);
    assert.deepEqual(groups, [...groups].sort(), 'code-unit order of the service names');
  });

  test('AWS legacy data.json: every archived service listed as operational, US Standard read as us-east-1', (t) => {
    const s = parseFixture(t, 'aws/data-2022-07-03.json');
    if (!s) return;
    assert.deepEqual(
      countBy(s.components!, (c) => c.status),
      { operational: s.components!.length },
    );
    const s3 = s.components!.find((c) => c.id === 's3-us-standard')!;
    assert.equal(s3.name, 'Amazon Simple Storage Service (us-east-1)');
    assert.equal(s.components!.find((c) => c.id === 'ec2-us-east-1')!.name, 'Amazon Elastic Compute Cloud (us-east-1)');
  });

  test('GCP: product × location; a closed history is operational everywhere', (t) => {
    const s = parseFixture(t, 'gcp/incidents-2022-07-03.json');
    if (!s) return;
    assert.deepEqual(
      countBy(s.components!, (c) => c.status),
      { operational: s.components!.length },
    );
    const names = new Set(s.components!.map((c) => c.name));
    assert.ok(names.has('Google BigQuery (us-central1)'));
    assert.ok(names.has('Google BigQuery (us)'), 'a multi-region keeps its own label');
    assert.ok(names.has('Cloud Armor (global)'));
    assert.equal(regionTagOf('Google BigQuery (us)'), null);
  });
});

describe('cloud components from documented shapes', () => {
  const gcpOpen = (extra: Record<string, unknown> = {}) => [
    {
      id: 'x1',
      begin: '2026-07-31T10:00:00+00:00',
      external_desc: 'Cloud Spanner errors',
      status_impact: 'SERVICE_OUTAGE',
      affected_products: [{ title: 'Cloud Spanner', id: 'spanner' }],
      currently_affected_locations: [{ id: 'us-central1', title: 'Iowa (us-central1)' }],
      previously_affected_locations: [{ id: 'europe-west1', title: 'Belgium (europe-west1)' }],
      ...extra,
    },
  ];

  test('GCP open incident: currently affected locations are hit, previously affected ones have recovered', () => {
    const s = gcpAdapter.parse(input('gcp', 'https://status.cloud.google.com/incidents.json', JSON.stringify(gcpOpen())));
    assert.deepEqual(
      s.components!.map((c) => [c.id, c.name, c.status]),
      [
        ['spanner:europe-west1', 'Cloud Spanner (europe-west1)', 'operational'],
        ['spanner:us-central1', 'Cloud Spanner (us-central1)', 'major_outage'],
      ],
    );
    assert.deepEqual(s.incidents![0]!.components, ['Cloud Spanner (us-central1)', 'Cloud Spanner (europe-west1)']);
  });

  test('hostile product × location lists are capped per record and per snapshot', () => {
    const products = Array.from({ length: 300 }, (_, i) => ({ title: `P${i}`, id: `p${i}` }));
    const locations = Array.from({ length: 300 }, (_, i) => ({ id: `loc${i}` }));
    const s = gcpAdapter.parse(
      input(
        'gcp',
        'https://status.cloud.google.com/incidents.json',
        JSON.stringify(gcpOpen({ affected_products: products, currently_affected_locations: locations })),
      ),
    );
    assert.equal(s.incidents![0]!.components.length, MAX_RECORD_COMPONENTS);
    assert.equal(s.components!.length, MAX_SNAPSHOT_COMPONENTS);
  });

  test('Azure: an item naming only a region is a component of that region; unknown place names are services', () => {
    const feed = (cats: string[]) =>
      `<?xml version="1.0"?><rss version="2.0"><channel><title>Azure Status</title><item><guid isPermaLink="false">g1</guid><title>Issue</title>${cats.map((c) => `<category>${c}</category>`).join('')}<description>x</description><pubDate>Thu, 23 Jul 2026 16:29:09 Z</pubDate></item></channel></rss>`;
    const onlyRegion = azureRssAdapter.parse(input('azure', 'https://azure.status.microsoft/en-us/status/feed/', feed(['East US 2'])));
    assert.deepEqual(onlyRegion.incidents![0]!.components, ['East US 2 (eastus2)']);
    const noRegion = azureRssAdapter.parse(input('azure', 'https://azure.status.microsoft/en-us/status/feed/', feed(['Azure Front Door'])));
    assert.deepEqual(
      noRegion.components!.map((c) => [c.id, c.name]),
      [['azure-front-door', 'Azure Front Door']],
    );
  });

  test('AWS keys: region suffixes of the vocabulary only', () => {
    assert.equal(splitAwsKey('ec2-us-east-1').region!.code, 'us-east-1');
    assert.equal(splitAwsKey('neptune-db-me-central-1').service, 'neptune-db');
    assert.equal(splitAwsKey('internetconnectivity-us-gov-west-1').region!.code, 'us-gov-west-1');
    assert.equal(splitAwsKey('ec2-us-east-10').region, null, 'not a known region');
    assert.equal(splitAwsKey('management-console').region, null);
    assert.equal(splitAwsKey('bigquery-us-central1').region, null, 'a Google code is not an AWS region');
  });
});

describe('impact rules read region tags of listed components', () => {
  const AWS = new Map([
    ['ec2-us-east-1', 'Amazon Elastic Compute Cloud (us-east-1)'],
    ['ec2-me-central-1', 'Amazon Elastic Compute Cloud (me-central-1)'],
  ]);
  const services: ImpactService[] = [
    { id: 's1', name: 'checkout', criticality: 'critical', dependencies: [{ vendor: 'aws', kind: 'hard', components: ['ec2-us-east-1'], regions: [] }] },
    { id: 's2', name: 'gulf-api', criticality: 'high', dependencies: [{ vendor: 'aws', kind: 'hard', components: [], regions: ['me-central-1'] }] },
    { id: 's3', name: 'us-api', criticality: 'high', dependencies: [{ vendor: 'aws', kind: 'hard', components: [], regions: ['us-east-1'] }] },
  ];
  const record = (names: string[]) => ({
    kind: 'incident' as const,
    id: 'aws:1',
    vendor: 'aws',
    title: 'Increased Error Rates',
    components: recordComponents(names, AWS),
    updates: [],
  });

  test('an event in me-central-1 whose text names no region: the region tag decides', () => {
    const hits = affectedServices(record(['Amazon Elastic Compute Cloud (me-central-1)']), impactIndex(services));
    assert.deepEqual(
      hits.map((h) => [h.serviceName, h.confidence, h.reasons]),
      [['gulf-api', 'medium', ["me-central-1 named in the listed component 'Amazon Elastic Compute Cloud (me-central-1)'"]]],
    );
  });

  test('EC2 in us-east-1 listed: the component dependency is high, the region dependency medium', () => {
    const hits = affectedServices(record(['Amazon Elastic Compute Cloud (us-east-1)']), impactIndex(services));
    assert.deepEqual(
      hits.map((h) => [h.serviceName, h.confidence]),
      [
        ['checkout', 'high'],
        ['us-api', 'medium'],
      ],
    );
  });
});

describe('components kept while unlisted', () => {
  const c = (id: string, status: ComponentRecord['status'], group = id): ComponentRecord => ({ id, name: id, status, group, position: 0 });

  test('a component the poll no longer names stays, as operational; the poll wins for what it names', () => {
    const out = keepUnlistedComponents([c('b', 'major_outage'), c('a', 'major_outage')], [c('c', 'partial_outage'), c('a', 'degraded_performance')]);
    assert.deepEqual(
      out.map((x) => [x.id, x.status, x.position]),
      [
        ['a', 'degraded_performance', 0],
        ['b', 'operational', 1],
        ['c', 'partial_outage', 2],
      ],
    );
  });

  test('capped: past the cap, components the poll does not name are dropped', () => {
    const stored = Array.from({ length: MAX_KEPT_COMPONENTS }, (_, i) => c(`s${i}`, 'operational'));
    assert.equal(keepUnlistedComponents(stored, [c('new', 'major_outage')]).length, MAX_KEPT_COMPONENTS);
  });
});
