import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { buildApp } from '../../../src/app.ts';
import { ConfigError, loadConfig } from '../../../src/infra/config.ts';
import { openStore } from '../../../src/store/db.ts';
import { startApp, TestClock, type TestApp } from '../../helpers/app.ts';
import { api, eventsOf } from '../../helpers/fleet.ts';
import { incident } from '../../helpers/records.ts';

// Demo mode: the app starts the simulated fleet itself, points the catalog at it and
// polls it through the real fetcher and adapters. Rounds are driven explicitly here
// (INGEST=off); `npm run demo` runs the same with the scheduler and the fleet's timer.

describe('demo mode', () => {
  const clock = new TestClock(new Date('2026-05-04T09:00:00.000Z'));
  let t: TestApp;

  // A test about one vendor polls only that vendor after the first full round: a round of
  // the whole catalog is most of what this file costs (docs/testing.md, "Speed").
  const round = async (vendor?: string) => {
    clock.advance(15_000);
    return t.app.ingest.scheduler.runRound({ force: true, vendor });
  };

  before(async () => {
    t = await startApp({ clock, env: { DEMO: 'true', DEMO_SEED: '5' } });
  });
  after(async () => t.close());

  test('every catalog source points at the loopback simulator', async () => {
    const sim = t.app.ingest.simulator!;
    assert.ok(sim, 'the simulator runs in demo mode');
    const sources = await t.repos.sources.list();
    assert.ok(sources.length > 150);
    for (const s of sources) assert.ok(s.url.startsWith(`${sim.url}/`), s.url);
  });

  test('one round fills incidents, maintenance, advisories, release notes and status', async () => {
    const report = await round();
    assert.deepEqual(
      report.outcomes.filter((o) => o.status === 'failed').map((o) => `${o.url}: ${o.error}`),
      [],
    );

    const incidents = await api(t, '/incidents?limit=200');
    assert.equal(incidents.body.source, 'demo');
    assert.ok(incidents.body.total > 20);
    assert.ok(incidents.body.items.every((i: any) => i.source === 'demo'));
    assert.ok((await api(t, '/maintenance?limit=200')).body.total > 5);
    const advisories = await api(t, '/advisories-unified');
    assert.ok(advisories.body.total > 3);
    assert.ok(advisories.body.items.every((a: any) => a.cves.every((c: string) => c.startsWith('CVE-2099-'))));
    assert.ok((await api(t, '/vendors/github/updates')).body.items.length > 0);
    const status = (await api(t, '/vendor-status/github')).body;
    assert.equal(status.source, 'demo');
    assert.ok(status.items[0].components.length >= 3);
    assert.ok(status.items[0].sourceHealth.lastSuccessAt);
    assert.notEqual(status.items[0].indicator, 'unknown');
  });

  test('an incident the simulator resolves shows resolved after the next poll, with one incident.resolved event', async () => {
    const inc = t.app.ingest.simulator!.fleet.openIncident('cloudflare', { impact: 'major' });
    await round('cloudflare');
    assert.equal(
      (await api(t, '/incidents?vendor=cloudflare&activeOnly=true')).body.items.some((i: any) => i.id === inc.id),
      true,
    );
    t.app.ingest.simulator!.fleet.resolveIncident(inc.id);
    await round('cloudflare');
    await round('cloudflare');
    const item = (await api(t, '/incidents?vendor=cloudflare&limit=200')).body.items.find((i: any) => i.id === inc.id);
    assert.equal(item.status, 'resolved');
    const types = (await eventsOf(t, inc.id)).map((e) => e.type);
    assert.deepEqual(types, ['incident.created', 'incident.resolved']);
  });

  test('a dead source shows in sourceHealth while the rest keep updating', async () => {
    const sim = t.app.ingest.simulator!;
    const [dead] = await t.repos.sources.list('openai');
    sim.setFault(dead!.url, { kind: 'status', status: 502 });
    const news = sim.fleet.openIncident('github');
    await round();
    const openai = (await api(t, '/vendor-status/openai')).body.items[0];
    assert.equal(openai.sourceHealth.lastError, 'HTTP 502');
    assert.ok(openai.sourceHealth.lastErrorAt > openai.sourceHealth.lastSuccessAt);
    assert.ok((await api(t, '/incidents?vendor=github&activeOnly=true')).body.items.some((i: any) => i.id === news.id));
    sim.clearFaults();
  });

  test('the fleet moves on by itself: steps open, progress and resolve incidents', async () => {
    const sim = t.app.ingest.simulator!;
    const kinds = new Set<string>();
    for (let i = 0; i < 40; i++) {
      clock.advance(5_000);
      for (const c of sim.step()) kinds.add(c.kind);
    }
    for (const k of ['incident.opened', 'incident.progressed', 'incident.resolved']) assert.ok(kinds.has(k), k);
    const before = await t.repos.events.latestSeq();
    await round();
    assert.ok((await t.repos.events.latestSeq()) > before);
  });

  test('a normal start on the same store never shows the simulated data', async () => {
    const live = await startApp({ clock, shareStoreWith: t });
    try {
      const incidents = await api(live, '/incidents?timePeriod=30d');
      assert.equal(incidents.body.source, 'live');
      assert.equal(incidents.body.total, 0);
      assert.equal((await api(live, '/advisories-unified?timePeriod=90d')).body.total, 0);
      assert.equal(await live.repos.events.latestSeq(), 0);
      const sources = await live.repos.sources.list();
      assert.ok(sources.every((s) => !s.url.startsWith('http://127.0.0.1') && s.lastSuccessAt === null));
    } finally {
      await live.close();
    }
  });
});

describe('demo mode settings', () => {
  test('demo data defaults to a directory of its own', () => {
    assert.match(loadConfig({ DEMO: 'true' }).dataDir, /data[/\\]demo$/);
    assert.match(loadConfig({}).dataDir, /data$/);
    assert.equal(loadConfig({ DEMO: 'true', DATA_DIR: '/tmp/x' }).dataDir, '/tmp/x');
    assert.equal(loadConfig({ DEMO: 'true' }).pollIntervalSeconds, 10);
    assert.equal(loadConfig({}).pollIntervalSeconds, 30);
  });

  test('demo mode refuses a store that holds live data', async () => {
    const live = await startApp();
    try {
      await live.repos.incidents.upsert(incident('github', 'real'), 'f');
      const config = { ...live.config, demo: true };
      const store = openStore(config);
      try {
        await assert.rejects(buildApp(config, { store }), (err: unknown) => err instanceof ConfigError && err.variable === 'DEMO');
      } finally {
        await store.close();
      }
      assert.ok(await live.repos.incidents.get('github:real'), 'live data untouched');
    } finally {
      await live.close();
    }
  });
});
