import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { connect, textOf } from '../helpers/mcp.ts';
import { getJson, startApp, type TestApp } from '../helpers/app.ts';
import { ownerViewer, userWithKey, type TestUser } from '../helpers/access.ts';
import { startFakeStatusPages, type FakeStatusPages } from '../helpers/fake-status-page.ts';
import { commitEvents, openStream } from '../helpers/stream.ts';
import { waitFor } from '../helpers/wait.ts';
import { send } from '../helpers/users.ts';

// Status pages a user adds by URL (docs/per-user.md "Custom status pages"): detected on a
// page served on loopback (allow-listed through OUTBOUND_ALLOW_PRIVATE), polled like a
// catalog vendor, and visible to its owner only: every other caller gets 404 or nothing.

describe('custom status pages', () => {
  let t: TestApp;
  let pages: FakeStatusPages;
  let alice: TestUser;
  let bob: TestUser;
  let slug = '';
  const TITLE = 'Acme widgets API failing';
  const key = (u: TestUser) => ({ 'x-api-key': u.secret });
  const endpoint = () => `${t.url}/api/v1/account/status-pages`;

  before(async () => {
    pages = await startFakeStatusPages();
    t = await startApp({ env: { OUTBOUND_ALLOW_PRIVATE: '127.0.0.1' } });
    alice = await userWithKey(t, 'standard', 'alice');
    bob = await userWithKey(t, 'pro', 'bob');
    pages
      .incidents('widgets')
      .push({ id: 'inc1', name: TITLE, status: 'investigating', impact: 'minor', createdAt: new Date(Date.now() - 3600_000).toISOString() });
  });
  after(async () => {
    await t?.close();
    await pages?.close();
  });

  test('a page on a local server is detected, polled, and its incidents appear in /incidents for its owner only', async () => {
    const added = await send(endpoint(), 'POST', key(alice), { url: `${pages.url}/pages/widgets/` });
    assert.equal(added.status, 201, JSON.stringify(added.body));
    const page = added.body.page;
    slug = page.slug;
    assert.match(slug, /^u-[0-9a-f]{12}-127-0-0-1$/, 'namespaced to the account, named from the host');
    assert.deepEqual(
      page.sources.map((s: { type: string; url: string }) => `${s.type} ${s.url.replace(pages.url, '')}`).sort(),
      [
        'statuspage-v2 /pages/widgets/api/v2/incidents.json',
        'statuspage-v2 /pages/widgets/api/v2/scheduled-maintenances.json',
        'statuspage-v2 /pages/widgets/api/v2/summary.json',
      ],
      'the summary and the two history lists, as for a catalog Statuspage vendor',
    );
    assert.deepEqual([added.body.count, added.body.limit, added.body.remaining], [1, 10, 9]);

    // What detection read is stored at once, before any polling round (this app runs none:
    // INGEST=off, as an API-only instance): the ongoing incident and the page's status.
    const atOnce = await getJson(`${t.api}/incidents?vendor=${slug}`, { headers: key(alice) });
    assert.deepEqual(
      atOnce.body.items.map((i: { title: string }) => i.title),
      [TITLE],
      'shown at once',
    );
    const statusAtOnce = await getJson(`${t.api}/vendor-status/${slug}`, { headers: key(alice) });
    assert.equal(statusAtOnce.body.items[0].indicator, 'degraded');
    assert.ok(statusAtOnce.body.items[0].sourceHealth.lastSuccessAt, 'the read counts as the first poll of that source');

    // Readiness counts the catalog's sources only: a user's pages, failing or not, do not decide it.
    const catalogSources = await t.store.db.selectFrom('sources').select('id').where('guarded', '=', 0).execute();
    assert.equal((await t.app.services.health.readiness(new Date(0))).sources, catalogSources.length);
    const report = await t.app.ingest.scheduler.runRound({ force: true, vendor: slug });
    assert.deepEqual(
      report.outcomes.map((r) => r.error),
      [null, null, null],
      'all three sources polled without error',
    );

    const own = await getJson(`${t.api}/incidents?vendor=${slug}`, { headers: key(alice) });
    assert.equal(own.status, 200);
    assert.deepEqual(
      own.body.items.map((i: { title: string }) => i.title),
      [TITLE],
    );
    const all = await getJson(`${t.api}/incidents`, { headers: key(alice) });
    assert.ok(
      all.body.items.some((i: { title: string }) => i.title === TITLE),
      'in the owner’s unfiltered list',
    );

    for (const [who, headers] of [
      ['bob', key(bob)],
      ['anonymous', {}],
    ] as const) {
      const list = await getJson(`${t.api}/incidents`, { headers });
      assert.equal(list.status, 200);
      assert.ok(!JSON.stringify(list.body).includes(slug) && !JSON.stringify(list.body).includes(TITLE), `${who}: not in /incidents`);
      assert.equal((await getJson(`${t.api}/incidents?vendor=${slug}`, { headers })).status, 404, `${who}: filter by the slug is 404`);
    }

    const status = await getJson(`${t.api}/vendor-status/${slug}`, { headers: key(alice) });
    assert.equal(status.status, 200);
    assert.equal(status.body.items[0].indicator, 'degraded');
  });

  test('IDOR: every read path answers 404 or leaves the page out for anyone but its owner', async () => {
    assert.ok(slug, 'the first test added the page');
    const byVendor = [
      `${t.api}/vendor-info/${slug}`,
      `${t.api}/vendor-status/${slug}`,
      `${t.api}/vendor-status/${slug}?skipCache=true`,
      `${t.api}/vendor-capabilities/${slug}`,
      `${t.api}/vendor-stats/${slug}`,
      `${t.api}/vendors/${slug}/incidents`,
      `${t.api}/vendors/${slug}/maintenance`,
      `${t.api}/vendors/${slug}/compliance`,
      `${t.api}/${slug}-compliance`,
      `${t.api}/incidents?vendor=${slug}`,
      `${t.api}/maintenance?vendor=${slug}`,
      `${t.api}/incidents-unified?vendor=${slug}`,
      `${t.api}/maintenance-unified?vendor=${slug}`,
      `${t.api}/advisories-unified?vendor=${slug}`,
      `${t.api}/vendor-stats-favorites?vendor=${slug}`,
      `${t.api}/dashboard-recent-activity?vendor=${slug}`,
      `${t.api}/incidents/stream?vendor=${slug}`,
      `${t.url}/badges/${slug}.svg`,
      `${t.url}/badges/${slug}.json`,
      `${t.url}/badges/${slug}/API.svg`,
      `${t.url}/api/v1/feeds/vendors/${slug}.rss`,
      `${t.url}/api/v1/feeds/vendors/${slug}.atom`,
      `${t.url}/api/v1/feeds/vendors/${slug}.ics`,
      `${t.url}/api/v1/feeds/vendors.rss?vendor=${slug}`,
      `${t.url}/vendors/${slug}`,
      `${t.url}/search?vendor=${slug}`,
    ];
    const lists = [
      `${t.api}/vendor-list`,
      `${t.api}/vendors`,
      `${t.api}/incidents`,
      `${t.api}/incidents?status=investigating`,
      `${t.api}/incidents-unified`,
      `${t.api}/maintenance`,
      `${t.api}/dashboard-recent-activity`,
      `${t.api}/vendor-stats-aggregate`,
      `${t.url}/metrics`,
      `${t.url}/`,
      `${t.url}/search?q=acme`,
      `${t.url}/search?q=widgets`,
    ];
    const callers: [string, Record<string, string>][] = [
      ['bob', key(bob)],
      ['anonymous', {}],
    ];
    // The owner first, so a shared cache entry would be there to leak.
    for (const url of byVendor.filter((u) => !u.includes('compliance') && !u.includes('/stream') && !u.includes('/badges/') && !u.includes('/feeds/'))) {
      const r = await fetch(url, { headers: key(alice) });
      assert.equal(r.status, 200, `owner: ${url}`);
      await r.body?.cancel();
    }
    for (const url of lists) await (await fetch(url, { headers: key(alice) })).text();
    for (const [who, headers] of callers) {
      for (const url of byVendor) {
        const r = await fetch(url, { headers });
        const text = await r.text();
        assert.equal(r.status, 404, `${who}: ${url} -> ${r.status} ${text.slice(0, 200)}`);
        assert.ok(!text.includes(TITLE), `${who}: ${url} names the incident`);
      }
      for (const url of lists) {
        const r = await fetch(url, { headers });
        const text = await r.text();
        assert.ok(r.status === 200 || r.status === 401, `${who}: ${url} -> ${r.status}`);
        assert.ok(!text.includes(slug) && !text.includes(TITLE), `${who}: ${url} shows the page`);
      }
      // Per-user writes naming it are refused as for an unknown vendor.
      if (who === 'bob') {
        assert.equal((await send(`${t.api}/watchlist/${slug}`, 'POST', headers)).status, 404);
        assert.equal((await send(`${t.api}/watchlist`, 'PUT', headers, { vendors: [slug] })).status, 404);
        assert.equal((await send(`${t.api}/dashboard-favorites`, 'POST', headers, { vendors: [slug] })).status, 404);
        const prefs = await send(`${t.api}/notification-preferences`, 'PUT', headers, { muted_vendors: [slug] });
        assert.equal(prefs.status, 400, 'an unknown slug in the settings document');
        assert.equal((await send(`${endpoint()}/${slug}`, 'DELETE', headers)).status, 404, 'bob cannot remove it');
        const bobsList = await getJson(endpoint(), { headers });
        assert.deepEqual(bobsList.body.pages, []);
      }
    }
    // The owner may watch it (alerts follow the watchlist) and see it in the vendor list.
    assert.equal((await send(`${t.api}/watchlist/${slug}`, 'POST', key(alice))).status, 200);
    const mine = await getJson(`${t.api}/vendor-list`, { headers: key(alice) });
    assert.ok(mine.body.vendors.some((v: { id: string }) => v.id === slug));
    // A board published from that watchlist is public: it shows the catalog vendors only.
    assert.equal((await send(`${t.api}/watchlist/github`, 'POST', key(alice))).status, 200);
    const board = await send(`${t.url}/api/v1/boards`, 'POST', key(alice), { title: 'Alice vendors' });
    assert.equal(board.status, 201, JSON.stringify(board.body));
    for (const path of ['', '/partial']) {
      const r = await fetch(`${board.body.url}${path}`);
      const text = await r.text();
      assert.equal(r.status, 200);
      assert.ok(text.includes('data-vendor="github"'), `board${path} shows github`);
      assert.ok(!text.includes(slug) && !text.includes(TITLE), `board${path} shows the private page`);
    }
  });

  test('MCP tools answer for the owner and not for another account', async () => {
    const own = await connect(`${t.url}/mcp`, { token: alice.secret });
    const other = await connect(`${t.url}/mcp`, { token: bob.secret });
    try {
      const a = await own.client.callTool({ name: 'get_vendor_status', arguments: { vendor: slug } });
      assert.ok(!a.isError, textOf(a));
      assert.match(textOf(a), /Acme|127/);
      const b = await other.client.callTool({ name: 'get_vendor_status', arguments: { vendor: slug } });
      assert.ok(b.isError, 'another account: unknown vendor');
      const active = await other.client.callTool({ name: 'get_active_incidents', arguments: {} });
      assert.ok(!textOf(active).includes(TITLE));
      const listed = await other.client.callTool({ name: 'list_vendors', arguments: { search: '127' } });
      assert.ok(!textOf(listed).includes(slug));
      const ownActive = await own.client.callTool({ name: 'get_active_incidents', arguments: {} });
      assert.ok(textOf(ownActive).includes(TITLE));
    } finally {
      await own.close();
      await other.close();
    }
  });

  test('the live stream carries a new incident to its owner and to nobody else', async () => {
    const mine = openStream(`${t.api}/incidents/stream`, key(alice));
    const theirs = openStream(`${t.api}/incidents/stream`, key(bob));
    const anyone = openStream(`${t.api}/incidents/stream`);
    try {
      await Promise.all([mine, theirs, anyone].map((s) => s.waitForType('snapshot')));
      for (const s of [theirs, anyone]) assert.ok(!JSON.stringify(s.received).includes(TITLE), 'not in their snapshot');
      assert.ok(JSON.stringify(mine.received).includes(TITLE), 'in the owner’s snapshot');
      pages.incidents('widgets').push({ id: 'inc2', name: 'Acme queue delays', status: 'identified', impact: 'major', createdAt: new Date().toISOString() });
      await t.app.ingest.scheduler.runRound({ force: true, vendor: slug });
      const got = await mine.waitForType('incident.created');
      assert.equal(got.data.incident.title, 'Acme queue delays');
      assert.equal(got.data.incident.vendor, slug);
      // A public event committed after it: once the others have it, they are past the private one.
      await commitEvents(t, [{ vendor: 'github', id: 'marker', type: 'incident.created', over: { title: 'Public marker' } }]);
      await Promise.all(
        [theirs, anyone, mine].map((s) => waitFor(() => s.received.some((e) => e.data?.incident?.title === 'Public marker'), { message: 'the marker' })),
      );
      for (const s of [theirs, anyone]) {
        assert.ok(!JSON.stringify(s.received).includes(slug), 'no event of the page');
      }
    } finally {
      for (const s of [mine, theirs, anyone]) s.close();
    }
  });

  test("a team's page reaches its members' streams acting for the team, not their personal ones (docs/teams.md)", async () => {
    const team = await t.app.services.orgs.createFor(alice.userId, 'Gadgets team', 'standard');
    assert.ok(await t.repos.organisations.addMember(team.id, bob.userId, 'editor', new Date()));
    const asAlice = { ...ownerViewer(alice.userId, 'standard'), orgId: team.id, role: 'owner' as const };
    const asBob = { ...ownerViewer(bob.userId, 'standard'), orgId: team.id, role: 'editor' as const };
    pages
      .incidents('gadgets')
      .push({ id: 'g1', name: 'Gadgets degraded', status: 'investigating', impact: 'minor', createdAt: new Date(Date.now() - 60_000).toISOString() });
    const added = await t.app.services.customPages.add(asAlice, { url: `${pages.url}/pages/gadgets/` });
    const teamSlug = added.page.slug;
    const bobTeamKey = { 'x-api-key': (await t.app.services.keys.create(asBob, 'team stream')).secret };
    const teamStream = openStream(`${t.api}/incidents/stream`, bobTeamKey);
    const personal = openStream(`${t.api}/incidents/stream`, key(bob));
    try {
      await Promise.all([teamStream, personal].map((x) => x.waitForType('snapshot')));
      pages.incidents('gadgets').push({ id: 'g2', name: 'Gadgets down', status: 'identified', impact: 'major', createdAt: new Date().toISOString() });
      await t.app.ingest.scheduler.runRound({ force: true, vendor: teamSlug });
      const got = await teamStream.waitForType('incident.created');
      assert.equal(got.data.incident.vendor, teamSlug);
      await commitEvents(t, [{ vendor: 'github', id: 'marker-2', type: 'incident.created', over: { title: 'Public marker 2' } }]);
      await waitFor(() => personal.received.some((e) => e.data?.incident?.title === 'Public marker 2'), { message: 'the marker' });
      assert.ok(!JSON.stringify(personal.received).includes(teamSlug), "the team's page stays out of a personal stream");
    } finally {
      teamStream.close();
      personal.close();
    }
  });

  test('alerts: the owner who watches the page is alerted; another account is not', async () => {
    for (const u of [alice, bob]) {
      assert.equal((await send(`${t.api}/notification-preferences`, 'PUT', key(u), { in_app: { enabled: true } })).status, 200);
    }
    await t.app.alerts.runOnce(); // earlier events out of the way
    const seen = async (u: TestUser) => JSON.stringify((await getJson(`${t.api}/notifications`, { headers: key(u) })).body);
    pages
      .incidents('widgets')
      .push({ id: 'inc3', name: 'Acme billing outage', status: 'investigating', impact: 'critical', createdAt: new Date().toISOString() });
    await t.app.ingest.scheduler.runRound({ force: true, vendor: slug });
    await t.app.alerts.runOnce();
    assert.ok((await seen(alice)).includes('Acme billing outage'), 'the owner is alerted');
    assert.ok(!(await seen(bob)).includes('Acme billing outage'), 'nobody else');
    assert.ok(!(await seen(bob)).includes(slug));
  });

  test('refusals: plan, private address, redirect to one, undetectable page (422 naming what was tried), duplicate, cap', async () => {
    const free = await userWithKey(t, 'free', 'free');
    const low = await send(endpoint(), 'POST', key(free), { url: `${pages.url}/pages/free/` });
    assert.equal(low.status, 403);
    assert.equal(low.body.error, 'plan_required');

    for (const url of ['http://10.1.2.3/', 'https://localhost/status', 'https://169.254.169.254/', 'ftp://status.example.com/', 'not a url']) {
      const r = await send(endpoint(), 'POST', key(alice), { url });
      assert.equal(r.status, 400, `${url}: ${JSON.stringify(r.body)}`);
      assert.equal(r.body.parameter, 'url');
    }

    const before = pages.hits.length;
    const redirected = await send(endpoint(), 'POST', key(alice), { url: `${pages.url}/redirect/` });
    assert.equal(redirected.status, 422, JSON.stringify(redirected.body));
    assert.match(redirected.body.tried[0].result, /refused/);
    assert.ok(pages.hits.length > before);

    const plain = await send(endpoint(), 'POST', key(alice), { url: `${pages.url}/plain/` });
    assert.equal(plain.status, 422);
    assert.equal(plain.body.error, 'unprocessable');
    assert.equal(plain.body.success, false);
    assert.ok(plain.body.requestId);
    assert.deepEqual(plain.body.platforms, [
      'statuspage-v2',
      'incidentio',
      'instatus',
      'betterstack',
      'cstate',
      'statusio',
      'cachet',
      'statuspal',
      'uptimerobot',
      'hund',
      'feed',
      'statuspage-html',
    ]);
    const tried = plain.body.tried.map((x: { url: string }) => x.url.replace(pages.url, ''));
    assert.deepEqual(tried.slice(0, 5), ['/plain/', '/plain/api/v2/summary.json', '/plain/summary.json', '/plain/index.json', '/plain/api/v1/incidents']);
    assert.match(plain.body.message, /statuspage-v2.*cachet/);

    const dup = await send(endpoint(), 'POST', key(alice), { url: `${pages.url}/pages/widgets/` });
    assert.equal(dup.status, 409);

    for (let i = 2; i <= 10; i++) {
      const r = await send(endpoint(), 'POST', key(alice), { url: `${pages.url}/pages/p${i}/`, name: `Page ${i}` });
      assert.equal(r.status, 201, `page ${i}: ${JSON.stringify(r.body)}`);
    }
    const full = await send(endpoint(), 'POST', key(alice), { url: `${pages.url}/pages/p11/` });
    assert.equal(full.status, 403);
    assert.equal(full.body.error, 'limit_exceeded');
    assert.equal(full.body.limit, 10);
    const listed = await getJson(endpoint(), { headers: key(alice) });
    assert.equal(listed.body.count, 10);
    assert.equal(listed.body.remaining, 0);

    // Detections are throttled per account (each sends requests out): bob's 30th or earlier try is refused.
    let refused: Awaited<ReturnType<typeof send>> | null = null;
    for (let i = 0; i < 31 && !refused; i++) {
      const r = await send(endpoint(), 'POST', key(bob), { url: `${pages.url}/plain/` });
      if (r.status === 429) refused = r;
      else assert.equal(r.status, 422);
    }
    assert.ok(refused, 'throttled within 31 tries');
    assert.equal(refused.body.error, 'rate_limit_exceeded');
    assert.ok(refused.body.retryAfter > 0);
  });

  test('removing a page stops it answering, also for its owner; its rows go', async () => {
    const gone = await send(`${endpoint()}/${slug}`, 'DELETE', key(alice));
    assert.equal(gone.status, 200);
    assert.ok(!gone.body.pages.some((p: { slug: string }) => p.slug === slug));
    assert.equal((await getJson(`${t.api}/vendor-status/${slug}?skipCache=true`, { headers: key(alice) })).status, 404);
    const rows = await t.store.db.selectFrom('incidents').select('id').where('vendor', '=', slug).execute();
    assert.deepEqual(rows, []);
    assert.equal((await send(`${endpoint()}/${slug}`, 'DELETE', key(alice))).status, 404);
  });
});
