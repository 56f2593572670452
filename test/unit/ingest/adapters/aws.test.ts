import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { AdapterError } from '../../../../src/ingest/adapters/adapter.ts';
import { awsCurrentEventsAdapter, awsImpact, awsRssAdapter } from '../../../../src/ingest/adapters/aws.ts';
import { countBy, fixture, input, parseFixture } from './helpers.ts';

describe('aws currentevents (UTF-16 JSON)', () => {
  test('2026-08-01: two open multi-service events, decoded from UTF-16 BE', (t) => {
    const s = parseFixture(t, 'aws/currentevents-2026-08-01.json');
    if (!s) return;
    assert.equal(s.incidentsAreCompleteUnresolvedSet, true);
    assert.deepEqual(
      s.incidents!.map((i) => [i.id, i.status, i.sourceStatus, i.impact, i.startedAt, i.updatedAt, i.components.length, i.updates.length]),
      [
        ['aws:multipleservices-me-central-1_1772369485', 'investigating', '3', 'critical', '2026-03-01T12:51:25.000Z', '2026-04-30T07:25:54.000Z', 140, 23],
        ['aws:multipleservices-me-south-1_1772430987', 'investigating', '3', 'critical', '2026-03-02T05:56:27.000Z', '2026-04-30T07:07:11.000Z', 149, 13],
      ],
    );
    const uae = s.incidents![0]!;
    assert.equal(uae.title, 'Increased Error Rates');
    // One component per impacted service in its own region (the key's suffix), global ones untagged.
    assert.equal(uae.components[0], 'Amazon CloudWatch Synthetics (me-central-1)');
    assert.ok(uae.components.includes('Amazon Elastic Compute Cloud (me-central-1)'));
    assert.ok(uae.components.includes('Amazon Route 53'), 'a global service keeps its name alone');
    assert.ok(!uae.components.some((c) => c.includes('(UAE)')));
    assert.ok(uae.updates.at(-1)!.body.startsWith('We are investigating issues'));
    assert.equal(uae.updates.at(-1)!.createdAt, '2026-03-01T12:51:25.000Z');
  });

  test('the same events re-encoded as UTF-8 or UTF-16 LE parse identically', (t) => {
    const body = fixture(t, 'aws/currentevents-2026-08-01.json');
    if (!body) return;
    const text = new TextDecoder('utf-16be').decode(body);
    const reference = awsCurrentEventsAdapter.parse(input('aws', 'https://health.aws.amazon.com/public/currentevents', body));
    const utf8 = awsCurrentEventsAdapter.parse(input('aws', 'https://health.aws.amazon.com/public/currentevents', Buffer.from(text, 'utf8')));
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    const utf16le = awsCurrentEventsAdapter.parse(input('aws', 'https://health.aws.amazon.com/public/currentevents', le));
    assert.deepEqual(utf8, reference);
    assert.deepEqual(utf16le, reference);
  });

  test('status "0" is a resolved event', () => {
    const body = [
      {
        date: '1767261600',
        status: '0',
        service: 'ec2-eu-west-1',
        service_name: 'Amazon EC2',
        region_name: 'Ireland',
        summary: 'Instance launch errors',
        event_log: [
          { status: 2, timestamp: 1767261600, message: 'Investigating.' },
          { status: 0, timestamp: 1767265200, message: 'Resolved.' },
        ],
      },
    ];
    const [i] = awsCurrentEventsAdapter.parse(input('aws', 'https://health.aws.amazon.com/public/currentevents', JSON.stringify(body))).incidents!;
    assert.equal(i!.status, 'resolved');
    assert.equal(i!.impact, 'major');
    assert.equal(i!.resolvedAt, '2026-01-01T11:00:00.000Z');
    assert.deepEqual(i!.components, ['Amazon EC2 (eu-west-1)']);
    assert.deepEqual(
      i!.updates.map((u) => u.status),
      ['resolved', 'investigating'],
    );
  });
});

describe('aws legacy data.json', () => {
  test('2022-07-03: 86 archived events, severity codes 1/2/3, HTML logs split into updates', (t) => {
    const s = parseFixture(t, 'aws/data-2022-07-03.json');
    if (!s) return;
    const incidents = s.incidents!;
    assert.equal(incidents.length, 86);
    assert.deepEqual(
      countBy(incidents, (i) => i.status),
      { resolved: 86 },
    );
    assert.deepEqual(
      countBy(incidents, (i) => i.impact),
      { minor: 72, major: 11, critical: 3 },
    );
    assert.deepEqual(
      countBy(incidents, (i) => i.sourceStatus),
      { '1': 72, '2': 11, '3': 3 },
    );

    const acm = incidents.find((i) => i.id === 'aws:certificatemanager-us-east-1_1624993969')!;
    assert.equal(acm.title, 'Increased API Error Rates and Latency', '[RESOLVED] prefix removed');
    assert.deepEqual(acm.components, ['AWS Certificate Manager (us-east-1)'], 'the place AWS appends becomes the region tag');
    assert.equal(acm.impact, 'critical');
    assert.equal(acm.startedAt, '2021-06-29T19:12:49.000Z');
    assert.equal(acm.updates.length, 10);
    // 12:12 PM PDT ... 7:46 PM PDT: the log crosses midnight UTC.
    assert.equal(acm.updates.at(-1)!.createdAt, '2021-06-29T19:12:49.000Z');
    assert.equal(acm.updates[0]!.createdAt, '2021-06-30T02:46:00.000Z');
    assert.equal(acm.updates[0]!.status, 'resolved');
    assert.equal(acm.resolvedAt, '2021-06-30T02:46:00.000Z');
    // The &nbsp; after the time stamp is gone; the text starts with the message itself.
    assert.ok(acm.updates.at(-1)!.body.startsWith('We are investigating increased API latency'));

    // A later line stamped "Sep 6, 8:25 PM PDT" carries its own date.
    const dx = incidents.find((i) => i.id === 'aws:directconnect-ap-northeast-1_1630543140')!;
    assert.equal(dx.updates[0]!.createdAt, '2021-09-07T03:25:00.000Z');
    assert.equal(dx.updates.length, 8);
  });
});

