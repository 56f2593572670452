// The status-page list readers and their merge (docs/catalog.md "How the catalog is
// generated", rules 4 and 5), on small lists written for this test in each list's format.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { CatalogVendor } from '../../../src/domain/records.ts';
import { mergeListed, slugFor } from '../../../scripts/catalog/listed.ts';
import { readMultiStatus, readStatuspile, readStts } from '../../../scripts/catalog/lists.ts';
import { addUnmonitored } from '../../../scripts/catalog/unmonitored.ts';

// stts writes trailing commas; sub-pages of one host become one page.
const stts = `{
  "statuspage": [
    { "name": "Acme", "url": "https://status.acme.example", "id": "abcd1234efgh" },
    { "name": "Openish", "url": "https://status.openish.example/", "id": "01JMDK9XYNY6RXSED6SDWW50WY" },
    { "name": "Badid", "url": "https://status.badid.example", "id": "nope" },
  ],
  "incidentio": [
    { "name": "Chatco - EU Hosting", "url": "https://www.chatcostatus.example/eu-hosting" },
    { "name": "Chatco - US Hosting", "url": "https://www.chatcostatus.example/us-hosting" },
  ],
  "statusiov1": [{ "name": "Iozone", "url": "https://status.iozone.example", "id": "5b6e0963c662144d00913a09" }],
  "betteruptime": [{ "name": "Uptimely", "url": "https://status.uptimely.example" }],
  "statuscast": [{ "name": "Castco", "url": "https://status.castco.example" }],
}`;

const opml = `<?xml version="1.0"?><opml version="2.0"><body>
  <outline text="Email">
    <outline type="rss" text="mailco" xmlUrl="http://status.mailco.example/history.atom"/>
    <outline type="rss" text="rssonly" xmlUrl="https://rssonly.example/feed"/>
  </outline>
  <outline text="Other">
    <outline type="rss" text="castco" xmlUrl="https://status.castco.example/history.atom"/>
  </outline>
</body></opml>`;

const pile = `export default [
  { name: "Oldstat", type: "cachet", url: "http://status.oldstat.example/" },
  { name: "Wrongio", type: "statuspage", url: "https://wrongio.status.io" },
  { name: "Acme", type: "statuspage", url: "https://status.acme.example" },
];`;

const existing: CatalogVendor[] = [
  {
    slug: 'acme',
    name: 'Acme',
    website: 'https://acme.example',
    category: 'devtools',
    description: 'Written by hand.',
    statusPageUrl: 'https://status.acme.example',
    availableDataTypes: [],
    sources: [],
    compliance: { sourceUrl: null, items: [] },
    evidence: [{ key: 'SPH', commit: '8d0ccbb7fd850db0318b0f05d23bb8edb99d6e8e', gave: ['statusPageUrl'] }],
  },
];

test('stts: platforms from the list name and page id, sub-pages folded into their host', () => {
  const pages = readStts(stts);
  const by = new Map(pages.map((p) => [p.name, p]));
  assert.equal(by.get('Acme')!.platform, 'statuspage');
  assert.equal(by.get('Openish')!.platform, 'incidentio-compat', 'a ULID page id is an incident.io page');
  assert.equal(by.get('Openish')!.page, 'https://status.openish.example');
  assert.equal(by.get('Badid')!.platform, null, 'an id that is no Statuspage id evidences nothing');
  assert.equal(by.get('Chatco')!.page, 'https://www.chatcostatus.example');
  assert.equal(by.get('Chatco')!.platform, 'incidentio');
  assert.equal(by.get('Iozone')!.platform, 'statusio');
  assert.equal(by.get('Uptimely')!.platform, 'betterstack');
  assert.equal(by.get('Castco')!.platform, null);
  assert.equal(pages.length, 7);
});

test('multi-status: only Statuspage history feeds, as https, with the heading as category', () => {
  const pages = readMultiStatus(opml);
  assert.deepEqual(
    pages.map((p) => [p.name, p.page, p.endpoint, p.category]),
    [
      ['mailco', 'https://status.mailco.example', 'https://status.mailco.example/history.atom', 'communications'],
      ['castco', 'https://status.castco.example', 'https://status.castco.example/history.atom', null],
    ],
  );
});

