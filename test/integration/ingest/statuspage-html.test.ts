import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { userWithKey, type TestUser } from '../../helpers/access.ts';
import { getJson, startApp, type TestApp } from '../../helpers/app.ts';
import { send } from '../../helpers/users.ts';
import { waitFor } from '../../helpers/wait.ts';

// A Statuspage page whose JSON API is off (every /api/v2/ path answers 404), served on a real
// listener: added by URL, it is detected from its HTML, stored, polled, and an incident that
// leaves the page is resolved (docs/mappings.md "Statuspage pages in HTML").

const TITLE = 'Login failures for some users';

function indexPage(withIncident: boolean): string {
  const incident = withIncident
    ? `<div class="unresolved-incidents"><div class="unresolved-incident impact-critical">
        <div class="incident-title font-large"><a class="actual-title with-ellipsis" href="/incidents/q9w8e7r6t5y4">${TITLE}</a></div>
        <div class="updates font-regular">
          <div class="update"><strong>Identified</strong> - The cause is known.<br><small><span class="ago" data-datetime-unix="${Date.now() - 600_000}"></span>Now</small></div>
          <div class="update"><strong>Investigating</strong> - We are looking into it.<br><small><span class="ago" data-datetime-unix="${Date.now() - 1_800_000}"></span>Before</small></div>
        </div></div></div>`
    : '<div class="page-status status-none"><span class="status font-large">All Systems Operational</span></div>';
  return `<!DOCTYPE html><html><head><title>Acme Login Status</title></head><body class="status index ${withIncident ? 'status-critical' : 'status-none'}">
    ${incident}
    <div class="components-section"><div class="components-container one-column">
      <div class="component-container border-color"><div data-component-id="l1" class="component-inner-container" data-component-status="${withIncident ? 'major_outage' : 'operational'}"><span class="name">Login</span></div></div>
    </div></div></body></html>`;
}

describe('a Statuspage page read from its HTML, end to end', () => {
  let t: TestApp;
  let server: http.Server;
  let base = '';
  let alice: TestUser;
  let withIncident = true;
  const apiHits: string[] = [];

  before(async () => {
    server = http.createServer((req, res) => {
      const url = req.url ?? '/';
      if (url === '/acme/') {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(indexPage(withIncident));
        return;
      }
      apiHits.push(url);
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not here');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    t = await startApp({ env: { OUTBOUND_ALLOW_PRIVATE: '127.0.0.1' } });
    alice = await userWithKey(t, 'standard', 'alice-html');
  });
  after(async () => {
    await t?.close();
    await new Promise((r) => server?.close(r));
  });

  test('detected from its HTML after its API was tried, polled, and an incident gone from the page is resolved', async () => {
    const headers = { 'x-api-key': alice.secret };
    const added = await send(`${t.url}/api/v1/account/status-pages`, 'POST', headers, { url: `${base}/acme/` });
    assert.equal(added.status, 201, JSON.stringify(added.body));
    assert.ok(apiHits.includes('/acme/api/v2/summary.json'), 'the JSON API was tried first');
    const slug: string = added.body.page.slug;
    assert.deepEqual(
      added.body.page.sources.map((s: { type: string; url: string }) => `${s.type} ${s.url.replace(base, '')}`),
      ['statuspage-html /acme/'],
    );

    const open = await getJson(`${t.api}/incidents?vendor=${slug}`, { headers });
    assert.deepEqual(
      open.body.items.map((i: { title: string; status: string; impact: string; sourceStatus: string }) => [i.title, i.status, i.impact, i.sourceStatus]),
      [[TITLE, 'investigating', 'critical', 'identified']],
    );
    const status = await getJson(`${t.api}/vendor-status/${slug}`, { headers });
    assert.equal(status.body.items[0].indicator, 'major_outage');
    assert.deepEqual(
      status.body.items[0].components.map((c: { name: string; status: string }) => [c.name, c.status]),
      [['Login', 'major_outage']],
    );

    // The page no longer lists the incident: the next poll resolves it.
    withIncident = false;
    const report = await t.app.ingest.scheduler.runRound({ force: true, vendor: slug });
    assert.deepEqual(
      report.outcomes.map((r) => r.error),
      [null],
    );
    // A cached answer is computed again once it is over a second old (docs/access.md "Response cache").
    const resolved = await waitFor(
      async () => {
        const r = await getJson(`${t.api}/incidents?vendor=${slug}`, { headers });
        return r.body.items[0]?.status === 'resolved' && r.body.items;
      },
      { message: 'the incident resolved' },
    );
    assert.deepEqual(
      resolved.map((i: { title: string; status: string }) => [i.title, i.status]),
      [[TITLE, 'resolved']],
    );
    const healthy = await waitFor(
      async () => {
        const r = await getJson(`${t.api}/vendor-status/${slug}`, { headers });
        return r.body.items[0].indicator === 'operational' && r.body.items[0];
      },
      { message: 'the page status read again' },
    );
    assert.equal(healthy.sourceDescription, 'All Systems Operational');
    assert.deepEqual(
      healthy.components.map((c: { name: string; status: string }) => [c.name, c.status]),
      [['Login', 'operational']],
    );
  });
});
