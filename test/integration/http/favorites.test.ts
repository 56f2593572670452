import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely';
import { createServices } from '../../../src/services/index.ts';
import { incidentsRepository } from '../../../src/store/repositories/incidents-repository.ts';
import { maintenancesRepository } from '../../../src/store/repositories/maintenances-repository.ts';
import { publicationsRepository } from '../../../src/store/repositories/publications-repository.ts';
import { getJson, startApp, type TestApp } from '../../helpers/app.ts';
import { incident, maintenance } from '../../helpers/records.ts';
import { createUser, send, type TestUser } from '../../helpers/users.ts';

// POST /dashboard-favorites over a real server, and its query count.

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

/** Counts the statements executed (one result each; subqueries are part of their statement). */
class QueryCounter implements KyselyPlugin {
  count = 0;
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return args.node;
  }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    this.count++;
    return args.result;
  }
}

describe('dashboard favorites bundle', () => {
  let t: TestApp;
  let u: TestUser;
  let pro: TestUser;
  let slugs: string[];
  const fav = (who: TestUser, body: unknown) => send(`${t.api}/dashboard-favorites`, 'POST', who.headers, body);

  before(async () => {
    t = await startApp({ env: { API_KEY_MIN_PLAN: 'free' } });
    slugs = (await getJson(`${t.api}/vendor-list`)).body.vendors.map((v: { id: string }) => v.id);
    [u, pro] = await Promise.all([createUser(t, 'free'), createUser(t, 'pro')]);
    const inc = incidentsRepository(t.store.db);
    // github: 15 recent incidents (more than a per-vendor cut), one older than a week.
    for (let i = 0; i < 15; i++) {
      await inc.upsert(incident('github', `g${i}`, { startedAt: ago((i + 1) * HOUR), status: 'resolved', impact: 'minor' }), 'f');
    }
    await inc.upsert(incident('github', 'old', { startedAt: ago(20 * DAY), status: 'resolved' }), 'f');
    await inc.upsert(incident('cloudflare', 'c1', { startedAt: ago(2 * HOUR), impact: 'major' }), 'f');
    const mnt = maintenancesRepository(t.store.db);
    await mnt.upsert(maintenance('github', 'm-later', { scheduledFor: new Date(Date.now() + 3 * DAY).toISOString() }), 'f');
    await mnt.upsert(maintenance('github', 'm-soon', { scheduledFor: new Date(Date.now() + DAY).toISOString() }), 'f');
    await mnt.upsert(maintenance('github', 'm-done', { scheduledFor: ago(2 * DAY), status: 'completed', completedAt: ago(2 * DAY - HOUR) }), 'f');
    const pub = publicationsRepository(t.store.db);
    await pub.upsertAdvisory(
      {
        id: 'cloudflare:adv1',
        vendor: 'cloudflare',
        title: 'Advisory',
        severity: 'high',
        cves: ['CVE-2026-0001'],
        publishedAt: ago(DAY),
        updatedAt: ago(DAY),
        summary: 's',
        url: null,
        source: 'advisory-feed',
      },
      'f',
    );
    await pub.upsertUpdate(
      { id: 'github:u1', vendor: 'github', title: 'Release', publishedAt: ago(30 * 60_000), summary: 's', categories: [], url: null, source: 'release-feed' },
      'f',
    );
  });
  after(async () => t.close());

  test('needs a key or a session', async () => {
    const r = await send(`${t.api}/dashboard-favorites`, 'POST', {}, { vendors: ['github'] });
    assert.equal(r.status, 401);
    assert.equal(r.body.error, 'unauthorized');
  });

  test('default sections: stats, maintenance, advisories, keyed by section then vendor', async () => {
    const r = await fav(u, { vendors: ['github', 'cloudflare', 'github'] });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.success, true);
    assert.equal(r.body.items.length, 1);
    const b = r.body.items[0];
    assert.deepEqual(b.vendors, ['github', 'cloudflare'], 'duplicates collapse, order kept');
    assert.deepEqual(b.sections, ['stats', 'maintenance', 'advisories']);
    assert.equal(b.recentActivity, undefined);
    assert.deepEqual(Object.keys(b.stats), ['github', 'cloudflare']);
    assert.equal(b.stats.github.incidentCount, 15, 'free plan: 30d default clamped to 7d, the old incident is out');
    assert.equal(b.stats.cloudflare.byImpact.major, 1);
    assert.deepEqual(
      b.maintenance.github.map((m: { id: string }) => m.id),
      ['github:m-soon', 'github:m-later'],
      'not completed, soonest first',
    );
    assert.deepEqual(b.maintenance.cloudflare, []);
    assert.deepEqual(b.advisories.github, []);
    assert.equal(b.advisories.cloudflare[0].id, 'cloudflare:adv1');
    assert.equal(b.advisories.cloudflare[0].vendorName, 'Cloudflare');
    assert.deepEqual(r.body.dataWindow, { ...r.body.dataWindow, requested: null, applied: '7d', capped: false });
  });

  test('recentActivity: merged newest first, cut per vendor without starving the others', async () => {
    const r = await fav(pro, { vendors: ['github', 'cloudflare'], sections: ['recentActivity'], timePeriod: '7d', perVendorLimit: 5 });
    assert.equal(r.status, 200);
    const b = r.body.items[0];
    assert.deepEqual(b.sections, ['recentActivity']);
    assert.equal(b.stats, undefined);
    const gh = b.recentActivity.github;
    assert.equal(gh.length, 5);
    // Upcoming maintenance sorts first (its `at` is its start), then the release note, then incidents.
    assert.deepEqual(
      gh.map((i: { kind: string }) => i.kind),
      ['maintenance', 'maintenance', 'update', 'incident', 'incident'],
    );
    for (let i = 1; i < gh.length; i++) assert.ok(gh[i - 1].at >= gh[i].at, 'newest first');
    assert.deepEqual(b.recentActivity.cloudflare.map((i: { id: string }) => i.id).sort(), ['cloudflare:adv1', 'cloudflare:c1']);
    assert.equal(b.recentActivity.cloudflare.find((i: { id: string }) => i.id === 'cloudflare:c1').durationMinutes, null);
  });

  test('timePeriod is clamped to the plan and reported', async () => {
    const r = await fav(u, { vendors: ['github'], sections: ['stats'], timePeriod: '90d' });
    assert.equal(r.body.dataWindow.applied, '7d');
    assert.equal(r.body.dataWindow.capped, true);
    const p = await fav(pro, { vendors: ['github'], sections: ['stats'], timePeriod: '90d' });
    assert.equal(p.body.dataWindow.applied, '90d');
    assert.equal(p.body.items[0].stats.github.incidentCount, 16);
  });

  test('a 1,000-vendor list (more than the whole catalog) is one request', async () => {
    const vendors = Array.from({ length: 1000 }, (_, i) => slugs[i % slugs.length]);
    const r = await fav(u, { vendors, sections: ['stats', 'maintenance', 'advisories', 'recentActivity'] });
    assert.equal(r.status, 200);
    // The list may repeat vendors: the answer covers each listed one once.
    const distinct = new Set(vendors).size;
    assert.equal(r.body.items[0].vendors.length, distinct);
    assert.equal(Object.keys(r.body.items[0].recentActivity).length, distinct);
  });

  test('bad bodies: 400 naming the problem; unknown vendors: 404 naming them', async () => {
    const cases: [unknown, string][] = [
      [{ vendors: ['github'], sections: ['stats', 'bogus'] }, 'sections[1]'],
      [{ vendors: [] }, 'vendors'],
      [{}, 'vendors'],
      [{ vendors: 'github' }, 'vendors'],
      [{ vendors: Array.from({ length: 1001 }, () => 'github') }, 'vendors'],
      [{ vendors: ['github'], sections: [] }, 'sections'],
      [{ vendors: ['github'], timePeriod: '7 days' }, 'timePeriod'],
      [{ vendors: ['github'], perVendorLimit: 0 }, 'perVendorLimit'],
      [{ vendors: ['github'], colour: 'blue' }, 'colour'],
      [{ vendors: ['Not_A_Slug'] }, 'vendors[0]'],
    ];
    for (const [body, field] of cases) {
      const r = await fav(u, body);
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.ok(r.body.message.includes(field), `${JSON.stringify(body).slice(0, 80)}: ${r.body.message}`);
    }
    const unknown = await fav(u, { vendors: ['github', 'no-such-vendor'] });
    assert.equal(unknown.status, 404);
    assert.match(unknown.body.message, /no-such-vendor/);
  });

  test('a fixed number of queries whatever the number of vendors', async () => {
    const counter = new QueryCounter();
    const counted = { ...t.store, db: t.store.db.withPlugin(counter) };
    const services = createServices(counted, t.config, { now: () => new Date() });
    const viewer = { plan: 'pro' as const, userId: pro.id, orgId: pro.id, role: 'owner' as const, authKind: 'key' as const, keyId: null };
    const all = ['stats', 'maintenance', 'advisories', 'recentActivity'] as const;
    const run = async (vendors: string[]) => {
      counter.count = 0;
      await services.favorites.bundle({ vendors, sections: [...all] }, viewer);
      return counter.count;
    };
    const two = await run(['github', 'cloudflare']);
    const many = await run(slugs);
    assert.equal(many, two, `${two} queries for 2 vendors, ${many} for ${slugs.length}`);
    // Statistics read the sources too (observation window, docs/statistics.md).
    assert.ok(two <= 11, `${two} queries`);
  });

  test('the GET endpoints point long lists to the bundle', async () => {
    const vendors = slugs.slice(0, 30).join(',');
    for (const path of [`/vendor-stats-favorites?vendor=${vendors}`, `/dashboard-recent-activity?vendor=${vendors}`]) {
      const r = await send(`${t.api}${path}`, 'GET', u.headers);
      assert.equal(r.status, 200, path);
      assert.match(r.headers.get('link') ?? '', /dashboard-favorites/);
      assert.match(r.body.hint, /dashboard-favorites/);
    }
  });
});
