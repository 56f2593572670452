// The statuswatch reader and the reading of URL-only lists by the host of each page
// (docs/catalog.md "Pages on a platform's own domain"), on small lists written for this
// test in each list's format.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { CatalogVendor } from '../../../src/domain/records.ts';
import { hostedPages, hostedPlatform, readAwesome, readSentryFile } from '../../../scripts/catalog/hosted.ts';
import { mergeListed, withoutLocale } from '../../../scripts/catalog/listed.ts';
import { readStatuswatch } from '../../../scripts/catalog/statuswatch.ts';

const statuswatch = `// Built-in catalog of services.
const CATALOG = {
  'acme': {
    name: 'Acme',
    type: 'statuspage',
    websiteUrl: 'https://acme.example',
    statusPageUrl: 'https://status.acme.example',
    relatedDomains: ['acme.example', '*.acme.example'],
  },
  'chatco': {
    name: 'Chatco',
    type: 'incidentio',
    websiteUrl: 'https://chatco.example',
    statusPageUrl: 'https://www.chatcostatus.example/',
  },
  'iozone': {
    name: 'Iozone',
    type: 'statusio',
    websiteUrl: 'https://iozone.example',
    statusPageUrl: 'https://status.iozone.example',
    pageId: '5b6e0963c662144d00913a09',
  },
  'vaulty': {
    name: 'Vaulty',
    type: 'hund',
    websiteUrl: 'https://vaulty.example',
    statusPageUrl: 'https://status.vaulty.example',
  },
  'zeta': {
    name: 'Zeta',
    type: 'site24x7',
    websiteUrl: 'https://zeta.example',
    statusPageUrl: 'https://status.zeta.example',
  },
  'twin': {
    name: 'Twin Docs',
    type: 'statuspage',
    websiteUrl: 'https://acme.example',
    statusPageUrl: 'https://status.twin.example',
  },
};
module.exports = { CATALOG };`;

test('statuswatch: the type of each page is its platform; bespoke fetchers give none', () => {
  const pages = readStatuswatch(statuswatch);
  assert.deepEqual(
    pages.map((p) => [p.name, p.platform, p.page]),
    [
      ['Acme', 'statuspage', 'https://status.acme.example'],
      ['Chatco', 'incidentio-compat', 'https://www.chatcostatus.example'],
      ['Iozone', 'statusio', 'https://status.iozone.example'],
      ['Vaulty', 'hund', 'https://status.vaulty.example'],
      ['Zeta', null, 'https://status.zeta.example'],
      ['Twin Docs', 'statuspage', 'https://status.twin.example'],
    ],
  );
  assert.equal(pages[0]!.website, 'https://acme.example');
});

test('statuswatch merge: new entries take the list website; a website the catalog holds is the same vendor', () => {
  const { catalog, report } = mergeListed([], readStatuswatch(statuswatch), []);
  const by = new Map(catalog.map((v) => [v.slug, v]));
  assert.deepEqual(by.get('chatco')!.sources, [{ type: 'incidentio', url: 'https://www.chatcostatus.example/api/v2/summary.json' }]);
  assert.deepEqual(by.get('iozone')!.sources, [{ type: 'statusio', url: 'https://api.status.io/1.0/status/5b6e0963c662144d00913a09' }]);
  assert.deepEqual(by.get('vaulty')!.sources, [{ type: 'hund', url: 'https://status.vaulty.example/live/v2/status_page' }]);
  assert.deepEqual(by.get('vaulty')!.availableDataTypes, ['incidents']);
  assert.equal(by.get('acme')!.website, 'https://acme.example');
  assert.ok(by.get('acme')!.evidence![0]!.gave.includes('website'));
  assert.ok(!by.has('zeta'), 'no adapter for its platform: left out');
  assert.ok(!by.has('twin-docs'), 'the website of acme on another status host: left out');
  assert.ok(report.skipped.some((s) => s.name === 'Twin Docs' && /same website as acme/.test(s.why)));
  assert.deepEqual(mergeListed(catalog, readStatuswatch(statuswatch), []).catalog, catalog, 'a second run changes nothing');
});

test('a page evidences its platform by its host: one label under a platform hosting domain', () => {
  assert.equal(hostedPlatform('https://acme.statuspage.io'), 'statuspage');
  assert.equal(hostedPlatform('https://acme.instatus.com'), 'instatus');
  assert.equal(hostedPlatform('https://acme.betteruptime.com'), 'betterstack');
  assert.equal(hostedPlatform('https://acme.statuspal.eu'), 'statuspal');
  assert.equal(hostedPlatform('https://acme.hund.io'), 'hund');
  assert.equal(hostedPlatform('https://status.incident.io'), 'incidentio');
  // The vendor's own domain, the platform's site, a deeper name, a status.io page (no page id).
  for (const url of [
    'https://status.acme.example',
    'https://www.statuspage.io',
    'https://a.b.statuspage.io',
    'https://acme.status.io',
    'https://statuspage.io',
  ])
    assert.equal(hostedPlatform(url), null, url);
});

test('URL-only lists: only their hosted pages, once each, at the host', () => {
  const sentry = readSentryFile(
    'export const name = "Acme";\n\nexport const statusPageUrl = "https://acme.statuspage.io/";\n\nexport const domains = ["acme.example"];',
  );
  assert.deepEqual(sentry, { name: 'Acme', url: 'https://acme.statuspage.io/' });
  const awesome = readAwesome(
    '## Public status pages\n* [Acme](https://acme.statuspage.io/history) - Acme status\n* [Own](https://status.own.example) - own domain\n- [Pal](https://pal.statuspal.io) - Pal\n',
  );
  assert.equal(awesome.length, 3);
  const pages = hostedPages('AWESOME', 'a'.repeat(40), [...awesome, sentry!]);
  assert.deepEqual(
    pages.map((p) => [p.name, p.page, p.platform]),
    [
      ['Acme', 'https://acme.statuspage.io', 'statuspage'],
      ['Pal', 'https://pal.statuspal.io', 'statuspal'],
    ],
  );
  const existing: CatalogVendor[] = [];
  const { catalog } = mergeListed(existing, pages, []);
  const pal = catalog.find((v) => v.slug === 'pal')!;
  assert.deepEqual(pal.sources, [{ type: 'statuspal', url: 'https://statuspal.io/api/v2/status_pages/pal/summary' }]);
  assert.deepEqual(pal.evidence, [{ key: 'AWESOME', commit: 'a'.repeat(40), gave: ['platform', 'statusPageUrl', 'name'] }]);
  // A hosted page says nothing about the vendor's homepage: the page itself stands in.
  assert.equal(pal.website, 'https://pal.statuspal.io');
});

test("a new entry's homepage drops a locale path", () => {
  assert.equal(withoutLocale('https://www.acme.example/fr'), 'https://www.acme.example');
  assert.equal(withoutLocale('https://www.acme.example/en-gb'), 'https://www.acme.example');
  assert.equal(withoutLocale('https://www.acme.example/products'), 'https://www.acme.example/products');
});
