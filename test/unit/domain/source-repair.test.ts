import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { pageNameOf } from '../../../src/domain/platform-detect.ts';
import type { CatalogVendor } from '../../../src/domain/records.ts';
import { applyRepairs, judgeFinding, keepsPageName, normalisedName, vendorNeedsRepair } from '../../../src/domain/source-repair.ts';

// The rules of self-healing (docs/catalog.md "Self-healing").

const NOW = new Date('2026-11-20T12:00:00Z');
const hoursAgo = (h: number) => new Date(NOW.getTime() - h * 3_600_000).toISOString();
const failing = (type: string, n: number, since: string | null) => ({
  type,
  url: `https://status.acme.com/${type}`,
  consecutiveFailures: n,
  lastSuccessAt: null,
  failingSince: since,
});

describe('when a vendor needs a repair', () => {
  test('every status source failing 10 polls in a row for 6 hours', () => {
    assert.equal(vendorNeedsRepair([failing('statuspage-v2', 10, hoursAgo(6)), failing('statuspage-v2', 40, hoursAgo(30))], NOW), true);
  });
  test('not when one status source still answers, the run is short, or too few polls failed', () => {
    assert.equal(
      vendorNeedsRepair([failing('statuspage-v2', 10, hoursAgo(7)), { ...failing('statuspage-v2', 0, null), lastSuccessAt: hoursAgo(0) }], NOW),
      false,
    );
    assert.equal(vendorNeedsRepair([failing('statuspage-v2', 50, hoursAgo(5.9))], NOW), false);
    assert.equal(vendorNeedsRepair([failing('statuspage-v2', 9, hoursAgo(24))], NOW), false);
  });
  test('feeds are not the status page: a failing advisory feed alone repairs nothing', () => {
    assert.equal(vendorNeedsRepair([failing('advisory-feed', 100, hoursAgo(48))], NOW), false);
    assert.equal(vendorNeedsRepair([failing('advisory-feed', 0, null), failing('instatus', 12, hoursAgo(8))], NOW), true);
  });
  test('no failing-since date (never failed, or an unreadable one) is never broken', () => {
    assert.equal(vendorNeedsRepair([failing('statuspage-v2', 20, null)], NOW), false);
    assert.equal(vendorNeedsRepair([failing('statuspage-v2', 20, 'garbage')], NOW), false);
    assert.equal(vendorNeedsRepair([], NOW), false);
  });
});

describe('page names', () => {
  test('the words every status page adds do not count', () => {
    assert.equal(normalisedName('GitHub Status'), 'github');
    assert.equal(normalisedName('  The Perplexity status page '), 'perplexity');
    assert.equal(normalisedName('Zürich Systems GmbH'), 'zurich');
    assert.equal(keepsPageName('Hugging Face', 'Hugging Face Status'), true);
    assert.equal(keepsPageName('Globex', 'Hugging Face'), false);
    assert.equal(keepsPageName('Globex', null), false);
    // A name made only of filler words identifies nobody.
    assert.equal(keepsPageName('Status', 'Status Page'), false);
  });
  test('read from each platform shape, with control characters taken out and a bound', () => {
    assert.equal(pageNameOf(Buffer.from(JSON.stringify({ page: { id: 'x', name: 'Acme\u0000\u001b[31m Cloud' } }))), 'Acme [31m Cloud');
    assert.equal(pageNameOf(Buffer.from(JSON.stringify({ data: { type: 'status_page', attributes: { company_name: 'Hugging Face' } } }))), 'Hugging Face');
    assert.equal(pageNameOf(Buffer.from('<!doctype html><html><head><title>Acme &amp; Co Status</title></head></html>')), 'Acme & Co Status');
    assert.equal(pageNameOf(Buffer.from(JSON.stringify({ page: { name: 'x'.repeat(5000) } })))!.length, 200);
    assert.equal(pageNameOf(Buffer.from('{"page": {"name": 42}}')), null);
    assert.equal(pageNameOf(Buffer.from('{not json')), null);
    assert.equal(pageNameOf(Buffer.alloc(0)), null);
  });
});

describe('judging a finding', () => {
  const acme = { name: 'Acme', statusPageUrl: 'https://status.acme.com' };
  const from = [{ type: 'statuspage-v2' as const, url: 'https://status.acme.com/api/v2/summary.json' }];
  const moved = [{ type: 'instatus' as const, url: 'https://status.acme.com/summary.json' }];

  test('a move on the same host that keeps the name is applied', () => {
    assert.equal(judgeFinding(acme, from, { to: moved, platform: 'instatus', pageName: 'Acme Status' }).outcome, 'applied');
  });
  test('another name, no name, or another host waits for an operator', () => {
    assert.equal(judgeFinding(acme, from, { to: moved, platform: 'instatus', pageName: 'Someone' }).outcome, 'proposed');
    assert.equal(judgeFinding(acme, from, { to: moved, platform: 'instatus', pageName: null }).outcome, 'proposed');
    const elsewhere = [{ type: 'instatus' as const, url: 'https://acme.instatus.com/summary.json' }];
    const r = judgeFinding(acme, from, { to: elsewhere, platform: 'instatus', pageName: 'Acme' });
    assert.equal(r.outcome, 'proposed');
    assert.match(r.reason, /not on the status page's host \(status\.acme\.com\)/);
  });
  test('the same sources, or nothing readable, repair nothing', () => {
    assert.equal(judgeFinding(acme, from, { to: from, platform: 'statuspage-v2', pageName: 'Acme' }).outcome, 'unchanged');
    assert.equal(judgeFinding(acme, from, { to: [], platform: null, pageName: null }).outcome, 'not_found');
  });
});

describe('repairs in force over the catalog', () => {
  const entry = (sources: CatalogVendor['sources']): CatalogVendor =>
    ({ slug: 'acme', name: 'Acme', sources, statusPageUrl: 'https://status.acme.com' }) as unknown as CatalogVendor;
  const status = { type: 'statuspage-v2' as const, url: 'https://status.acme.com/api/v2/summary.json' };
  const feed = { type: 'advisory-feed' as const, url: 'https://acme.com/security.rss', intervalSeconds: 3600 };
  const to = [{ type: 'instatus' as const, url: 'https://status.acme.com/summary.json' }];

  test('replace the status sources, keep the feeds, and poll the new ones through the guard', () => {
    const [v] = applyRepairs([entry([status, feed])], [{ vendor: 'acme', from: [status], to, outcome: 'applied' }]);
    assert.deepEqual(v!.sources, [{ ...to[0], guarded: true }, feed]);
  });
  test('do nothing once the catalog file lists other sources, or when not in force', () => {
    const fixed = entry([{ type: 'betterstack', url: 'https://status.acme.com/index.json' }]);
    assert.deepEqual(applyRepairs([fixed], [{ vendor: 'acme', from: [status], to, outcome: 'accepted' }]), [fixed]);
    for (const outcome of ['proposed', 'rejected', 'unchanged', 'not_found'] as const) {
      assert.deepEqual(applyRepairs([entry([status])], [{ vendor: 'acme', from: [status], to, outcome }])[0]!.sources, [status]);
    }
  });
});
