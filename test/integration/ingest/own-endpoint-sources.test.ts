import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { getJson, startApp, TestClock, type TestApp } from '../../helpers/app.ts';
import { type HostileServer, json, removeCatalog, startHostileServer, vendor, writeCatalog } from '../../helpers/hostile-vendor.ts';

// Vendors read from their own endpoints and from the cState, Site24x7, StatusHub and
// StatusCake platforms (docs/catalog.md "Read by their own endpoint"): pages served by a
// real loopback server, polled by the real scheduler into the store, read back through the
// API. Bodies are the hand-written payloads of test/fixtures/documented/.

const documented = (file: string) => readFileSync(path.join(import.meta.dirname, '../../fixtures/documented', file), 'utf8');

describe('sources read from vendors’ own endpoints', () => {
  const clock = new TestClock(new Date('2026-07-30T10:00:00Z'));
  let page: HostileServer;
  let t: TestApp;
  let catalogFile: string;
  let oktaAccept: string | undefined;

  const status = async (slug: string) => {
    const r = await getJson(`${t.api}/vendor-status/${slug}?skipCache=true`);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body.items[0];
  };

  before(async () => {
    page = await startHostileServer({
      '/okta': (req, res) => {
        oktaAccept = req.headers.accept;
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(documented('okta/status-page.html'));
      },
      '/civo/index.json': json(documented('cstate/index.json')),
      '/fastly': (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html' }).end(documented('fastly/status-page.html'));
      },
      '/stripe/current/full': json(documented('stripe/current-full.json')),
      '/site/summary': json(documented('site24x7/summary_details.json')),
      '/wpe/api/statuses': json(documented('statushub/statuses.json')),
      // Hostile answers: a wrong shape, and a body past the poll's byte cap.
      '/paypal/components': json('{"result": "operational"}'),
      '/zendesk/incidents.json': (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(`{"data":[${'{"id":"1","attributes":{"outage":true,"resolvedAt":null}},'.repeat(200_000)}{}]}`);
      },
    });
    catalogFile = writeCatalog([
      vendor('okta-like', [{ type: 'okta-status', url: `${page.url}/okta` }]),
      vendor('civo-like', [{ type: 'cstate', url: `${page.url}/civo/index.json` }]),
      vendor('fastly-like', [{ type: 'fastly-status', url: `${page.url}/fastly` }]),
      vendor('stripe-like', [{ type: 'stripe-status', url: `${page.url}/stripe/current/full` }]),
      vendor('site-like', [{ type: 'site24x7', url: `${page.url}/site/summary` }]),
      vendor('wpe-like', [{ type: 'statushub', url: `${page.url}/wpe/api/statuses` }]),
      vendor('paypal-like', [{ type: 'paypal-status', url: `${page.url}/paypal/components` }]),
      vendor('zendesk-like', [{ type: 'zendesk-status', url: `${page.url}/zendesk/incidents.json` }]),
    ]);
    t = await startApp({ clock, catalogFile, env: { DELIVER: 'off', INGEST_TIMEOUT_MS: '5000', INGEST_MAX_BYTES: String(1024 * 1024) } });
    clock.advance(61_000);
    await t.app.ingest.scheduler.runRound({ force: true });
  });

  after(async () => {
    await t?.close();
    await page?.close();
    if (catalogFile) removeCatalog(catalogFile);
  });

  test('each is read: page state in the vendor’s words, components and open incidents where the payload names them', async () => {
    const okta = await status('okta-like');
    assert.deepEqual([okta.monitored, okta.indicator, okta.sourceDescription], [true, 'partial_outage', 'Service Degradation, Service Disruption']);
    assert.match(oktaAccept ?? '', /^text\/html/, 'the HTML page is asked for');

    const civo = await status('civo-like');
    assert.equal(civo.indicator, 'partial_outage');
    assert.deepEqual(
      civo.components.map((c: any) => [c.name, c.status, c.group]),
      [
        ['Gateway', 'partial_outage', 'Web'],
        ['Control panel', 'partial_outage', 'Web'],
        ['Nightly backups', 'under_maintenance', 'Backups'],
        ['DNS', 'operational', 'Web'],
      ],
    );
    // An issue listed under two systems is one incident; a notice is maintenance (docs/mappings.md "cState").
    assert.deepEqual(
      civo.activeIncidents.map((i: any) => [i.title, i.impact]),
      [['Slow responses from the gateway', 'major']],
    );

    const stripe = await status('stripe-like');
    assert.deepEqual([stripe.indicator, stripe.sourceDescription, stripe.components], ['degraded', 'Some requests to the API are failing.', []]);
    const fastly = await status('fastly-like');
    assert.equal(fastly.indicator, 'degraded');
    assert.deepEqual(
      fastly.components.filter((c: any) => c.group === 'Network & Edge').map((c: any) => [c.name, c.status]),
      [
        ['North America', 'degraded_performance'],
        ['Europe', 'under_maintenance'],
        ['Asia', 'operational'],
      ],
    );
    assert.equal((await status('site-like')).indicator, 'partial_outage');
    assert.equal((await status('wpe-like')).indicator, 'degraded');
  });

  test('a wrong shape or an oversized body leaves the vendor unknown, with only the kind of failure shown', async () => {
    const paypal = await status('paypal-like');
    assert.equal(paypal.indicator, 'unknown');
    assert.match(paypal.sourceHealth.lastError, /invalid payload at \/result/);
    const zendesk = await status('zendesk-like');
    assert.equal(zendesk.indicator, 'unknown');
    assert.ok(zendesk.sourceHealth.lastError, 'the failure is recorded');
    assert.doesNotMatch(zendesk.sourceHealth.lastError, /outage|resolvedAt/, 'no text of the answer');
  });
});
