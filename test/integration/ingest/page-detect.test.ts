import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { createHttpFetcher } from '../../../src/infra/fetch.ts';
import { pageDetector } from '../../../src/ingest/page-detect.ts';

// Detection of a user-added page (docs/per-user.md "Detection") against pages on a real
// HTTP listener, one per platform, each answering only the endpoint its platform
// documents, with bodies written here in each platform's public format.

const ULID = '01HZX3Q5V7W8Y9Z0A1B2C3D4E5';
const SP_HTML = `<!DOCTYPE html><html><head><title>SP Status</title></head><body class="status index status-none">
<div class="page-status status-none"><span class="status font-large">All Systems Operational</span></div>
<div class="components-container"><div class="component-container border-color"><div data-component-id="k1" class="component-inner-container status-green" data-component-status="operational"><span class="name">API</span></div></div></div>
</body></html>`;
const BODIES: Record<string, { type: string; body: string }> = {
  '/sp/api/v2/summary.json': {
    type: 'application/json',
    body: JSON.stringify({
      page: { id: 'ab12cd34ef56', name: 'SP', url: 'https://sp' },
      status: { indicator: 'none', description: 'All Systems Operational' },
      components: [],
      incidents: [],
      scheduled_maintenances: [],
    }),
  },
  '/iio/api/v2/summary.json': {
    type: 'application/json',
    body: JSON.stringify({
      page: { id: ULID, name: 'IIO', url: 'https://iio' },
      status: { indicator: 'none', description: 'ok' },
      components: [],
      incidents: [],
      scheduled_maintenances: [],
    }),
  },
  '/ins/summary.json': {
    type: 'application/json',
    body: JSON.stringify({ page: { name: 'Ins', url: 'https://ins', status: 'UP' }, activeIncidents: [], activeMaintenances: [] }),
  },
  '/bs/index.json': {
    type: 'application/json',
    body: JSON.stringify({ data: { id: '1', type: 'status_page', attributes: { company_name: 'BS', aggregate_state: 'operational' } }, included: [] }),
  },
  // A cState page serves its state at /index.json, the path Better Stack uses too.
  '/cs/index.json': {
    type: 'application/json',
    body: JSON.stringify({ is: 'index', summaryStatus: 'ok', systems: [{ name: 'API', category: 'Core', status: 'ok', unresolvedIssues: [] }] }),
  },
  '/cachet/api/v1/incidents': {
    type: 'application/json',
    body: JSON.stringify({
      meta: { pagination: { total: 0, count: 0, per_page: 20, current_page: 1, total_pages: 1, links: { next_page: null, previous_page: null } } },
      data: [],
    }),
  },
  // Statuspal's documented public summary, named directly by its URL.
  '/api/v2/status_pages/acme/summary': {
    type: 'application/json',
    body: JSON.stringify({
      status_page: { name: 'Acme', url: 'https://acme', current_incident_type: null },
      services: [{ id: 1, name: 'API', current_incident_type: null, children: [] }],
      incidents: [],
      maintenances: [],
      upcoming_maintenances: [],
    }),
  },
  // A Statuspage page whose JSON API is off: only its HTML answers.
  '/sphtml/': { type: 'text/html; charset=utf-8', body: SP_HTML },
  // The same page with its API on: the API wins, the HTML is only a fallback.
  '/spboth/': { type: 'text/html; charset=utf-8', body: SP_HTML },
  '/spboth/api/v2/summary.json': {
    type: 'application/json',
    body: JSON.stringify({
      page: { id: 'ab12cd34ef56', name: 'SP' },
      status: { indicator: 'none' },
      components: [],
      incidents: [],
      scheduled_maintenances: [],
    }),
  },
  // cState's index.json beside Better Stack's at the same path.
  '/cst/index.json': {
    type: 'application/json',
    body: JSON.stringify({
      is: 'index',
      cStateVersion: '5.2',
      apiVersion: '2.0',
      summaryStatus: 'ok',
      systems: [{ name: 'Web', status: 'ok', unresolvedIssues: [] }],
    }),
  },
  // An UptimeRobot monitor list named directly by its URL.
  '/api/getMonitorList/Ab12Cd34Ef': {
    type: 'application/json',
    body: JSON.stringify({ status: 'ok', data: [{ monitorId: 1, name: 'Site', statusClass: 'success', groupId: 0 }] }),
  },
  '/feed/feed.rss': {
    type: 'application/rss+xml',
    body: `<?xml version="1.0"?><rss version="2.0"><channel><title>Feed status</title><link>https://feed</link><description>History</description><item><title>API errors</title><guid>https://feed/incidents/1</guid><pubDate>Thu, 01 Jan 2026 00:00:00 +0000</pubDate><link>https://feed/incidents/1</link><description>&lt;p&gt;&lt;small&gt;Jan &lt;var&gt;1&lt;/var&gt;, &lt;var&gt;01:00&lt;/var&gt; UTC&lt;/small&gt;&lt;br&gt;&lt;strong&gt;Resolved&lt;/strong&gt; - Fixed.&lt;/p&gt;</description></item></channel></rss>`,
  },
  // Looks like Statuspage at the URL itself but is not valid: probing goes on.
  '/broken/api/v2/summary.json': { type: 'application/json', body: JSON.stringify({ page: { id: 'ab12cd34ef56' }, incidents: 'not a list' }) },
  // A page whose answer carries text of its own: none of it may reach the person told why
  // detection failed.
  '/leaky/api/v2/summary.json': {
    type: 'application/json',
    body: JSON.stringify({ page: { id: 'ab12cd34ef56', internal_secret_key: 'hunter2-canary' }, incidents: 'CANARY-BODY-FRAGMENT' }),
  },
  '/broken/summary.json': {
    type: 'application/json',
    body: JSON.stringify({ page: { name: 'B', url: 'https://b', status: 'UP' }, activeIncidents: [], activeMaintenances: [] }),
  },
};

