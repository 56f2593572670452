import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { errorHintsIn, hostIndex, hostsIn, isCatalogHost, type VendorReport, vendorsOfHost, verdictOf } from '../../../src/domain/diagnose.ts';

const index = hostIndex([
  { slug: 'amazon-web-services', name: 'AWS', listed: ['amazonaws.com', 'cloudfront.net'], derived: ['aws.amazon.com'] },
  { slug: 'stripe', name: 'Stripe', listed: ['stripe.com'], derived: ['stripe.com'] },
  { slug: 'github', name: 'GitHub', listed: ['github.com', 'githubusercontent.com'], derived: ['github.com', 'githubstatus.com'] },
  // Two products on one website: a derived host shared by both.
  { slug: 'twilio', name: 'Twilio', listed: [], derived: ['twilio.com'] },
  { slug: 'segment', name: 'Segment', listed: [], derived: ['twilio.com'] },
]);
const report = (vendor: string, over: Partial<VendorReport> = {}): VendorReport => ({ vendor, incidents: [], maintenance: [], observed: true, ...over });

describe('diagnose: hosts in free text', () => {
  test('error messages, URLs, ports, user@host, several hosts in order', () => {
    assert.deepEqual(hostsIn('ECONNRESET api.stripe.com'), ['api.stripe.com']);
    assert.deepEqual(hostsIn('502 Bad Gateway from github.com'), ['github.com']);
    assert.deepEqual(hostsIn('GET https://S3.US-EAST-1.amazonaws.com/bucket/key?x=1 failed: 503 Slow Down'), ['s3.us-east-1.amazonaws.com']);
    assert.deepEqual(hostsIn('connect ETIMEDOUT api.stripe.com:443'), ['api.stripe.com']);
    assert.deepEqual(hostsIn('git@github.com: Permission denied, then raw.githubusercontent.com'), ['github.com', 'raw.githubusercontent.com']);
    assert.deepEqual(hostsIn('api.stripe.com api.stripe.com'), ['api.stripe.com']);
  });

  test('IP addresses, file names and plain words are not hosts', () => {
    assert.deepEqual(hostsIn('connect ECONNREFUSED 10.0.0.1:5432'), []);
    assert.deepEqual(hostsIn('at Object.<anonymous> (/app/index.js:12:5) in package.json'), []);
    assert.deepEqual(hostsIn('checkout-api is slow'), []);
    assert.deepEqual(hostsIn(''), []);
  });

  test('the input is read up to 2,000 characters, so a long line costs no more', () => {
    assert.deepEqual(hostsIn(`${'x'.repeat(2000)} api.stripe.com`), []);
    const started = process.hrtime.bigint();
    hostsIn(`${'a.'.repeat(50_000)}`);
    assert.ok(process.hrtime.bigint() - started < 1_000_000_000n);
  });

  test('catalog hosts: lower-case DNS names only', () => {
    assert.ok(isCatalogHost('api.github.com'));
    for (const bad of ['GitHub.com', 'github', 'https://github.com', 'github.com/x', '-a.com', 'a..com', '10.0.0.1', 'a.com '])
      assert.equal(isCatalogHost(bad), false, bad);
  });
});

describe('diagnose: error kinds', () => {
  test('DNS, connection, timeout, TLS, server error, rate limit', () => {
    const kinds = (s: string) => errorHintsIn(s).map((h) => h.kind);
    assert.deepEqual(kinds('getaddrinfo ENOTFOUND api.stripe.com'), ['dns']);
    assert.deepEqual(kinds('read ECONNRESET'), ['connection']);
    assert.deepEqual(kinds('connect ETIMEDOUT 1.2.3.4:443'), ['timeout']);
    assert.deepEqual(kinds('Error: certificate has expired'), ['tls']);
    assert.deepEqual(kinds('502 Bad Gateway'), ['server_error']);
    assert.deepEqual(kinds('HTTP 429 Too Many Requests'), ['rate_limited']);
    assert.deepEqual(kinds('port 5000 and 4040'), []);
  });
});

describe('diagnose: vendor of a host', () => {
  test('the longest catalog host that is the host or a parent of it', () => {
    assert.deepEqual(
      vendorsOfHost(index, 's3.us-east-1.amazonaws.com').map((m) => [m.vendor, m.matched, m.strength]),
      [['amazon-web-services', 'amazonaws.com', 'listed']],
    );
    assert.deepEqual(
      vendorsOfHost(index, 'github.com').map((m) => [m.vendor, m.strength]),
      [['github', 'listed']],
    );
    assert.deepEqual(vendorsOfHost(index, 'notstripe.com'), []);
    assert.deepEqual(vendorsOfHost(index, 'stripe.com.evil.example'), []);
    assert.deepEqual(vendorsOfHost(index, 'example.org'), []);
  });

  test('a derived host shared by two vendors names both', () => {
    assert.deepEqual(
      vendorsOfHost(index, 'api.twilio.com').map((m) => m.vendor),
      ['twilio', 'segment'],
    );
  });
});

describe('diagnose: verdict', () => {
  const stripe = vendorsOfHost(index, 'api.stripe.com');
  test('an open incident of the vendor: them, high with a server-side error', () => {
    const r = verdictOf(
      stripe,
      [report('stripe', { incidents: [{ id: 'i', title: 'Elevated API errors', impact: 'major', components: [] }] })],
      errorHintsIn('ECONNRESET'),
    );
    assert.equal(r.verdict, 'vendor_incident');
    assert.equal(r.confidence, 'high');
    assert.match(r.summary, /Elevated API errors/);
  });

  test('an open incident and only a client error named: medium', () => {
    const r = verdictOf(
      stripe,
      [report('stripe', { incidents: [{ id: 'i', title: 'Dashboard slow', impact: 'minor', components: [] }] })],
      errorHintsIn('401 Unauthorized'),
    );
    assert.equal(r.confidence, 'medium');
  });

  test('maintenance in progress: medium', () => {
    const r = verdictOf(stripe, [report('stripe', { maintenance: [{ id: 'm', title: 'Dashboard maintenance', components: [] }] })], []);
    assert.deepEqual([r.verdict, r.confidence], ['vendor_maintenance', 'medium']);
  });

  test('nothing reported is never "us" with high confidence: vendor pages lag', () => {
    const quiet = verdictOf(stripe, [report('stripe')], errorHintsIn('502 Bad Gateway'));
    assert.deepEqual([quiet.verdict, quiet.confidence], ['vendor_reports_no_problem', 'low']);
    assert.match(quiet.summary, /lag/);
    const clientSide = verdictOf(stripe, [report('stripe')], errorHintsIn('401 Unauthorized'));
    assert.equal(clientSide.confidence, 'medium');
  });

  test('a vendor whose page was never read: unknown, low', () => {
    const r = verdictOf(stripe, [report('stripe', { observed: false })], []);
    assert.equal(r.confidence, 'low');
    assert.match(r.summary, /not been read/);
  });

  test('no vendor, several vendors', () => {
    assert.equal(verdictOf([], [], []).verdict, 'no_vendor_matches');
    const both = vendorsOfHost(index, 'api.twilio.com');
    assert.equal(verdictOf(both, [report('twilio'), report('segment')], []).verdict, 'several_vendors');
    const oneOpen = verdictOf(
      both,
      [report('twilio'), report('segment', { incidents: [{ id: 's', title: 'Event delivery delayed', impact: 'minor', components: ['Destinations'] }] })],
      [],
    );
    assert.equal(oneOpen.verdict, 'vendor_incident');
    assert.match(oneOpen.summary, /Segment/);
  });
});