test('merge: new entries need a platform; existing ones gain evidence, and a source only when they have none', () => {
  const pages = [...readStts(stts), ...readStatuspile(pile), ...readMultiStatus(opml)];
  const { catalog, report } = mergeListed(existing, pages, []);
  const acme = catalog.find((v) => v.slug === 'acme')!;
  assert.equal(acme.name, 'Acme');
  assert.equal(acme.description, 'Written by hand.');
  assert.deepEqual(
    acme.sources.map((s) => s.url),
    [
      'https://status.acme.example/api/v2/summary.json',
      'https://status.acme.example/api/v2/incidents.json',
      'https://status.acme.example/api/v2/scheduled-maintenances.json',
    ],
  );
  assert.deepEqual(
    acme.evidence!.map((e) => e.key),
    ['SPH', 'STTS', 'PILE'],
  );

  const slugs = catalog.map((v) => v.slug);
  assert.ok(!slugs.includes('badid') && !slugs.includes('wrongio'), 'no platform, or a platform the host contradicts: left out');
  assert.ok(report.skipped.some((s) => s.name === 'Wrongio' && /status\.io/.test(s.why)));
  const chatco = catalog.find((v) => v.slug === 'chatco')!;
  assert.deepEqual(chatco.sources, [{ type: 'incidentio', url: 'https://www.chatcostatus.example/proxy/www.chatcostatus.example' }]);
  const oldstat = catalog.find((v) => v.slug === 'oldstat')!;
  assert.equal(oldstat.statusPageUrl, 'https://status.oldstat.example');
  assert.deepEqual(
    oldstat.sources.map((s) => s.type),
    ['cachet', 'cachet'],
  );
  assert.deepEqual(oldstat.availableDataTypes, ['incidents']);
  // StatusCast (stts) has no adapter, but multi-status evidences its history feed: one entry, both lists cited.
  const castco = catalog.find((v) => v.slug === 'castco')!;
  assert.deepEqual(castco.sources, [{ type: 'statuspage-atom', url: 'https://status.castco.example/history.atom', intervalSeconds: 300 }]);
  assert.deepEqual(castco.evidence!.map((e) => e.key).sort(), ['MULTI', 'STTS']);
  const mailco = catalog.find((v) => v.slug === 'mailco')!;
  assert.equal(mailco.category, 'communications');
  assert.ok(mailco.evidence![0]!.gave.includes('endpoint') && mailco.evidence![0]!.gave.includes('category'));
  for (const v of catalog)
    if (v.sources.length)
      assert.ok(
        v.evidence!.some((e) => e.gave.includes('platform') || e.gave.includes('endpoint')),
        v.slug,
      );

  const again = mergeListed(catalog, pages, []);
  assert.deepEqual(again.catalog, catalog, 'a second run changes nothing');
});

test('a name the catalog holds under another status host is not added twice', () => {
  const { catalog, report } = mergeListed(existing, readStatuspile('{ name: "ACME", type: "statuspage", url: "https://acme.statuspage.io" }'), []);
  assert.equal(catalog.length, 1);
  assert.match(report.skipped[0]!.why, /same name as acme/);
});

test('requested vendors without a pollable platform enter as not monitored; lists that disagree give no source', () => {
  const { catalog, added } = addUnmonitored(existing);
  assert.ok(added.includes('pagerduty') && added.includes('google-workspace'));
  const pd = catalog.find((v) => v.slug === 'pagerduty')!;
  assert.deepEqual([pd.sources, pd.availableDataTypes], [[], []]);
  // statuspile lists PagerDuty as Statuspage; stts reads it as a PagerDuty-hosted page.
  const merged = mergeListed(catalog, readStatuspile('{ name: "PagerDuty", type: "statuspage", url: "https://status.pagerduty.com/" }'), []);
  assert.deepEqual(merged.catalog.find((v) => v.slug === 'pagerduty')!.sources, []);
  assert.equal(addUnmonitored(catalog).added.length, 0, 'added once');
});

test('requested vendors read by an adapter of their own endpoint get that source, with the code that shows it', () => {
  const { catalog } = addUnmonitored(existing);
  const gws = catalog.find((v) => v.slug === 'google-workspace')!;
  assert.deepEqual(gws.sources, [{ type: 'gcp-json', url: 'https://www.google.com/appsstatus/dashboard/incidents.json' }]);
  assert.deepEqual(gws.availableDataTypes, ['incidents']);
  assert.ok(gws.evidence!.some((e) => e.key === 'GWS' && e.gave.includes('endpoint')));
  const civo = catalog.find((v) => v.slug === 'civo')!;
  assert.deepEqual(civo.sources[0]!.type, 'cstate');
  assert.ok(civo.evidence!.some((e) => e.key === 'CSTATE' && e.gave.includes('endpoint')));
  // An entry that has a status source keeps it.
  const withSource = {
    ...catalog.find((v) => v.slug === 'zendesk')!,
    sources: [{ type: 'statuspage-v2' as const, url: 'https://status.zendesk.com/api/v2/summary.json' }],
  };
  const again = addUnmonitored([withSource]).catalog.find((v) => v.slug === 'zendesk')!;
  assert.deepEqual(again.sources, withSource.sources);
});

test('slugs follow the catalog rule', () => {
  assert.equal(slugFor('Runway: App Store Connect'), 'runway-app-store-connect');
  assert.equal(slugFor('Sendbird (North Virginia 2)'), 'sendbird-north-virginia-2');
  assert.equal(slugFor('mastodon.social'), 'mastodon-social');
});
