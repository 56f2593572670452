import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { canSee } from '../../../src/domain/audience.ts';
import {
  accountNamespace,
  CUSTOM_SOURCE_CAPS,
  customPageDataTypes,
  customPageSources,
  customSourceCap,
  feedSourceType,
  isPrivateSlug,
  mayAddCustomSources,
  nameFromUrl,
  privateSlug,
  probePlan,
  publicSlugOf,
  slugVisibleTo,
  statusIoApiUrl,
  statuspalSummaryUrl,
} from '../../../src/domain/custom-sources.ts';

// Pure rules of user-added status pages (docs/per-user.md "Custom status pages").

describe('custom status pages: slugs', () => {
  test('namespaced to the account: u-<12 hex of the account>-<name>, stable, different per account', () => {
    const a = privateSlug('user-a', 'Acme Status', new Set());
    assert.match(a, /^u-[0-9a-f]{12}-acme-status$/);
    assert.equal(a, privateSlug('user-a', 'Acme Status', new Set()));
    assert.notEqual(a.slice(0, 15), privateSlug('user-b', 'Acme Status', new Set()).slice(0, 15));
    assert.ok(a.startsWith(accountNamespace('user-a')));
    assert.ok(isPrivateSlug(a));
    assert.equal(publicSlugOf(a), 'acme-status');
  });

  test('names are cut to the slug length, cleaned, and numbered when the account already uses one', () => {
    const long = privateSlug('u1', 'A'.repeat(200), new Set());
    assert.ok(long.length <= 63);
    assert.match(long, /^u-[0-9a-f]{12}-a+$/);
    const base = privateSlug('u1', 'Ünïcode — Status!', new Set());
    assert.match(base, /-unicode-status$/);
    assert.equal(privateSlug('u1', 'x', new Set([privateSlug('u1', 'x', new Set())])), `${accountNamespace('u1')}x-2`);
    const taken = new Set([long]);
    const next = privateSlug('u1', 'A'.repeat(200), taken);
    assert.ok(next.endsWith('-2') && next.length <= 63);
    assert.equal(privateSlug('u1', '!!!', new Set()), `${accountNamespace('u1')}page`);
  });

  test('catalog slugs are never private, and a slug is visible to its own account only', () => {
    for (const s of ['github', 'u-haul', 'u-1234-x', 'u-0123456789ab']) assert.equal(isPrivateSlug(s), false, s);
    const own = privateSlug('alice', 'p', new Set());
    assert.equal(slugVisibleTo(own, 'alice'), true);
    assert.equal(slugVisibleTo(own, 'bob'), false);
    assert.equal(slugVisibleTo(own, null), false);
    assert.equal(slugVisibleTo('github', null), true);
  });

  test('the page name defaults to the host without www./status. and the top-level domain', () => {
    assert.equal(nameFromUrl(new URL('https://status.acme.io/')), 'acme');
    assert.equal(nameFromUrl(new URL('https://www.status.example.co.uk/x')), 'example.co');
    assert.equal(nameFromUrl(new URL('http://127.0.0.1:8080/')), '127.0.0.1');
  });
});

describe('custom status pages: plans', () => {
  test('allowed from the configured plan up, with the documented caps', () => {
    assert.deepEqual(CUSTOM_SOURCE_CAPS, { anonymous: 0, free: 3, standard: 10, pro: 50, enterprise: 200, vip: 200 });
    assert.equal(mayAddCustomSources('free', 'standard'), false);
    assert.equal(customSourceCap('free', 'standard'), 0);
    assert.equal(customSourceCap('standard', 'standard'), 10);
    assert.equal(customSourceCap('pro', 'enterprise'), 0);
    assert.equal(customSourceCap('free', 'free'), 3);
    assert.equal(customSourceCap('anonymous', 'free'), 0);
  });
});

