import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { incidentsRepository } from '../../../src/store/repositories/incidents-repository.ts';
import { getJson, startApp, TestClock, type TestApp } from '../../helpers/app.ts';
import { userWithKey, type TestUser } from '../../helpers/access.ts';
import { startFakeStatusPages, type FakeStatusPages } from '../../helpers/fake-status-page.ts';
import { incident } from '../../helpers/records.ts';
import { commitEvents } from '../../helpers/stream.ts';
import { send } from '../../helpers/users.ts';

// Who shares a cached answer (docs/access.md "Response cache", docs/per-user.md "Custom
// status pages"): signed-in callers whose account owns no private page read what the
// public reads and share its entries; an account with private pages has entries of its
// own, from its first page on, and never gets nor gives anyone else's.

describe('response cache: shared by callers without private pages, own entries for page owners', () => {
  let t: TestApp;
  let clock: TestClock;
  let pages: FakeStatusPages;
  let carol: TestUser;
  let dave: TestUser;
  let erin: TestUser;
  const TITLE = 'Private widgets outage';
  const key = (u: TestUser) => ({ 'x-api-key': u.secret });
  const incidents = (u: TestUser | null, q = 'limit=50') => getJson(`${t.api}/incidents?${q}`, { headers: u ? key(u) : {} });
  const bundle = (u: TestUser, vendors: string[]) =>
    send(`${t.api}/dashboard-favorites`, 'POST', key(u), { vendors, sections: ['stats', 'recentActivity'], timePeriod: '30d' });

  before(async () => {
    clock = new TestClock(new Date());
    pages = await startFakeStatusPages();
    t = await startApp({ clock, env: { RATE_LIMITS: '{}', OUTBOUND_ALLOW_PRIVATE: '127.0.0.1' } });
    // Same plan: the applied window is part of the key (plans with other caps never share).
    carol = await userWithKey(t, 'pro', 'carol');
    dave = await userWithKey(t, 'pro', 'dave');
    erin = await userWithKey(t, 'pro', 'erin');
    await incidentsRepository(t.store.db).upsert(incident('github', 'shared1', { startedAt: new Date(Date.now() - 3_600_000).toISOString() }), 'f');
    pages
      .incidents('widgets')
      .push({ id: 'w1', name: TITLE, status: 'investigating', impact: 'minor', createdAt: new Date(Date.now() - 3_600_000).toISOString() });
  });
  after(async () => {
    await t?.close();
    await pages?.close();
  });

  test('two signed-in callers without private pages share one entry: the second is a HIT', async () => {
    clock.advance(3_600_000);
    const a = await incidents(dave, 'limit=7');
    assert.equal(a.headers.get('x-cache'), 'MISS');
    const b = await incidents(erin, 'limit=7');
    assert.equal(b.headers.get('x-cache'), 'HIT', 'the other account reads the same entry');
    assert.deepEqual(b.body, a.body);
    assert.equal((await incidents(dave, 'limit=7')).headers.get('x-cache'), 'HIT');
  });

  test('the dashboard bundle is cached the same way: shared, and a committed change makes a new entry', async () => {
    clock.advance(3_600_000);
    const a = await bundle(dave, ['github', 'cloudflare']);
    assert.equal(a.status, 200);
    assert.equal(a.headers.get('x-cache'), 'MISS');
    assert.equal(a.headers.get('cache-control'), 'no-store', 'the per-user answer stays out of other caches');
    const b = await bundle(erin, ['github', 'cloudflare']);
    assert.equal(b.headers.get('x-cache'), 'HIT');
    assert.equal(b.headers.get('cache-control'), 'no-store');
    assert.deepEqual(b.body, a.body);
    // Another order of the same vendors is another answer (the bundle lists them in request order).
    assert.equal((await bundle(erin, ['cloudflare', 'github'])).headers.get('x-cache'), 'MISS');

    // An incident committed with its event: the next bundle is built again and shows it.
    const fresh = incident('github', 'shared2', { title: 'Fresh github incident', startedAt: new Date(Date.now() - 60_000).toISOString() });
    await incidentsRepository(t.store.db).upsert(fresh, 'f');
    await commitEvents(t, [{ vendor: 'github', id: 'shared2', type: 'incident.created', over: fresh }]);
    const c = await bundle(dave, ['github', 'cloudflare']);
    assert.equal(c.headers.get('x-cache'), 'MISS');
    assert.ok(JSON.stringify(c.body).includes('Fresh github incident'));
    // Without an event (advisories, release notes), the entry lasts its TTL (60 s).
    assert.equal((await bundle(erin, ['github', 'cloudflare'])).headers.get('x-cache'), 'HIT');
    clock.advance(61_000);
    assert.equal((await bundle(erin, ['github', 'cloudflare'])).headers.get('x-cache'), 'MISS');
  });

  test('an account that adds its first private page after entries were cached gets its own; nobody else sees the page', async () => {
    clock.advance(3_600_000);
    // Before the page: carol shares the public entries with dave.
    const before1 = await incidents(carol);
    assert.equal(before1.headers.get('x-cache'), 'MISS');
    assert.equal((await incidents(dave)).headers.get('x-cache'), 'HIT');
    const bundleBefore = await bundle(carol, ['github']);
    assert.equal(bundleBefore.status, 200);
    assert.equal((await bundle(dave, ['github'])).headers.get('x-cache'), 'HIT');

    const added = await send(`${t.url}/api/v1/account/status-pages`, 'POST', key(carol), { url: `${pages.url}/pages/widgets/` });
    assert.equal(added.status, 201, JSON.stringify(added.body));
    const slug: string = added.body.page.slug;
    const report = await t.app.ingest.scheduler.runRound({ force: true, vendor: slug });
    assert.deepEqual(
      report.outcomes.map((r) => r.error),
      [null, null, null],
    );

    // Within the same TTL: carol no longer reads the shared entry; her answer has her page.
    const own = await incidents(carol);
    assert.equal(own.headers.get('x-cache'), 'MISS', 'her own entry, not the public one cached before');
    assert.ok(JSON.stringify(own.body).includes(TITLE));
    const ownAgain = await incidents(carol);
    assert.equal(ownAgain.headers.get('x-cache'), 'HIT');
    assert.ok(JSON.stringify(ownAgain.body).includes(TITLE));
    const ownBundle = await bundle(carol, ['github', slug]);
    assert.equal(ownBundle.status, 200);
    assert.ok(JSON.stringify(ownBundle.body).includes(TITLE));
    assert.equal((await bundle(carol, ['github'])).headers.get('x-cache'), 'MISS', 'her bundle is her own too');

    // Everyone else: the public entries, without the page, before and after carol's own were filled.
    for (const [who, u] of [
      ['dave', dave],
      ['erin', erin],
      ['anonymous', null],
    ] as const) {
      for (let i = 0; i < 2; i++) {
        const list = await incidents(u);
        assert.equal(list.status, 200);
        assert.ok(!JSON.stringify(list.body).includes(TITLE) && !JSON.stringify(list.body).includes(slug), `${who}: not in /incidents`);
      }
      if (u) {
        const b = await bundle(u, ['github']);
        assert.equal(b.status, 200);
        assert.ok(!JSON.stringify(b.body).includes(TITLE) && !JSON.stringify(b.body).includes(slug), `${who}: not in the bundle`);
        assert.equal((await bundle(u, ['github', slug])).status, 404, `${who}: the private slug does not exist`);
      }
    }
    // Carol's answers were not handed to the others, and the others' not to her.
    assert.ok(JSON.stringify((await incidents(carol)).body).includes(TITLE));

    // After removing her last page, carol's answers still never show it.
    const removed = await send(`${t.url}/api/v1/account/status-pages/${slug}`, 'DELETE', key(carol));
    assert.equal(removed.status, 200);
    const afterRemove = await incidents(carol);
    assert.ok(!JSON.stringify(afterRemove.body).includes(TITLE));
  });

  test('a stale "owns no private page" (a page added through another instance) never puts the page under a shared key', async () => {
    clock.advance(3_600_000);
    const grace = await userWithKey(t, 'pro', 'grace');
    const frank = await userWithKey(t, 'pro', 'frank');
    const added = await send(`${t.url}/api/v1/account/status-pages`, 'POST', key(grace), { url: `${pages.url}/pages/widgets/` });
    assert.equal(added.status, 201, JSON.stringify(added.body));
    const slug: string = added.body.page.slug;
    await t.app.ingest.scheduler.runRound({ force: true, vendor: slug });
    assert.ok(JSON.stringify((await incidents(grace, 'limit=49')).body).includes(TITLE));

    // This process remembers that frank owns nothing (services/access/private-readers.ts) ...
    assert.equal((await incidents(frank, 'limit=48')).status, 200);
    // ... when the page becomes his behind its back, as an add through another instance would.
    await t.store.db.updateTable('vendors').set({ owner_id: frank.userId }).where('slug', '=', slug).execute();
    const stale = await incidents(frank, 'limit=47');
    assert.equal(stale.headers.get('x-cache'), 'MISS');
    assert.ok(!JSON.stringify(stale.body).includes(TITLE), 'keyed as the public, so computed as the public');
    const other = await incidents(dave, 'limit=47');
    assert.equal(other.headers.get('x-cache'), 'HIT');
    assert.ok(!JSON.stringify(other.body).includes(TITLE) && !JSON.stringify(other.body).includes(slug), 'nothing of the page leaks');
  });
});