describe('page detection', () => {
  let server: http.Server;
  let base = '';
  const fetcher = createHttpFetcher({ allowList: ['127.0.0.1'] });
  const open = createHttpFetcher({ allowList: [] });
  const detect = pageDetector({ fetcher, timeoutMs: 3000, maxBytes: 1 << 20, now: () => new Date() });

  before(async () => {
    server = http.createServer((req, res) => {
      if ((req.url ?? '').startsWith('/hund/live/v2/status_page')) {
        // Hund's live stream never ends: its opening event, then silence.
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(`event: init_event\ndata: ${JSON.stringify({ state: 'operational', issues: [] })}\n\n`);
        return;
      }
      const hit = BODIES[(req.url ?? '').split('?')[0]!];
      if (!hit) {
        res.writeHead(404).end('no');
        return;
      }
      res.writeHead(200, { 'content-type': hit.type }).end(hit.body);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    await fetcher.close();
    await open.close();
    await new Promise((r) => server.close(r));
  });

  test('each platform is found at its documented endpoint, in the documented order', async () => {
    const expect: [string, string, string][] = [
      ['/sp/', 'statuspage-v2', '/sp/api/v2/summary.json'],
      ['/iio/', 'incidentio', '/iio/api/v2/summary.json'],
      ['/ins', 'instatus', '/ins/summary.json'],
      ['/bs/', 'betterstack', '/bs/index.json'],
      ['/cachet/', 'cachet', '/cachet/api/v1/incidents'],
      ['/feed/', 'statuspage-rss', '/feed/feed.rss'],
      ['/feed/feed.rss', 'statuspage-rss', '/feed/feed.rss'],
      ['/broken/', 'instatus', '/broken/summary.json'],
      ['/api/v2/status_pages/acme/summary', 'statuspal', '/api/v2/status_pages/acme/summary'],
      ['/hund/', 'hund', '/hund/live/v2/status_page'],
      ['/sphtml/', 'statuspage-html', '/sphtml/'],
      ['/spboth/', 'statuspage-v2', '/spboth/api/v2/summary.json'],
      ['/cst/', 'cstate', '/cst/index.json'],
      ['/api/getMonitorList/Ab12Cd34Ef', 'uptimerobot', '/api/getMonitorList/Ab12Cd34Ef'],
      ['/cs/', 'cstate', '/cs/index.json'],
    ];
    for (const [page, type, url] of expect) {
      const r = await detect(new URL(`${base}${page}`));
      assert.ok(r.found, `${page}: ${JSON.stringify(r.tried)}`);
      assert.equal(r.type, type, page);
      assert.equal(r.url, `${base}${url}`, page);
    }
    // The HTML page was kept while its API was probed, and is read as the poll will read it.
    const html = await detect(new URL(`${base}/sphtml/`));
    assert.ok(html.found);
    // Only its own JSON API was tried after the page: no other platform serves Statuspage's markup.
    assert.deepEqual(
      html.tried.map((x) => [x.url.replace(base, ''), x.result]),
      [
        ['/sphtml/', 'statuspage-html (kept unless its API answers)'],
        ['/sphtml/api/v2/summary.json', 'HTTP error'],
      ],
    );
    assert.equal(html.pageName, 'SP Status');
    assert.deepEqual(
      html.read!('u-x').components!.map((c) => [c.name, c.status]),
      [['API', 'operational']],
    );
    const broken = await detect(new URL(`${base}/broken/`));
    assert.match(broken.tried[1]!.result, /does not parse/);
  });

  test('nothing there: every endpoint is listed with its answer', async () => {
    const r = await detect(new URL(`${base}/nothing/`));
    assert.equal(r.found, false);
    assert.equal(r.tried.length, 10);
    assert.ok(r.tried.every((x) => x.result === 'HTTP error'));
  });

  test('a failed detection names the kind of failure only: no key, body fragment, or refused-versus-silent port', async () => {
    const leaky = await detect(new URL(`${base}/leaky/`));
    assert.equal(leaky.found, false);
    const text = JSON.stringify(leaky.tried.map((x) => x.result));
    assert.doesNotMatch(text, /internal_secret_key|hunter2|CANARY|not a list|incidents/i);
    assert.ok(
      leaky.tried.some((x) => x.result === 'looks like statuspage-v2 but does not parse'),
      text,
    );

    // A closed port and a port whose connection is dropped answer alike.
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const dropping = http.createServer((req) => req.socket.destroy());
    await new Promise<void>((r) => dropping.listen(0, '127.0.0.1', r));
    try {
      const refused = await detect(new URL(`http://127.0.0.1:${closedPort}/`));
      const dropped = await detect(new URL(`http://127.0.0.1:${(dropping.address() as AddressInfo).port}/`));
      const kinds = new Set([...refused.tried, ...dropped.tried].map((x) => x.result));
      assert.deepEqual([...kinds], ['not reachable']);
      assert.doesNotMatch(JSON.stringify([refused.tried, dropped.tried]), /ECONN|socket|hang up/i);
    } finally {
      await new Promise((r) => dropping.close(r));
    }
  });

  test('without the allow-list the loopback page is refused at the first request, and probing stops', async () => {
    const guarded = pageDetector({ fetcher: open, timeoutMs: 3000, maxBytes: 1 << 20, now: () => new Date() });
    const r = await guarded(new URL(`${base}/sp/`));
    assert.equal(r.found, false);
    assert.deepEqual(r.tried, [{ url: `${base}/sp/`, result: 'destination refused (not a public address)' }]);
  });
});