describe('custom status pages: detection order and sources', () => {
  test('the URL itself first, then each platform’s documented endpoints under it, without duplicates', () => {
    const plan = probePlan(new URL('https://status.acme.io/?utm=x#top'));
    assert.deepEqual(
      plan.map((p) => p.url),
      [
        'https://status.acme.io/?utm=x#top',
        'https://status.acme.io/api/v2/summary.json',
        'https://status.acme.io/summary.json',
        'https://status.acme.io/index.json',
        'https://status.acme.io/api/v1/incidents',
        'https://status.acme.io/history.atom',
        'https://status.acme.io/history.rss',
        'https://status.acme.io/feed.atom',
        'https://status.acme.io/feed.rss',
        'https://status.acme.io/live/v2/status_page',
      ],
    );
    assert.deepEqual(plan[1]!.accepts, ['statuspage-v2', 'incidentio']);
    assert.deepEqual(plan[2]!.accepts, ['instatus']);
    assert.deepEqual(plan[3]!.accepts, ['betterstack', 'cstate']);
    assert.deepEqual(plan[4]!.accepts, ['cachet']);
    const direct = probePlan(new URL('https://status.acme.io/history.rss'));
    assert.equal(direct[0]!.url, 'https://status.acme.io/history.rss');
    assert.equal(direct.filter((p) => p.url === 'https://status.acme.io/history.rss/history.rss').length, 1, 'paths go under the URL');
  });

  test("a page at <subdomain>.statuspal.io is read from Statuspal's summary of that subdomain, probed second", () => {
    const plan = probePlan(new URL('https://acme-cloud.statuspal.io/'));
    assert.deepEqual(plan[1], { url: 'https://statuspal.io/api/v2/status_pages/acme-cloud/summary', accepts: ['statuspal'] });
    assert.equal(probePlan(new URL('https://acme.statuspal.eu'))[1]!.url, 'https://statuspal.eu/api/v2/status_pages/acme/summary');
    assert.equal(statuspalSummaryUrl(new URL('https://www.statuspal.io/')), null);
    assert.equal(statuspalSummaryUrl(new URL('https://statuspal.io.evil.example/')), null);
    assert.equal(statuspalSummaryUrl(new URL('https://status.acme.io/')), null);
    assert.ok(!probePlan(new URL('https://status.acme.io/')).some((p) => p.accepts.includes('statuspal') && p.accepts.length === 1));
  });

  test('status.io is found through the page id in its HTML', () => {
    assert.equal(
      statusIoApiUrl(`<script>var statuspageId = '5b36dc6502d06804c08349f7';</script>`),
      'https://api.status.io/1.0/status/5b36dc6502d06804c08349f7',
    );
    assert.equal(statusIoApiUrl('<html>nothing</html>'), null);
  });

  test('a Statuspage summary brings its history lists; feeds are told apart; data types follow the catalog rules', () => {
    assert.deepEqual(
      customPageSources('statuspage-v2', 'https://s.example.com/api/v2/summary.json').map((s) => [s.url, s.intervalSeconds]),
      [
        ['https://s.example.com/api/v2/summary.json', undefined],
        ['https://s.example.com/api/v2/incidents.json', 300],
        ['https://s.example.com/api/v2/scheduled-maintenances.json', 300],
      ],
    );
    assert.deepEqual(customPageSources('instatus', 'https://s.example.com/summary.json'), [{ type: 'instatus', url: 'https://s.example.com/summary.json' }]);
    assert.equal(feedSourceType('<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom">'), 'statuspage-atom');
    assert.equal(feedSourceType('<?xml version="1.0"?><rss version="2.0">'), 'statuspage-rss');
    assert.deepEqual(customPageDataTypes('statusio'), ['incidents', 'maintenance']);
    assert.deepEqual(customPageDataTypes('checkly'), ['incidents']);
  });
});

describe('audience', () => {
  test('a private vendor is seen by its owner and by internal readers only', () => {
    assert.equal(canSee(null, { orgId: null }), true);
    assert.equal(canSee('alice', { orgId: 'alice' }), true);
    assert.equal(canSee('alice', { orgId: 'bob' }), false);
    assert.equal(canSee('alice', { orgId: null }), false);
    assert.equal(canSee('alice', 'internal'), true);
  });
});
