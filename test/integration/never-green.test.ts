import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { SourceSnapshot } from '../../src/domain/records.ts';
import { statuspageV2Adapter } from '../../src/ingest/adapters/statuspage-v2.ts';
import { createRepositories } from '../../src/services/index.ts';
import type { SourceRow } from '../../src/store/repositories/sources-repository.ts';
import { userWithKey } from '../helpers/access.ts';
import { getJson, startApp, TestClock, type TestApp } from '../helpers/app.ts';
import { connect, textOf } from '../helpers/mcp.ts';
import { incident } from '../helpers/records.ts';
import { send } from '../helpers/users.ts';

// Never green without knowing (docs/web.md, "Summary"): a vendor never read, or
// whose sources are stale, is counted as not observed wherever a word or a colour
// sums up state (overview, boards, badges, MCP answers, the compare page), and
// readiness judges the polls made so far (docs/operations.md, "Liveness and readiness").

const MIN = 60_000;
const HOUR = 60 * MIN;
const OWNER = 'never-green-test';

function headline(page: string): { tone: string; text: string } {
  const m = page.match(/<div class="summary summary--(\w+)" data-live-id="summary">\s*<p class="summary__headline">([^<]*)<\/p>/);
  assert.ok(m, 'the page has a summary');
  return { tone: m[1], text: m[2] };
}

