import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { XMLValidator } from 'fast-xml-parser';
import { getJson, startApp, TestClock, type TestApp } from '../helpers/app.ts';
import { type HostileServer, json, redirect, removeCatalog, startHostileServer, statuspageIncidents, vendor, writeCatalog } from '../helpers/hostile-vendor.ts';
import { createUser, send } from '../helpers/users.ts';
import { parseSource } from '../../src/ingest/adapters/index.ts';
import { createHttpFetcher } from '../../src/infra/fetch.ts';
import { createScheduler } from '../../src/ingest/scheduler.ts';
import { readCatalog, loadCatalog } from '../../src/services/vendors/catalog-loader.ts';

// Vendor status pages are untrusted input (docs/security.md): hostile pages served by
// a real loopback server, polled by the real scheduler into a real store, read back
// through the public API and a personal feed.

const SECRET = 'SECRET-METADATA-TOKEN-7f3a';
const NOW = new Date('2026-03-01T12:00:00Z');
const at = '2026-03-01T11:00:00Z';

describe('hostile vendor pages', () => {
  const clock = new TestClock(NOW);
  let page: HostileServer;
  let internal: HostileServer;
  let t: TestApp;
  let catalogFile: string;
  let feedPath: string;

  const round = async () => {
    clock.advance(61_000);
    return t.app.ingest.scheduler.runRound({ force: true });
  };
  const health = async (slug: string) => {
    const r = await getJson(`${t.api}/vendor-status/${slug}`);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body.items[0].sourceHealth as { lastError: string | null; lastErrorAt: string | null };
  };

  before(async () => {
    // A private service the vendor page tries to reach through redirects.
    internal = await startHostileServer({ '/latest/meta-data/': json(`not json: ${SECRET}`) });
    const internalPort = new URL(internal.url).port;
    page = await startHostileServer({
      '/loopback.json': redirect(`${internal.url}/latest/meta-data/`),
      '/v6.json': redirect(`http://[::1]:${internalPort}/latest/meta-data/`, 301),
      '/metadata.json': redirect('http://169.254.169.254/latest/meta-data/', 307),
      '/mapped.json': redirect(`http://[::ffff:127.0.0.1]:${internalPort}/latest/meta-data/`),
      '/named.json': redirect(`http://localhost:${internalPort}/latest/meta-data/`),
      '/moved.json': redirect('/same-origin.json'),
      '/same-origin.json': json(statuspageIncidents([{ id: 'ok1', name: 'Fine', createdAt: at }])),
      '/garbage.json': json(`{"incidents": [ ${SECRET} ]`),
      '/unavailable.json': json(`<h1>${SECRET}</h1>`, 503),
      '/text.json': json(
        statuspageIncidents([
          {
            id: 'evil1',
            name: 'Outage\u0001 of\u202E API\u200B\n- Other: forged <!channel>',
            createdAt: at,
            shortlink: 'javascript:alert(1)',
            components: ['Gateway|<!here>\u0007'],
            body: '<p>Fixed &rarr; &euro;5 &lsaquo;ok&rsaquo; &Auml;nderung\u0002</p>',
          },
          { id: 'future1', name: 'Far ahead', createdAt: '2028-06-01T00:00:00Z' },
        ]),
      ),
      '/removed.json': json(statuspageIncidents([{ id: 'r1', name: 'Removed vendor incident', createdAt: at }])),
    });
    const sp = (slug: string, file: string) => vendor(slug, [{ type: 'statuspage-v2', url: `${page.url}/${file}` }]);
    catalogFile = writeCatalog([
      sp('redirect-loopback', 'loopback.json'),
      sp('redirect-v6', 'v6.json'),
      sp('redirect-metadata', 'metadata.json'),
      sp('redirect-mapped', 'mapped.json'),
      sp('redirect-name', 'named.json'),
      sp('redirect-same-origin', 'moved.json'),
      sp('garbage', 'garbage.json'),
      sp('unavailable', 'unavailable.json'),
      sp('hostile-text', 'text.json'),
      sp('to-be-removed', 'removed.json'),
    ]);
    // No OUTBOUND_ALLOW_PRIVATE: the catalog's own loopback host is reached, redirects elsewhere are not.
    t = await startApp({ clock, catalogFile, env: { DELIVER: 'off', INGEST_TIMEOUT_MS: '5000' } });
    const u = await createUser(t, 'pro');
    assert.equal((await send(`${t.api}/watchlist/hostile-text`, 'POST', u.headers)).status, 200);
    const put = await send(`${t.api}/notification-preferences`, 'PUT', u.headers, { rss: { enabled: true } });
    assert.equal(put.status, 200, JSON.stringify(put.body));
    feedPath = put.body.preferences.rss.feed_url;
    await round();
  });
  after(async () => {
    await t?.close();
    await Promise.all([page?.close(), internal?.close()]);
    if (catalogFile) removeCatalog(catalogFile);
  });

  test('redirects to loopback, [::1], mapped IPv6, 169.254.169.254 and a name resolving to loopback are refused without reaching them', async () => {
    for (const slug of ['redirect-loopback', 'redirect-v6', 'redirect-metadata', 'redirect-mapped', 'redirect-name']) {
      const h = await health(slug);
      assert.match(h.lastError ?? '', /^redirect refused/, slug);
      assert.ok(!h.lastError!.includes(SECRET), slug);
    }
    assert.equal(internal.hits.get('/latest/meta-data/') ?? 0, 0, 'the private service was never asked');
  });

  test("a redirect within the catalog URL's own origin is followed", async () => {
    const h = await health('redirect-same-origin');
    assert.equal(h.lastError, null);
    assert.equal(page.hits.get('/same-origin.json'), 1);
  });

  test('sourceHealth names the kind of failure, never text of the body', async () => {
    assert.equal((await health('garbage')).lastError, 'statuspage-v2: invalid JSON');
    assert.equal((await health('unavailable')).lastError, 'HTTP 503');
  });

  test('upstream text is cleaned at ingestion: REST shows clean titles, decoded entities, no bad links, no far-future records', async () => {
    const r = await getJson(`${t.api}/incidents?vendor=hostile-text&skipCache=true&timePeriod=30d`);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const items = r.body.items as { id: string; title: string; url: string | null; components: string[]; updates: { body: string }[] }[];
    assert.deepEqual(
      items.map((i) => i.id),
      ['hostile-text:evil1'],
    );
    const inc = items[0]!;
    assert.equal(inc.title, 'Outage of API - Other: forged <!channel>');
    assert.equal(inc.url, null);
    assert.deepEqual(inc.components, ['Gateway|<!here>']);
    assert.equal(inc.updates[0]!.body, 'Fixed → €5 ‹ok› Änderung');
  });

  test('the personal RSS and Atom feeds of a subscriber stay valid XML', async () => {
    await t.app.alerts.runOnce();
    for (const file of [feedPath, feedPath.replace(/\.rss$/, '.atom')]) {
      const res = await fetch(`${t.url}${file}`);
      assert.equal(res.status, 200, file);
      const xml = await res.text();
      assert.match(xml, /Outage of API/, file);
      assert.equal(XMLValidator.validate(xml), true, file);
      assert.ok(!/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/.test(xml), file);
    }
  });

  test('a vendor removed from the catalog is not polled after the next catalog load', async () => {
    assert.equal(page.hits.get('/removed.json'), 1);
    const kept = readCatalog(catalogFile).filter((v) => v.slug !== 'to-be-removed');
    writeCatalog(kept, catalogFile);
    await loadCatalog(t.repos.vendors, readCatalog(catalogFile), clock.now());
    const report = await round();
    assert.ok(!report.outcomes.some((o) => o.vendor === 'to-be-removed'));
    assert.ok(
      report.outcomes.some((o) => o.vendor === 'hostile-text'),
      'the others are still polled',
    );
    assert.equal(page.hits.get('/removed.json'), 1);
    assert.deepEqual(await t.repos.sources.list('to-be-removed'), []);
    // What it published stays readable.
    assert.ok(await t.repos.incidents.get('to-be-removed:r1'));
  });

  test('the poll deadline covers parsing: a result parsed after it is not applied', async () => {
    const fetcher = createHttpFetcher();
    const timeoutMs = 1_500;
    const slow = createScheduler({
      sources: t.repos.sources,
      ingest: t.app.services.ingest,
      fetcher,
      // A parser that overruns the deadline (spinning, as a quadratic one would).
      parse: (type, input) => {
        const until = performance.now() + timeoutMs + 100;
        while (performance.now() < until);
        return parseSource(type, input);
      },
      clock,
      owner: 'deadline-test',
      settings: { concurrency: 1, perHost: 1, timeoutMs, maxBytes: 1 << 20, defaultIntervalSeconds: 60 },
    });
    try {
      clock.advance(61_000);
      const [outcome] = (await slow.runRound({ vendor: 'redirect-same-origin', force: true })).outcomes;
      assert.equal(outcome!.status, 'failed', JSON.stringify(outcome));
      assert.match(outcome!.error!, /^timed out after 1500 ms/);
    } finally {
      await slow.stop();
      await fetcher.close();
    }
  });
});
