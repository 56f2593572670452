// Release-note feeds written for these tests (invented product and text).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { AdapterError } from '../../../../src/ingest/adapters/adapter.ts';
import { releaseFeedAdapter } from '../../../../src/ingest/adapters/release-feed.ts';
import { assertSnapshotInvariants, input } from './helpers.ts';

const RSS = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/">
  <channel>
    <title>Acme Queue changelog</title>
    <link>https://queue.acme.test/changelog</link>
    <description>What changed in Acme Queue</description>
    <item>
      <title>Dead-letter queues are generally available</title>
      <link>https://queue.acme.test/changelog/dlq-ga</link>
      <guid>https://queue.acme.test/changelog/dlq-ga</guid>
      <pubDate>Wed, 11 Mar 2026 17:00:00 +0000</pubDate>
      <category>Feature</category>
      <category domain="product">Queues</category>
      <category>Feature</category>
      <description><![CDATA[<p>Failed messages can now be routed to a <strong>dead-letter queue</strong>.</p>]]></description>
      <content:encoded><![CDATA[<p>Failed messages can now be routed to a dead-letter queue. Long explanation follows.</p>]]></content:encoded>
    </item>
    <item>
      <title>Deprecating the v1 polling API</title>
      <link>https://queue.acme.test/changelog/v1-deprecation</link>
      <pubDate>Mon, 02 Mar 2026 12:00:00 +0000</pubDate>
      <description>The v1 polling API stops on 2026-09-01.</description>
    </item>
  </channel>
</rss>`;

const ATOM = `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <id>tag:acme.test,2026:changelog</id>
  <title>Acme Functions releases</title>
  <updated>2026-02-01T00:00:00Z</updated>
  <entry>
    <id>tag:acme.test,2026:release/3.4.0</id>
    <title type="text">Functions 3.4.0</title>
    <updated>2026-02-01T00:00:00Z</updated>
    <category term="runtime" label="Runtime"/>
    <category term="nodejs"/>
    <content type="html">&lt;ul&gt;&lt;li&gt;Node 22 runtime&lt;/li&gt;&lt;li&gt;Faster cold starts&lt;/li&gt;&lt;/ul&gt;</content>
  </entry>
</feed>`;

describe('release feeds', () => {
  test('RSS: categories de-duplicated, summary from the description, guid as id', () => {
    const s = releaseFeedAdapter.parse(input('acmequeue', 'https://queue.acme.test/changelog.rss', RSS));
    assertSnapshotInvariants(s, 'acmequeue', 'release-feed');
    assert.deepEqual(s.updates, [
      {
        id: 'acmequeue:https://queue.acme.test/changelog/dlq-ga',
        vendor: 'acmequeue',
        title: 'Dead-letter queues are generally available',
        publishedAt: '2026-03-11T17:00:00.000Z',
        summary: 'Failed messages can now be routed to a dead-letter queue.',
        categories: ['Feature', 'Queues'],
        url: 'https://queue.acme.test/changelog/dlq-ga',
        source: 'release-feed',
      },
      {
        id: 'acmequeue:https://queue.acme.test/changelog/v1-deprecation',
        vendor: 'acmequeue',
        title: 'Deprecating the v1 polling API',
        publishedAt: '2026-03-02T12:00:00.000Z',
        summary: 'The v1 polling API stops on 2026-09-01.',
        categories: [],
        url: 'https://queue.acme.test/changelog/v1-deprecation',
        source: 'release-feed',
      },
    ]);
  });

  test('Atom: category terms, updated as the date when published is absent', () => {
    const s = releaseFeedAdapter.parse(input('acmefn', 'https://fn.acme.test/releases.atom', ATOM));
    assert.deepEqual(
      s.updates!.map((u) => [u.id, u.title, u.publishedAt, u.summary, u.categories, u.url]),
      [
        [
          'acmefn:tag:acme.test,2026:release/3.4.0',
          'Functions 3.4.0',
          '2026-02-01T00:00:00.000Z',
          'Node 22 runtime Faster cold starts',
          ['runtime', 'nodejs'],
          null,
        ],
      ],
    );
  });

  test('JSON Feed: tags are categories; long text is shortened at a word boundary', () => {
    const long = `${'Many small improvements. '.repeat(60)}End.`;
    const feed = JSON.stringify({
      version: 'https://jsonfeed.org/version/1',
      title: 'Acme CLI',
      items: [
        {
          id: 42,
          url: 'https://cli.acme.test/r/42',
          title: 'CLI 42',
          content_text: long,
          date_published: '2026-01-15T10:00:00+01:00',
          tags: ['cli', ' cli ', 'fix'],
        },
      ],
    });
    const [u] = releaseFeedAdapter.parse(input('acmecli', 'https://cli.acme.test/feed.json', feed)).updates!;
    assert.equal(u!.id, 'acmecli:42');
    assert.equal(u!.publishedAt, '2026-01-15T09:00:00.000Z');
    assert.deepEqual(u!.categories, ['cli', 'fix']);
    assert.ok(u!.summary.length <= 1000 && u!.summary.endsWith('…'));
  });

  test('an entry without any date is refused with its id in the message', () => {
    const feed = '<rss version="2.0"><channel><title>x</title><item><title>No date</title><guid>rel-1</guid></item></channel></rss>';
    assert.throws(
      () => releaseFeedAdapter.parse(input('x', 'https://x/feed', feed)),
      (e: unknown) => e instanceof AdapterError && e.message.includes('entry rel-1 published'),
    );
  });
});