describe('never green without knowing', () => {
  let t: TestApp;
  let clock: TestClock;
  let repos: ReturnType<typeof createRepositories>;
  let boardUrl: string;

  before(async () => {
    clock = new TestClock(new Date('2026-03-10T12:00:00Z'));
    // Live ingestion configured but no ingest role: no source is read unless the test says so.
    t = await startApp({ clock, env: { INGEST: 'live', ROLES: 'api,deliver', DELIVER: 'off' } });
    repos = createRepositories(t.store);
    const owner = await userWithKey(t, 'pro', 'never-green');
    const h = { 'x-api-key': owner.secret };
    assert.equal((await send(`${t.api}/watchlist`, 'PUT', h, { vendors: ['github', 'cloudflare', 'hetzner'] })).status, 200);
    const made = await send(`${t.url}/api/v1/boards`, 'POST', h, { title: 'Our vendors' });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    boardUrl = made.body.url;
  });
  after(async () => t?.close());

  async function claim(vendor: string): Promise<SourceRow> {
    const sources = await repos.sources.list(vendor);
    const src = sources.find((s) => s.url.includes('summary.json')) ?? sources[0];
    assert.ok(src, `${vendor} has a source`);
    const row = await repos.sources.claimOne(src.id, { owner: OWNER, now: clock.now(), leaseMs: MIN, force: true });
    assert.ok(row);
    return row;
  }

  async function pollOk(vendor: string, snapshot: SourceSnapshot) {
    const src = await claim(vendor);
    const at = clock.now();
    await t.app.services.ingest.applySnapshot(
      { id: src.id, vendor, type: src.type, lastSuccessAt: src.lastSuccessAt, etag: null, lastModified: null },
      snapshot,
      { owner: OWNER, polledAt: at, durationMs: 5, nextPollAt: new Date(at.getTime() + MIN) },
    );
  }

  async function pollFails(vendor: string) {
    const src = await claim(vendor);
    const at = clock.now();
    await t.app.services.ingest.recordFailure(
      { id: src.id, vendor, type: src.type, lastSuccessAt: src.lastSuccessAt, etag: null, lastModified: null },
      { owner: OWNER, polledAt: at, durationMs: 5, nextPollAt: new Date(at.getTime() + MIN), error: 'connect ECONNREFUSED' },
    );
  }

  /** A Statuspage summary.json saying all is well. */
  const allOperational = (vendor: string) =>
    statuspageV2Adapter.parse({
      vendor,
      url: 'https://status.example.com/api/v2/summary.json',
      now: clock.now(),
      body: Buffer.from(
        JSON.stringify({
          page: { id: 'p1', name: vendor, url: 'https://status.example.com', time_zone: 'Etc/UTC', updated_at: clock.now().toISOString() },
          components: [{ id: 'c1', name: 'API', status: 'operational', position: 1 }],
          incidents: [],
          scheduled_maintenances: [],
          status: { indicator: 'none', description: 'All Systems Operational' },
        }),
      ),
    });

  async function mcpText(name: string, args: Record<string, unknown>): Promise<string> {
    const c = await connect(`${t.url}/mcp`);
    try {
      return textOf(await c.client.callTool({ name, arguments: args }));
    } finally {
      await c.close();
    }
  }

  test('no source ever read: the overview, a board and MCP say not observed, never "all operational"', async () => {
    // The catalog's vendors without a machine-readable source are counted apart, as not monitored.
    const overview = headline(await (await fetch(`${t.url}/`)).text());
    const m = overview.text.match(/^(\d+) of (\d+) vendors not observed; (\d+) not monitored$/);
    assert.ok(m, overview.text);
    assert.equal(Number(m[1]) + Number(m[3]), Number(m[2]));
    assert.equal(overview.tone, 'unknown');

    const board = headline(await (await fetch(boardUrl)).text());
    assert.deepEqual(board, { tone: 'unknown', text: '2 of 3 vendors not observed; 1 not monitored' });

    const badge = await getJson(`${t.url}/badges/hetzner.json`);
    assert.deepEqual([badge.body.message, badge.body.color], ['not monitored', 'lightgrey']);

    const active = await mcpText('get_active_incidents', {});
    assert.match(active, /^No ongoing incidents known across all watched vendors\.$/m, active);
    assert.match(active, /^Not observed: (\d+) of (\d+) vendors \(never read, or stale\)/m, active);
    assert.match(active, /^Not monitored: (\d+) of (\d+) vendors \(no machine-readable status source\)/m, active);
    const scoped = await mcpText('get_active_incidents', { vendors: ['github', 'hetzner'] });
    assert.match(scoped, /^Not observed: 1 of 2 vendors/m, scoped);
    assert.match(scoped, /^Not monitored: 1 of 2 vendors \(no machine-readable status source\)/m, scoped);
  });

  test('a vendor read once, then failing past the stale threshold, is not green anywhere', async () => {
    await pollOk('github', allOperational('github'));
    await pollOk('cloudflare', allOperational('cloudflare'));
    await pollFails('cloudflare');
    await pollFails('datadog');
    clock.advance(16 * MIN);
    await pollFails('cloudflare');
    await pollFails('datadog');

    // GitHub read and fine, Cloudflare stale, Hetzner not monitored (the catalog lists no source for it).
    const page = await (await fetch(boardUrl)).text();
    assert.deepEqual(headline(page), { tone: 'unknown', text: '1 of 3 vendors not observed; 1 not monitored; the other 1 operational' });
    const cloudflareCard = page.match(/<li class="vendor-card[^"]*"[^>]*data-vendor="cloudflare"[\s\S]*?<\/li>/)?.[0] ?? '';
    assert.match(cloudflareCard, /data-source-health="stale"><span class="pill pill--unknown">Stale<\/span> not read since/);
    assert.match(cloudflareCard, /^<li class="vendor-card vendor-card--operational vendor-card--stale"/, 'the last state read, not in its colour');

    const home = await (await fetch(`${t.url}/`)).text();
    const overview = headline(home);
    assert.match(overview.text, /^(\d+) of (\d+) vendors not observed; (\d+) not monitored; the other 1 operational$/, overview.text);
    // A source that failed every time is "never read", not "not read since ever".
    assert.doesNotMatch(home, /since ever/);
    const datadogCard = home.match(/<li class="vendor-card[^"]*"[^>]*data-vendor="datadog"[\s\S]*?<\/li>/)?.[0] ?? '';
    assert.match(datadogCard, /data-source-health="stale"><span class="pill pill--unknown">Never read<\/span> every attempt failed/);

    const vendorPage = await (await fetch(`${t.url}/vendors/cloudflare`)).text();
    assert.match(vendorPage, /All components operational when last read\./);
    assert.match(vendorPage, /<section class="status-banner status-banner--operational status-banner--stale"/);

    // Badges: the last state read of a stale vendor is not shown green.
    const json = await getJson(`${t.url}/badges/cloudflare.json`);
    assert.deepEqual([json.body.message, json.body.color], ['stale', 'lightgrey']);
    const svg = await (await fetch(`${t.url}/badges/cloudflare.svg`)).text();
    assert.match(svg, /stale/);
    assert.doesNotMatch(svg, /operational/);
    const component = await getJson(`${t.url}/badges/cloudflare/API.json`);
    assert.deepEqual([component.body.message, component.body.color], ['stale', 'lightgrey']);
    const fresh = await getJson(`${t.url}/badges/github.json`);
    assert.deepEqual([fresh.body.message, fresh.body.color], ['operational', 'brightgreen']);

    // Prometheus: a stale vendor's gauge is -1 (unknown), not the 0 (operational) last read.
    const metrics = await (await fetch(`${t.url}/metrics`)).text();
    assert.match(metrics, /^vis_vendor_status\{vendor="cloudflare"\} -1$/m);
    assert.match(metrics, /^vis_vendor_status\{vendor="github"\} 0$/m);

    const status = await mcpText('get_vendor_status', { vendor: 'cloudflare' });
    assert.match(
      status,
      /^Cloudflare: not observed, its status page has not been read since .*; last read: All Systems Operational \(operational\)\.$/m,
      status,
    );
    assert.doesNotMatch(status, /^No ongoing incidents\.$/m);
    assert.match(status, /All 1 components operational when last read\./);
    const never = await mcpText('get_vendor_status', { vendor: 'datadog' });
    assert.match(never, /^Datadog: not observed, its status page has never been read/m, never);

    // Only observed, operational vendors: nothing to add.
    const observedOnly = await mcpText('get_active_incidents', { vendors: ['github'] });
    assert.match(observedOnly, /^No ongoing incidents for GitHub\.$/m, observedOnly);
    assert.doesNotMatch(observedOnly, /Not observed/);
  });

  test('the compare page draws a low uptime in the colour of a poor uptime, not green', async () => {
    // GitHub observed for 50 hours (more than the quarter of 7 days needed for a figure,
    // docs/statistics.md "Minimum observed share"), a major outage for the last 34: 32 % uptime.
    clock.advance(50 * HOUR - 16 * MIN);
    await pollOk('github', allOperational('github'));
    const started = new Date(clock.now().getTime() - 34 * HOUR).toISOString();
    await repos.incidents.upsert(incident('github', 'ng-1', { impact: 'major', status: 'investigating', startedAt: started }), 'f');
    const stats = await getJson(`${t.api}/vendor-stats/github?timePeriod=7d`);
    assert.equal(stats.body.items[0].badge, 'poor');
    const page = await (await fetch(`${t.url}/compare?vendors=github,hetzner`)).text();
    const chart = page.match(/<figure class="chart chart--dots" id="compare-uptime">[\s\S]*?<\/figure>/)?.[0] ?? '';
    const dots = [...chart.matchAll(/<circle class="([^"]*)"/g)].map((m) => m[1]);
    assert.deepEqual(dots, ['chart__dot chart__dot--down'], 'one dot (Hetzner is not monitored), in the poor colour');
  });
});

