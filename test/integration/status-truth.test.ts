import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { SourceSnapshot } from '../../src/domain/records.ts';
import { statuspageV2Adapter } from '../../src/ingest/adapters/statuspage-v2.ts';
import { createRepositories } from '../../src/services/index.ts';
import type { SourceRow } from '../../src/store/repositories/sources-repository.ts';
import { getJson, startApp, TestClock, type TestApp } from '../helpers/app.ts';
import { incident, maintenance } from '../helpers/records.ts';

// Truth of what is shown about vendors (docs/statistics.md, docs/operations.md
// "Source health", docs/ingestion.md, docs/mappings.md): no rating without
// observation, stale sources and failing ingestion visible, maintenance windows
// that left the lists completed, one wording per indicator, skipCache honoured.

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const OWNER = 'status-truth-test';

describe('status truth', () => {
  let t: TestApp;
  let clock: TestClock;
  let repos: ReturnType<typeof createRepositories>;

  before(async () => {
    clock = new TestClock(new Date('2026-03-10T12:00:00Z'));
    // Live ingestion configured (readiness watches it) but no ingest role: nothing polls by itself.
    t = await startApp({ clock, env: { INGEST: 'live', ROLES: 'api,deliver', DELIVER: 'off' } });
    repos = createRepositories(t.store);
  });
  after(async () => t.close());

  async function claim(vendor: string, urlPart: string): Promise<SourceRow> {
    const src = (await repos.sources.list(vendor)).find((s) => s.url.includes(urlPart));
    assert.ok(src, `${vendor} has a source ${urlPart}`);
    const row = await repos.sources.claimOne(src.id, { owner: OWNER, now: clock.now(), leaseMs: MIN, force: true });
    assert.ok(row);
    return row;
  }

  async function pollOk(vendor: string, urlPart: string, snapshot: SourceSnapshot = {}) {
    const src = await claim(vendor, urlPart);
    const at = clock.now();
    return t.app.services.ingest.applySnapshot(
      { id: src.id, vendor, type: src.type, lastSuccessAt: src.lastSuccessAt, etag: null, lastModified: null },
      snapshot,
      { owner: OWNER, polledAt: at, durationMs: 5, nextPollAt: new Date(at.getTime() + MIN) },
    );
  }

  async function pollFails(vendor: string, urlPart: string) {
    const src = await claim(vendor, urlPart);
    const at = clock.now();
    await t.app.services.ingest.recordFailure(
      { id: src.id, vendor, type: src.type, lastSuccessAt: src.lastSuccessAt, etag: null, lastModified: null },
      { owner: OWNER, polledAt: at, durationMs: 5, nextPollAt: new Date(at.getTime() + MIN), error: 'HTTP 503' },
    );
  }

  /** A Statuspage summary.json as documented (page, status, components, incidents, scheduled_maintenances). */
  const summary = (indicator: string, description: string, maintenances: object[] = []) =>
    statuspageV2Adapter.parse({
      vendor: 'github',
      url: 'https://www.githubstatus.com/api/v2/summary.json',
      now: clock.now(),
      body: Buffer.from(
        JSON.stringify({
          page: { id: 'kctbh9vrtdwd', name: 'GitHub', url: 'https://www.githubstatus.com', time_zone: 'Etc/UTC', updated_at: clock.now().toISOString() },
          components: [],
          incidents: [],
          scheduled_maintenances: maintenances,
          status: { indicator, description },
        }),
      ),
    });

  test('a vendor never polled has no uptime and badge unknown; aggregates leave it out', async () => {
    // An incident we know of, but the vendor was never observed.
    await repos.incidents.upsert(
      incident('stripe', 'x1', { impact: 'minor', status: 'resolved', startedAt: new Date(clock.now().getTime() - 2 * DAY).toISOString() }),
      'f',
    );
    const never = await getJson(`${t.api}/vendor-stats/stripe?timePeriod=7d`);
    assert.equal(never.status, 200);
    assert.equal(never.body.items[0].uptimePercent, null);
    assert.equal(never.body.items[0].badge, 'unknown');
    assert.notEqual(never.body.items[0].badge, 'excellent');

    // Observed from its first successful poll onwards; an hour of seven days is not enough data
    // (docs/statistics.md "Minimum observed share") ...
    await pollOk('github', 'summary.json', summary('none', 'All Systems Operational'));
    clock.advance(HOUR);
    const early = await getJson(`${t.api}/vendor-stats/github?timePeriod=7d`);
    assert.deepEqual([early.body.items[0].uptimePercent, early.body.items[0].badge, early.body.items[0].observedPercent], [null, 'unknown', 0.6]);
    // ... two days with no incident are 100 %.
    clock.advance(2 * DAY - HOUR);
    await pollOk('github', 'summary.json', summary('none', 'All Systems Operational'));
    const watched = await getJson(`${t.api}/vendor-stats/github?timePeriod=7d`);
    assert.equal(watched.body.items[0].uptimePercent, 100);
    assert.equal(watched.body.items[0].badge, 'excellent');

    const agg = await getJson(`${t.api}/vendor-stats-aggregate?timePeriod=7d`);
    const a = agg.body.items[0];
    assert.equal(a.averageUptimePercent, 100, 'only observed vendors are averaged');
    assert.equal(a.badges.excellent, 1);
    assert.equal(a.badges.unknown, a.vendorCount - 1);

    const fav = await getJson(`${t.api}/vendor-stats-favorites?vendor=github,stripe&timePeriod=7d`);
    assert.deepEqual(
      fav.body.items.map((s: any) => [s.vendor, s.badge]),
      [
        ['github', 'excellent'],
        ['stripe', 'unknown'],
      ],
    );
  });

  test('the web shows no data, not a green bar, for a vendor never observed', async () => {
    const page = await (await fetch(`${t.url}/vendors/datadog`)).text();
    assert.match(page, /<strong>Not enough data<\/strong>/);
    assert.doesNotMatch(page, /uptime-bar__day--ok/);
    assert.match(page, /uptime-bar__day--nodata/);
    assert.match(page, /data-source-health="never"/);
    // A vendor without a machine-readable source is not "not read yet": it is not monitored.
    const hetzner = await (await fetch(`${t.url}/vendors/hetzner`)).text();
    assert.match(hetzner, /data-source-health="not-monitored">Not monitored: no machine-readable status source\./);
    assert.doesNotMatch(hetzner, /has not been read yet/);
    assert.doesNotMatch(hetzner, /uptime-bar__day--ok/);
  });

  test('a source failing past the threshold is stale in /vendor-status and on the web', async () => {
    await pollFails('cloudflare', 'summary.json');
    const fresh = await getJson(`${t.api}/vendor-status/cloudflare?skipCache=true`);
    assert.equal(fresh.body.items[0].sourceHealth.stale, false, 'one failure is not stale yet');
    clock.advance(16 * MIN);
    await pollFails('cloudflare', 'summary.json');
    const stale = await getJson(`${t.api}/vendor-status/cloudflare?skipCache=true`);
    assert.equal(stale.body.items[0].sourceHealth.stale, true);
    assert.equal(stale.body.items[0].sourceHealth.lastError, 'HTTP 503');
    const page = await (await fetch(`${t.url}/vendors/cloudflare`)).text();
    assert.match(page, /data-source-health="stale"/);
    const overview = await (await fetch(`${t.url}/`)).text();
    assert.match(overview, /data-vendor="cloudflare"[\s\S]*?data-source-health="stale"/);
    // Succeeding again clears it.
    await pollOk('cloudflare', 'summary.json', {});
    const ok = await getJson(`${t.api}/vendor-status/cloudflare?skipCache=true`);
    assert.equal(ok.body.items[0].sourceHealth.stale, false);
  });

  test('skipCache=true bypasses the vendor-status cache; unknown parameters are refused before the cache', async () => {
    const first = await fetch(`${t.api}/vendor-status/github`);
    assert.equal(first.status, 200);
    const skipped = await fetch(`${t.api}/vendor-status/github?skipCache=true`);
    assert.equal(skipped.status, 200);
    assert.equal(skipped.headers.get('x-cache'), 'BYPASS');
    const unknown = await fetch(`${t.api}/vendor-status/github?utm_source=x`);
    assert.equal(unknown.status, 400);
    assert.equal(unknown.headers.get('x-cache'), null);
    assert.equal((await unknown.json()).parameter, 'utm_source');
    const second = await fetch(`${t.api}/vendor-status/github`);
    assert.equal(second.headers.get('x-cache'), 'HIT');
  });

  test('status descriptions are worded the same whatever the source format', async () => {
    // Statuspage says "Partially Degraded Service" for its minor indicator.
    clock.advance(MIN);
    await pollOk('github', 'summary.json', summary('minor', 'Partially Degraded Service'));
    // Google Cloud publishes no page status: the indicator comes from an open minor incident.
    await repos.incidents.upsert(incident('google-cloud', 'g1', { impact: 'minor', status: 'investigating', startedAt: clock.now().toISOString() }), 'f');
    const gh = await getJson(`${t.api}/vendor-status/github?skipCache=true`);
    const gc = await getJson(`${t.api}/vendor-status/google-cloud?skipCache=true`);
    assert.equal(gh.body.items[0].indicator, 'degraded');
    assert.equal(gc.body.items[0].indicator, 'degraded');
    assert.equal(gh.body.items[0].description, gc.body.items[0].description);
  });

  test('a maintenance that left the summary is completed once its window is over', async () => {
    const start = new Date(clock.now().getTime() - 10 * MIN).toISOString();
    const end = new Date(clock.now().getTime() + 20 * MIN).toISOString();
    const inProgress = {
      id: 'w1n2d3w4',
      name: 'Database failover',
      status: 'in_progress',
      impact: 'maintenance',
      created_at: new Date(clock.now().getTime() - DAY).toISOString(),
      updated_at: start,
      started_at: new Date(clock.now().getTime() - DAY).toISOString(),
      resolved_at: null,
      shortlink: 'https://stspg.io/w1n2d3w4',
      scheduled_for: start,
      scheduled_until: end,
      incident_updates: [{ id: 'u1', status: 'in_progress', body: 'Scheduled maintenance is currently in progress.', created_at: start, display_at: start }],
      components: [],
    };
    await pollOk('github', 'summary.json', summary('maintenance', 'Service Under Maintenance', [inProgress]));
    let status = await getJson(`${t.api}/vendor-status/github?skipCache=true`);
    assert.deepEqual(
      status.body.items[0].activeMaintenance.map((m: any) => m.id),
      ['github:w1n2d3w4'],
    );

    // Gone from the summary before its end: left as it is.
    clock.advance(5 * MIN);
    await pollOk('github', 'summary.json', summary('none', 'All Systems Operational'));
    assert.equal((await repos.maintenances.getMany(['github:w1n2d3w4'])).get('github:w1n2d3w4')!.record.status, 'in_progress');

    // Still gone after its end: completed at the announced end, announced once.
    clock.advance(30 * MIN);
    const r = await pollOk('github', 'summary.json', summary('none', 'All Systems Operational'));
    assert.deepEqual(
      r.events.map((e) => [e.type, e.entityId]),
      [['maintenance.completed', 'github:w1n2d3w4']],
    );
    const stored = (await repos.maintenances.getMany(['github:w1n2d3w4'])).get('github:w1n2d3w4')!.record;
    assert.equal(stored.status, 'completed');
    assert.equal(stored.completedAt, new Date(Date.parse(end)).toISOString());
    status = await getJson(`${t.api}/vendor-status/github?skipCache=true`);
    assert.deepEqual(status.body.items[0].activeMaintenance, []);
  });

  test('a window that ended long ago is never active', async () => {
    await repos.maintenances.upsert(
      maintenance('github', 'old', {
        status: 'in_progress',
        scheduledFor: '2021-05-01T01:00:00.000Z',
        scheduledUntil: '2021-05-01T03:00:00.000Z',
        startedAt: '2021-05-01T01:00:00.000Z',
      }),
      'f',
    );
    await repos.maintenances.upsert(
      maintenance('github', 'oldsched', { status: 'scheduled', scheduledFor: '2021-06-01T01:00:00.000Z', scheduledUntil: null }),
      'f',
    );
    const status = await getJson(`${t.api}/vendor-status/github?skipCache=true`);
    assert.deepEqual(status.body.items[0].activeMaintenance, []);
    const agg = await getJson(`${t.api}/vendor-stats-aggregate?timePeriod=7d`);
    assert.equal(agg.body.items[0].activeMaintenance, 0);
  });

  test('/readyz is degraded when no poll succeeded for several intervals, and when most sources fail', async () => {
    let r = await getJson(`${t.url}/readyz`);
    assert.equal(r.body.status, 'ready');
    clock.advance(20 * MIN);
    r = await getJson(`${t.url}/readyz`);
    assert.equal(r.status, 200);
    assert.equal(r.body.status, 'degraded');
    assert.deepEqual(
      r.body.checks.find((c: any) => c.name === 'ingest'),
      { name: 'ingest', ok: false, error: 'no_recent_poll' },
    );

    await pollOk('github', 'summary.json', {});
    r = await getJson(`${t.url}/readyz`);
    assert.equal(r.body.status, 'ready');

    // Every source fails: still serving (200), but degraded.
    const all = await repos.sources.claim({ owner: OWNER, now: clock.now(), leaseMs: MIN, force: true });
    for (const s of all) {
      await repos.sources.completeFailure(s.id, OWNER, {
        at: clock.now().toISOString(),
        error: 'HTTP 503',
        durationMs: 5,
        nextPollAt: clock.now().toISOString(),
      });
    }
    r = await getJson(`${t.url}/readyz`);
    assert.equal(r.status, 200);
    assert.equal(r.body.status, 'degraded');
    assert.deepEqual(
      r.body.checks.find((c: any) => c.name === 'ingest'),
      { name: 'ingest', ok: false, error: 'most_sources_failing' },
    );
  });
});