describe('aws legacy RSS', () => {
  test('2021-12-20: two items of one event chained into one incident', (t) => {
    const s = parseFixture(t, 'aws/rss-all-2021-12-20.rss');
    if (!s) return;
    assert.deepEqual(s.incidents, [
      {
        id: 'aws:internetconnectivity-us-gov-west-1_1639584617',
        vendor: 'aws',
        title: 'Internet Connectivity',
        status: 'resolved',
        sourceStatus: 'Service is operating normally',
        impact: 'minor',
        startedAt: '2021-12-15T16:10:17.000Z',
        updatedAt: '2021-12-15T20:16:32.000Z',
        resolvedAt: '2021-12-15T16:10:17.000Z',
        components: ['internetconnectivity (us-gov-west-1)'],
        updates: s.incidents![0]!.updates,
        url: 'http://status.aws.amazon.com/',
        source: 'aws-rss',
      },
    ]);
    assert.deepEqual(
      s.incidents![0]!.updates.map((u) => [u.status, u.createdAt]),
      [
        ['resolved', '2021-12-15T20:16:32.000Z'],
        ['resolved', '2021-12-15T16:10:17.000Z'],
      ],
    );
  });

  test('grouping: one chain per service and event, a quiet gap or a new title after resolution starts another', () => {
    const item = (key: string, epoch: number, title: string, text: string) => `
      <item><title>${title}</title><link>https://status.aws.amazon.com/</link>
      <pubDate>${new Date(epoch * 1000).toUTCString()}</pubDate>
      <guid isPermaLink="false">https://status.aws.amazon.com/#${key}_${epoch}</guid>
      <description>${text}</description></item>`;
    const t0 = 1767520800; // 2026-01-04T10:00:00Z
    const feed = `<?xml version="1.0"?><rss version="2.0"><channel><title>AWS</title><link>https://status.aws.amazon.com/</link>
      ${item('lambda-us-east-1', t0 + 7200, 'Service is operating normally: [RESOLVED] Invoke errors', 'Fixed.')}
      ${item('lambda-us-east-1', t0 + 3600, 'Performance issues: Invoke errors', 'Mitigating.')}
      ${item('lambda-us-east-1', t0, 'Informational message: Invoke errors', 'Looking.')}
      ${item('s3-us-east-1', t0 + 600, 'Service disruption: Elevated errors', 'Down.')}
      ${item('lambda-us-east-1', t0 + 9000, 'Informational message: Slow cold starts', 'New issue.')}
      ${item('lambda-us-east-1', t0 + 200000, 'Informational message: Slow cold starts', 'Much later.')}
    </channel></rss>`;
    const s = awsRssAdapter.parse(input('aws', 'https://status.aws.amazon.com/rss/all.rss', feed));
    assert.deepEqual(
      s.incidents!.map((i) => [i.id, i.title, i.status, i.impact, i.updates.length]),
      [
        ['aws:lambda-us-east-1_1767720800', 'Slow cold starts', 'investigating', 'minor', 1],
        ['aws:lambda-us-east-1_1767529800', 'Slow cold starts', 'investigating', 'minor', 1],
        ['aws:s3-us-east-1_1767521400', 'Elevated errors', 'investigating', 'critical', 1],
        ['aws:lambda-us-east-1_1767520800', 'Invoke errors', 'resolved', 'major', 3],
      ],
    );
    assert.equal(s.incidents![3]!.resolvedAt, '2026-01-04T12:00:00.000Z');
  });

  test('status codes', () => {
    assert.deepEqual(['0', '1', '2', '3', 'x'].map(awsImpact), ['none', 'minor', 'major', 'critical', 'none']);
  });

  test('a JSON body that is neither shape is refused', () => {
    assert.throws(
      () => awsCurrentEventsAdapter.parse(input('aws', 'https://x/', '{"events": []}')),
      (e: unknown) => e instanceof AdapterError && /currentevents array or the legacy/.test(e.message),
    );
  });
});
