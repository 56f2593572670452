// @store-independent: the vendor simulator, no store; runs in one CI leg only (docs/testing.md, "Tiers").
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { parseSource } from '../../../src/ingest/adapters/index.ts';
import { createSimulator } from '../../../src/ingest/simulator/index.ts';
import { readCatalog } from '../../../src/services/vendors/catalog-loader.ts';
import { TestClock } from '../../helpers/app.ts';
import { QUIET, startFleet, type TestFleet } from '../../helpers/fleet.ts';

// The simulated fleet speaks the real formats: whatever it serves, the adapters read
// back as the fleet's own state. It answers conditional requests like a real page
// and is reproducible from its seed.

describe('simulated vendor fleet', () => {
  const clock = new TestClock(new Date('2026-06-01T12:00:00.000Z'));
  let fleet: TestFleet;
  const vendors = [
    'github',
    'openai',
    'perplexity',
    'google-cloud',
    'microsoft-azure',
    'amazon-web-services',
    'hugging-face',
    'mistral-ai',
    'tailscale',
    'gitlab',
  ];

  before(async () => {
    fleet = await startFleet(vendors, { clock, history: true, seed: 3 });
    for (const v of vendors) fleet.sim.fleet.openIncident(v, { impact: 'major' });
    fleet.sim.fleet.scheduleMaintenance('github', { startsInMs: 600_000, durationMs: 600_000 });
  });
  after(async () => fleet.close());

  const poll = async (vendor: string, type: string, url: string) => {
    const res = await fetch(url);
    assert.equal(res.status, 200, url);
    const body = Buffer.from(await res.arrayBuffer());
    return parseSource(type as never, { vendor, url, body, contentType: res.headers.get('content-type'), now: clock.now() });
  };

  test('every source of every vendor parses through its adapter and matches the fleet', async () => {
    const seenTypes = new Set<string>();
    for (const v of fleet.catalog) {
      const state = fleet.sim.fleet.vendors.get(v.slug)!;
      const open = state.incidents
        .filter((i) => i.status !== 'resolved')
        .map((i) => i.id)
        .sort();
      for (const s of v.sources) {
        seenTypes.add(s.type);
        const snap = await poll(v.slug, s.type, s.url);
        if (s.type === 'advisory-feed') {
          assert.deepEqual(snap.advisories!.map((a) => a.id).sort(), state.advisories.map((a) => a.id).sort());
          assert.deepEqual(snap.advisories![0]!.cves, state.advisories.find((a) => a.id === snap.advisories![0]!.id)!.cves);
          continue;
        }
        if (s.type === 'release-feed') {
          assert.deepEqual(snap.updates!.map((u) => u.id).sort(), state.updates.map((u) => u.id).sort());
          continue;
        }
        if (s.url.endsWith('/scheduled-maintenances.json')) {
          assert.deepEqual(snap.maintenances!.map((m) => m.id).sort(), state.maintenances.map((m) => m.id).sort());
          continue;
        }
        assert.ok(snap.incidents, `${s.url} lists incidents`);
        const listedOpen = snap
          .incidents!.filter((i) => i.status !== 'resolved')
          .map((i) => i.id)
          .sort();
        assert.deepEqual(listedOpen, open, `${s.type} ${s.url}: open incidents`);
        const major = snap.incidents!.find((i) => open.includes(i.id))!;
        assert.equal(major.title, state.incidents.find((i) => i.id === major.id)!.title);
      }
    }
    for (const t of [
      'statuspage-v2',
      'incidentio',
      'instatus',
      'gcp-json',
      'azure-rss',
      'statuspage-rss',
      'statuspage-atom',
      'advisory-feed',
      'release-feed',
    ]) {
      assert.ok(seenTypes.has(t), `format ${t} served`);
    }
  });

  test('Statuspage summary carries status, components and pending maintenance', async () => {
    const url = fleet.catalog.find((v) => v.slug === 'github')!.sources.find((s) => s.url.endsWith('/summary.json'))!.url;
    const snap = await poll('github', 'statuspage-v2', url);
    assert.equal(snap.status!.indicator, 'partial_outage');
    assert.equal(snap.incidentsAreCompleteUnresolvedSet, true);
    assert.ok(snap.components!.some((c) => c.status === 'partial_outage'));
    assert.equal(snap.maintenances!.length, 1);
    assert.equal(snap.maintenances![0]!.status, 'scheduled');
  });

  test('answers conditional requests with 304 until the vendor changes, and gzips on request', async () => {
    const url = fleet.catalog.find((v) => v.slug === 'github')!.sources[0]!.url;
    const first = await fetch(url, { headers: { 'accept-encoding': 'gzip' } });
    assert.equal(first.headers.get('content-encoding'), 'gzip');
    await first.arrayBuffer();
    const etag = first.headers.get('etag')!;
    const lastModified = first.headers.get('last-modified')!;
    assert.equal((await fetch(url, { headers: { 'if-none-match': etag } })).status, 304);
    assert.equal((await fetch(url, { headers: { 'if-modified-since': lastModified } })).status, 304);
    clock.advance(5_000);
    fleet.sim.fleet.openIncident('github');
    const changed = await fetch(url, { headers: { 'if-none-match': etag } });
    assert.equal(changed.status, 200);
    assert.notEqual(changed.headers.get('etag'), etag);
  });

  test('links point at the simulator’s own pages, which say they are simulated', async () => {
    const url = fleet.catalog.find((v) => v.slug === 'perplexity')!.sources[0]!.url;
    const snap = await poll('perplexity', 'instatus', url);
    const link = snap.incidents![0]!.url!;
    assert.ok(link.startsWith(fleet.sim.url));
    const page = await (await fetch(link)).text();
    assert.match(page, /Simulated data/);
  });

  test('the same seed and clock give the same fleet, step after step', () => {
    const catalog = readCatalog().filter((v) => vendors.includes(v.slug));
    const make = () => createSimulator({ catalog, clock: new TestClock(new Date('2026-06-01T12:00:00.000Z')), seed: 42, history: true, tag: 'x' });
    const a = make();
    const b = make();
    for (let i = 0; i < 30; i++) assert.deepEqual(a.step(), b.step());
    assert.deepEqual([...a.fleet.vendors.values()], [...b.fleet.vendors.values()]);
    const quiet = createSimulator({ catalog, clock, seed: 42, rates: QUIET });
    for (let i = 0; i < 10; i++) assert.deepEqual(quiet.step(), []);
  });
});
