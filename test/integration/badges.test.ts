import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { createRepositories } from '../../src/services/index.ts';
import { getJson, startApp, type TestApp, UNLIMITED_RATE_LIMITS } from '../helpers/app.ts';
import { maintenance } from '../helpers/records.ts';
import { seedDashboard } from '../helpers/seed.ts';
import { createUser } from '../helpers/users.ts';

// Status badges (docs/integrations.md): SVG parsed strictly, shields.io endpoint JSON
// with exactly its keys, per-component badges, 404 bodies, the 30 s cache, and the
// anonymous per-IP limit that never touches a key's quota.

async function svgOf(res: Response) {
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'image/svg+xml; charset=utf-8');
  const text = await res.text();
  assert.equal(XMLValidator.validate(text), true, 'well-formed XML');
  const doc = new XMLParser({ ignoreAttributes: false }).parse(text);
  assert.equal(doc.svg['@_xmlns'], 'http://www.w3.org/2000/svg');
  return { text, doc };
}

describe('status badges', () => {
  let t: TestApp;
  before(async () => {
    t = await startApp();
    await seedDashboard(t.store);
    // Hetzner has no machine-readable source; a maintenance stored for it must not show.
    await createRepositories(t.store).maintenances.upsert(
      maintenance('hetzner', 'now', {
        status: 'in_progress',
        scheduledFor: new Date(Date.now() - 3_600_000).toISOString(),
        startedAt: new Date(Date.now() - 3_600_000).toISOString(),
      }),
      'f',
    );
    const components = [
      { id: 'api', name: 'api.cloudflare.com', status: 'major_outage' as const, group: null, position: 1 },
      { id: 'cicd', name: 'CI/CD', status: 'under_maintenance' as const, group: null, position: 2 },
    ];
    await createRepositories(t.store).status.replaceComponents('cloudflare', components, new Date().toISOString());
  });
  after(async () => t.close());

  test('vendor SVG shows the indicator, then is served from the cache with its ETag', async () => {
    const a = await fetch(`${t.url}/badges/github.svg`);
    const { text, doc } = await svgOf(a);
    assert.equal(doc.svg['@_aria-label'], 'GitHub: partial outage');
    assert.match(text, /<title>GitHub: partial outage<\/title>/);
    assert.equal(a.headers.get('x-cache'), 'MISS');
    const etag = a.headers.get('etag')!;
    const b = await fetch(`${t.url}/badges/github.svg`);
    assert.equal(b.headers.get('x-cache'), 'HIT');
    assert.equal(await b.text(), text);
    const c = await fetch(`${t.url}/badges/github.svg`, { headers: { 'if-none-match': etag } });
    assert.equal(c.status, 304);
  });

  test('shields.io endpoint JSON has exactly the endpoint keys', async () => {
    const r = await getJson(`${t.url}/badges/hetzner.json`);
    assert.equal(r.status, 200);
    // Hetzner has no machine-readable source: a stored maintenance does not make it "maintenance" (docs/web.md "Not monitored").
    assert.deepEqual(r.body, { schemaVersion: 1, label: 'Hetzner', message: 'not monitored', color: 'lightgrey' });
    const g = await getJson(`${t.url}/badges/github.json`);
    assert.deepEqual(g.body, { schemaVersion: 1, label: 'GitHub', message: 'partial outage', color: 'orange' });
  });

  test('component badges by name, case-insensitive; unknown component or vendor: 404 error body', async () => {
    const { doc } = await svgOf(await fetch(`${t.url}/badges/github/actions.svg`));
    assert.equal(doc.svg['@_aria-label'], 'GitHub Actions: partial outage');
    const pages = await getJson(`${t.url}/badges/github/Pages.json`);
    assert.deepEqual(pages.body, { schemaVersion: 1, label: 'GitHub Pages', message: 'degraded', color: 'yellow' });
    const spaced = await getJson(`${t.url}/badges/github/${encodeURIComponent('Git Operations')}.json`);
    assert.equal(spaced.body.message, 'operational');
    // Names with dots and slashes (encoded) still name one component.
    const dotted = await getJson(`${t.url}/badges/cloudflare/api.cloudflare.com.json`);
    assert.deepEqual(dotted.body, { schemaVersion: 1, label: 'Cloudflare api.cloudflare.com', message: 'major outage', color: 'red' });
    const slashed = await getJson(`${t.url}/badges/cloudflare/${encodeURIComponent('CI/CD')}.json`);
    assert.equal(slashed.body.message, 'maintenance');
    for (const path of ['/badges/github/Nope.svg', '/badges/no-such-vendor.svg', '/badges/no-such-vendor.json']) {
      const r = await getJson(`${t.url}${path}`);
      assert.equal(r.status, 404, path);
      assert.equal(r.body.success, false);
      assert.equal(r.body.error, 'not_found');
    }
    const bad = await getJson(`${t.url}/badges/Not_A_Slug.svg`);
    assert.equal(bad.status, 400);
  });
});

describe('badge limits', () => {
  let t: TestApp;
  before(async () => {
    const limits = { ...JSON.parse(UNLIMITED_RATE_LIMITS), anonymous: { perMinute: 4, perDay: 100 } };
    t = await startApp({ env: { RATE_LIMITS: JSON.stringify(limits) } });
    await seedDashboard(t.store);
  });
  after(async () => t.close());

  test("counted per IP at the anonymous limits, never against a key's quota", async () => {
    const u = await createUser(t, 'free');
    let refused: Response | null = null;
    let served = 0;
    for (let i = 0; i < 12 && !refused; i++) {
      const r = await fetch(`${t.url}/badges/cloudflare.json`, { headers: u.headers });
      if (r.status === 429) refused = r;
      else {
        assert.equal(r.status, 200);
        served++;
        await r.arrayBuffer();
      }
    }
    // Cache hits count too; the key sent along is ignored.
    assert.equal(served, 4, 'the anonymous per-IP limit (4 per minute here) applies');
    assert.ok(refused);
    // Still a shields.io endpoint body (shields shows it as a badge), cacheable until the window resets.
    const body = await refused.json();
    assert.deepEqual(body, { schemaVersion: 1, label: 'status', message: 'rate limited', color: 'lightgrey' });
    const wait = Number(refused.headers.get('retry-after'));
    assert.ok(wait >= 1 && wait <= 60, `Retry-After ${wait}`);
    assert.equal(refused.headers.get('cache-control'), `public, max-age=${wait}`);
    // The SVG badge answers an image saying so, not JSON an <img> cannot show.
    const svg = await fetch(`${t.url}/badges/cloudflare.svg`);
    assert.equal(svg.status, 429);
    assert.match(svg.headers.get('content-type')!, /^image\/svg\+xml/);
    assert.ok(svg.headers.get('retry-after'));
    const text = await svg.text();
    assert.match(text, /^<svg[^>]*>/);
    assert.match(text, /rate limited/);
    const account = await getJson(`${t.url}/api/v1/account`, { headers: u.headers });
    assert.equal(account.status, 200);
    // The account endpoints are not metered: the key has used nothing today.
    assert.equal(account.body.usage.total, 0);
  });
});
