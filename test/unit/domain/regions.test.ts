import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { normaliseRegion, REGIONS, regionCandidates, regionCodesNamedIn, regionsNamedIn } from '../../../src/domain/regions.ts';

// The region vocabulary (docs/services.md "Regions"): one normal form per region, and
// region mentions read from incident texts without hits on ordinary words.

const codes = (text: string) => [...regionCodesNamedIn(text)].sort();

describe('region vocabulary', () => {
  test('codes are unique across the three clouds, each cloud is covered', () => {
    assert.equal(new Set(REGIONS.map((r) => r.code)).size, REGIONS.length);
    for (const cloud of ['aws', 'gcp', 'azure'] as const) assert.ok(REGIONS.filter((r) => r.cloud === cloud).length >= 30, cloud);
  });

  test('normaliseRegion reads codes, display names and places of one region', () => {
    const cases: [string, string][] = [
      ['us-east-1', 'us-east-1'],
      ['  US-EAST-1 ', 'us-east-1'],
      ['N. Virginia', 'us-east-1'],
      ['US East (N. Virginia)', 'us-east-1'],
      ['us east (n. virginia)', 'us-east-1'],
      ['aws:us-west-2', 'us-west-2'],
      ['us-central1', 'us-central1'],
      ['Iowa', 'us-central1'],
      ['East US', 'eastus'],
      ['eastus', 'eastus'],
      ['East US 2', 'eastus2'],
      ['azure:West Europe', 'westeurope'],
      ['europe-west10', 'europe-west10'],
      ['sao paulo', ''], // São Paulo: AWS, Google and Azure all have one
      ['Europe (Ireland)', 'eu-west-1'],
    ];
    for (const [input, want] of cases) assert.equal(normaliseRegion(input)?.code ?? '', want, input);
  });

  test('a place of several clouds is ambiguous alone, one with the cloud named', () => {
    assert.equal(normaliseRegion('Tokyo'), null);
    assert.deepEqual(
      regionCandidates('Tokyo')
        .map((r) => r.code)
        .sort(),
      ['ap-northeast-1', 'asia-northeast1', 'japaneast'],
    );
    assert.equal(normaliseRegion('Tokyo', 'gcp')?.code, 'asia-northeast1');
    assert.equal(normaliseRegion('azure:Tokyo')?.code, 'japaneast');
    assert.equal(normaliseRegion('gcp:us-east-1'), null, 'an AWS code is no Google region');
    assert.equal(normaliseRegion('aws:us-east-1', 'gcp'), null);
  });

  test('no region in near misses, ordinary words and hostile input', () => {
    for (const input of [
      'us-east-10',
      'us-east',
      'us-east-1-',
      'east',
      'virginia',
      '',
      ' ',
      'us-east-1\u0000',
      'a'.repeat(10_000),
      'us_east_1',
      'eastus22',
      'constructor',
      '__proto__',
    ]) {
      assert.equal(normaliseRegion(input), null, JSON.stringify(input.slice(0, 40)));
    }
    assert.equal(normaliseRegion(42 as unknown as string), null);
  });
});

describe('regions named in incident texts', () => {
  test('AWS health dashboard wording', () => {
    const text =
      '[RESOLVED] Increased Error Rates and Latencies. Between 11:49 PM PDT on October 19 and 2:24 AM PDT on October 20, we experienced increased error rates ' +
      'for AWS services in the US-EAST-1 Region. Customers using EC2 instances in use1-az2 and us-east-1a may see delays. DynamoDB endpoints (dynamodb.us-east-1.amazonaws.com) recovered.';
    assert.deepEqual(codes(text), ['us-east-1']);
    const mentions = regionsNamedIn(text).map((m) => m.text);
    assert.deepEqual(mentions, ['US-EAST-1', 'us-east-1a', 'us-east-1']);
  });

  test('display names with parentheses and several regions in one update', () => {
    assert.deepEqual(codes('Elevated API errors in US East (N. Virginia) and Europe (Frankfurt); Asia Pacific (Tokyo) unaffected.'), [
      'ap-northeast-1',
      'eu-central-1',
      'us-east-1',
    ]);
  });

  test('Google Cloud zones and regions, with the longer code winning', () => {
    assert.deepEqual(codes('Cloud SQL instances in us-central1-a and europe-west10 are affected; europe-west1 is fine.'), [
      'europe-west1',
      'europe-west10',
      'us-central1',
    ]);
    assert.deepEqual(codes('Multiple services are impacted in europe-west12.'), ['europe-west12']);
  });

  test('Azure names: "East US 2" is not "East US", "North Central US" is not "Central US"', () => {
    assert.deepEqual(codes('Starting at 14:02 UTC, customers in East US 2 experienced failures.'), ['eastus2']);
    assert.deepEqual(codes('Virtual Machines - North Central US - Mitigated'), ['northcentralus']);
    assert.deepEqual(codes('Storage in East US and West Europe, plus eastus2 via code'), ['eastus', 'eastus2', 'westeurope']);
    assert.deepEqual(codes('West US 3 and West US'), ['westus', 'westus3']);
  });

  test('no hits on ordinary words, lower-case places or codes inside longer tokens', () => {
    const quiet = [
      'We are investigating degraded performance for Actions in the east region of our own network.',
      'A fix for us-east-10 was deployed', // not a real region, and never us-east-1
      'The ohio-based team is looking into it; the Virginia team too.',
      'Paths like /x/us-east-1abc/ and ids like aws-us-east-1-test are not regions',
      'Customers in Mexico and Spain may see delays.', // countries are not read from prose
      'Version 1.2 of the East API; a USB stick; westus-ish text',
      'Central US-based customers',
    ];
    for (const text of quiet) assert.deepEqual(codes(text), [], text);
  });

  test('a place names each region it is the place of', () => {
    assert.deepEqual(codes('Connectivity issues affecting Tokyo'), ['ap-northeast-1', 'asia-northeast1', 'japaneast']);
    assert.deepEqual(codes('Our Iowa data centre'), ['us-central1']);
  });

  test('hostile text: huge, binary, patterned input stays fast and safe', () => {
    const started = performance.now();
    const big = `${'us-east-1 '.repeat(5000)}${'a-'.repeat(200_000)}\u0000East US`;
    assert.ok(regionsNamedIn(big).length >= 5000);
    assert.deepEqual(regionsNamedIn(undefined as unknown as string), []);
    assert.deepEqual(codes('\u0000\u202eus-east-1\u0007'), ['us-east-1']);
    assert.ok(performance.now() - started < 2000);
  });
});
