// Advisory feeds written for these tests (invented vendor and text), one per format.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { advisoryFeedAdapter, extractCves, inferSeverity } from '../../../../src/ingest/adapters/advisory-feed.ts';
import { assertSnapshotInvariants, input } from './helpers.ts';

const RSS = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0">
  <channel>
    <title>Acme Cloud Security Bulletins</title>
    <link>https://security.acme.test/</link>
    <description>Security bulletins for Acme Cloud</description>
    <item>
      <title>ACME-SB-2026-004: Token leak in the CLI debug log</title>
      <link>https://security.acme.test/bulletins/2026-004</link>
      <guid isPermaLink="false">ACME-SB-2026-004</guid>
      <pubDate>Tue, 03 Mar 2026 15:00:00 GMT</pubDate>
      <description>&lt;p&gt;The &lt;code&gt;acme&lt;/code&gt; CLI wrote access tokens to its debug log (CVE-2026-31001). CVSS v3.1 base score: 9.1. Upgrade to 4.2.1.&lt;/p&gt;</description>
    </item>
    <item>
      <title>ACME-SB-2026-003: Open redirect on the sign-in page</title>
      <link>https://security.acme.test/bulletins/2026-003</link>
      <guid isPermaLink="false">ACME-SB-2026-003</guid>
      <pubDate>Mon, 16 Feb 2026 09:30:00 GMT</pubDate>
      <category>Severity: Low</category>
      <description>A crafted link could send users to another site after sign-in. Tracked as cve-2026-30999 and CVE-2026-30999.</description>
    </item>
  </channel>
</rss>`;

const ATOM = `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <id>urn:acme:advisories</id>
  <title>Acme Database Advisories</title>
  <updated>2026-04-02T12:00:00Z</updated>
  <link href="https://db.acme.test/advisories"/>
  <entry>
    <id>urn:acme:advisory:ADB-77</id>
    <title>Important: replica promotion can skip WAL segments</title>
    <link rel="alternate" href="https://db.acme.test/advisories/ADB-77"/>
    <published>2026-04-01T08:00:00Z</published>
    <updated>2026-04-02T12:00:00Z</updated>
    <summary type="html">&lt;p&gt;Under load a promoted replica may miss writes. Fixed in 15.3.&lt;/p&gt;</summary>
  </entry>
  <entry>
    <id>urn:acme:advisory:ADB-76</id>
    <title>Connection pooler hardening</title>
    <link rel="alternate" href="https://db.acme.test/advisories/ADB-76"/>
    <updated>2026-03-20T10:00:00Z</updated>
    <summary>Defensive changes to the pooler. No known exploitation.</summary>
  </entry>
</feed>`;

const JSON_FEED = JSON.stringify({
  version: 'https://jsonfeed.org/version/1.1',
  title: 'Acme Edge advisories',
  home_page_url: 'https://edge.acme.test/security',
  items: [
    {
      id: 'EDGE-2026-01',
      url: 'https://edge.acme.test/security/EDGE-2026-01',
      title: 'Cache poisoning via duplicate Host headers',
      content_text: 'Requests with two Host headers could be cached under the wrong key. Severity: critical. CVE-2026-40010.',
      date_published: '2026-05-05T00:00:00Z',
      tags: ['cache', 'CVE-2026-40011'],
    },
  ],
});

describe('advisory feeds', () => {
  test('RSS: CVSS score and labelled severity, CVE ids de-duplicated', () => {
    const s = advisoryFeedAdapter.parse(input('acme', 'https://security.acme.test/feed.rss', RSS));
    assertSnapshotInvariants(s, 'acme', 'advisory-feed');
    assert.deepEqual(s.advisories, [
      {
        id: 'acme:ACME-SB-2026-004',
        vendor: 'acme',
        title: 'ACME-SB-2026-004: Token leak in the CLI debug log',
        severity: 'critical',
        cves: ['CVE-2026-31001'],
        publishedAt: '2026-03-03T15:00:00.000Z',
        updatedAt: '2026-03-03T15:00:00.000Z',
        summary: 'The acme CLI wrote access tokens to its debug log (CVE-2026-31001). CVSS v3.1 base score: 9.1. Upgrade to 4.2.1.',
        url: 'https://security.acme.test/bulletins/2026-004',
        source: 'advisory-feed',
      },
      {
        id: 'acme:ACME-SB-2026-003',
        vendor: 'acme',
        title: 'ACME-SB-2026-003: Open redirect on the sign-in page',
        severity: 'low',
        cves: ['CVE-2026-30999'],
        publishedAt: '2026-02-16T09:30:00.000Z',
        updatedAt: '2026-02-16T09:30:00.000Z',
        summary: 'A crafted link could send users to another site after sign-in. Tracked as cve-2026-30999 and CVE-2026-30999.',
        url: 'https://security.acme.test/bulletins/2026-003',
        source: 'advisory-feed',
      },
    ]);
  });

  test('Atom: title keyword, default medium, updated date, id from <id>', () => {
    const s = advisoryFeedAdapter.parse(input('acmedb', 'https://db.acme.test/advisories.atom', ATOM));
    assert.deepEqual(
      s.advisories!.map((a) => [a.id, a.severity, a.publishedAt, a.updatedAt, a.summary, a.cves.length]),
      [
        [
          'acmedb:urn:acme:advisory:ADB-77',
          'high',
          '2026-04-01T08:00:00.000Z',
          '2026-04-02T12:00:00.000Z',
          'Under load a promoted replica may miss writes. Fixed in 15.3.',
          0,
        ],
        [
          'acmedb:urn:acme:advisory:ADB-76',
          'medium',
          '2026-03-20T10:00:00.000Z',
          '2026-03-20T10:00:00.000Z',
          'Defensive changes to the pooler. No known exploitation.',
          0,
        ],
      ],
    );
  });

  test('JSON Feed: severity from text, CVEs from text and tags', () => {
    const s = advisoryFeedAdapter.parse(input('acmeedge', 'https://edge.acme.test/security/feed.json', JSON_FEED));
    const [a] = s.advisories!;
    assert.equal(a!.id, 'acmeedge:EDGE-2026-01');
    assert.equal(a!.severity, 'critical');
    assert.deepEqual(a!.cves, ['CVE-2026-40010', 'CVE-2026-40011']);
    assert.equal(a!.url, 'https://edge.acme.test/security/EDGE-2026-01');
  });

  test('severity inference order', () => {
    assert.equal(inferSeverity('Kernel update', 'Severity: Moderate. CVSS 9.8'), 'medium', 'an explicit label beats the score');
    assert.equal(inferSeverity('Kernel update', 'CVSS score of 7.5'), 'high');
    assert.equal(inferSeverity('Kernel update', 'CVSSv3 4.0'), 'medium');
    assert.equal(inferSeverity('Kernel update', 'CVSS 2.1'), 'low');
    assert.equal(inferSeverity('Kernel update', 'vector CVSS:3.1/AV:N/AC:L'), 'medium', 'a vector is not a score');
    assert.equal(inferSeverity('Critical: kernel update', 'Fixes a bug.'), 'critical');
    assert.equal(inferSeverity('Kernel update', 'Only affects high-latency links.'), 'medium', 'bare words in the body are not severities');
    assert.equal(inferSeverity('Kernel update', 'This is a high severity issue.'), 'high');
    assert.deepEqual(extractCves('CVE-2026-1234 and cve-2026-1234', 'CVE-2025-1234567'), ['CVE-2026-1234', 'CVE-2025-1234567']);
  });
});