describe('readiness judges the polls made so far', () => {
  let t: TestApp;
  let repos: ReturnType<typeof createRepositories>;

  before(async () => {
    t = await startApp({ env: { INGEST: 'live', ROLES: 'api,deliver', DELIVER: 'off' } });
    repos = createRepositories(t.store);
  });
  after(async () => t?.close());

  const ingest = async () => (await getJson(`${t.url}/readyz`)).body;

  async function fail(sources: SourceRow[]) {
    const now = new Date().toISOString();
    for (const s of sources) {
      const row = await repos.sources.claimOne(s.id, { owner: OWNER, now: new Date(), leaseMs: MIN, force: true });
      assert.ok(row);
      await repos.sources.completeFailure(s.id, OWNER, { at: now, error: 'connect ECONNREFUSED', durationMs: 5, nextPollAt: now });
    }
  }

  test('an offline start: the first polls all failed, so ingestion is not ready long before half the catalog was tried', async () => {
    const all = await repos.sources.list();
    assert.ok(all.length > 100, 'the catalog has many sources');
    assert.equal((await ingest()).status, 'ready', 'nothing polled yet: nothing to judge');

    await fail(all.slice(0, 4));
    assert.equal((await ingest()).status, 'ready', 'four failed polls are too few to judge');

    await fail(all.slice(4, 5));
    const r = await ingest();
    assert.equal(r.status, 'degraded');
    assert.deepEqual(
      r.checks.find((c: any) => c.name === 'ingest'),
      { name: 'ingest', ok: false, error: 'most_sources_failing' },
    );
  });
});
