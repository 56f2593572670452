// Platform detection by payload shape (docs/operations.md "Checking the catalog"), on
// bodies written for this test in each platform's documented shape.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { detectPlatform, platformMatches, sourceRequest } from '../../../src/domain/platform-detect.ts';

const json = (v: unknown) => Buffer.from(JSON.stringify(v));

test('JSON shapes of each platform', () => {
  const cases: [unknown, string | null][] = [
    [{ page: { id: 'kctbh9vrtdwd', name: 'GitHub' }, status: { indicator: 'none' }, components: [] }, 'statuspage-v2'],
    [{ page: { id: '01JMDK9XYNY6RXSED6SDWW50WY', name: 'OpenAI' }, status: { indicator: 'none' } }, 'incidentio'],
    [{ summary: { ongoing_incidents: [], structure: { items: [] } } }, 'incidentio'],
    [{ page_title: 'Acme', ongoing_incidents: [], scheduled_maintenances: [] }, 'incidentio'],
    [{ page: { name: 'Railway', url: 'https://x', status: 'UP' }, activeIncidents: [] }, 'instatus'],
    [{ data: { id: '1', type: 'status_page', attributes: { aggregate_state: 'operational' } } }, 'betterstack'],
    [{ result: { status_overall: { status_code: 100 }, status: [] } }, 'statusio'],
    [{ status: 'ok', date_updated: '2026-01-01T00:00:00-07:00', active_incidents: [] }, 'slack-status'],
    [{ status: [{ system: 'Apps', status: 'green' }], incidents: [] }, 'heroku-status'],
    [[{ id: 1, IncidentImpacts: [], instanceKeys: ['NA1'] }], 'salesforce-trust'],
    [{ page: { name: 'Postmark', state: 'operational', links: { notices: 'x' } } }, 'sorry'],
    [{ notices: [] }, 'sorry'],
    [{ data: 'Pong!' }, 'cachet'],
    [{ meta: { pagination: { total: 0 } }, data: [] }, 'cachet'],
    [{ status_page: { name: 'Example', current_incident_type: null }, services: [] }, 'statuspal'],
    [{ status_page: { name: 'Example' }, services: [{ id: 1, name: 'API' }], incidents: [] }, 'statuspal'],
    [{ is: 'index', cStateVersion: '5.2', summaryStatus: 'ok', systems: [] }, 'cstate'],
    [{ status: 'ok', data: [{ monitorId: 1, name: 'Site', statusClass: 'success' }] }, 'uptimerobot'],
    [{ status: 'ok', psp: { monitors: [] } }, 'uptimerobot'],
    [{ status: 'ok', data: [{ id: 1 }] }, null],
    [{ data: { current_status: [] } }, 'site24x7'],
    [{ message: 'Up', UptimeStatus: 'up' }, 'stripe-status'],
    [{ global: { status: 'operational' } }, 'algolia-status'],
    [{ result: [{ category: { name: 'api' }, status: { production: 'Operational' } }] }, 'paypal-status'],
    [{ data: [{ id: '1', type: 'incident', attributes: { outage: false, resolvedAt: null } }] }, 'zendesk-status'],
    // An empty Zendesk list says nothing about the platform: not claimed.
    [{ data: [] }, null],
    [{ TestData: [] }, 'statuscake'],
    [{ counters: { count_status_1: 1, count_status_2: 0, count_status_3: 0 } }, 'statushub'],
    [{ something: 'else' }, null],
  ];
  for (const [body, expected] of cases) assert.equal(detectPlatform(json(body)), expected, JSON.stringify(body));
});

test('feeds and HTML pages', () => {
  assert.equal(detectPlatform(Buffer.from('<?xml version="1.0"?><rss version="2.0"><channel></channel></rss>')), 'feed');
  assert.equal(detectPlatform(Buffer.from('<feed xmlns="http://www.w3.org/2005/Atom"></feed>')), 'feed');
  assert.equal(detectPlatform(Buffer.from(`<!doctype html><script>var statuspageId = '5b36dc6502d06804c08349f7';</script>`)), 'statusio');
  assert.equal(detectPlatform(Buffer.from('<html><a href="https://incident.io">Powered by incident.io</a></html>')), 'incidentio');
  assert.equal(detectPlatform(Buffer.from('<html><p>502 Bad Gateway</p></html>')), 'html');
  // Statuspage's component markup, and an UptimeRobot page naming its monitor list.
  assert.equal(
    detectPlatform(
      Buffer.from(
        '<!DOCTYPE html><html><div data-component-id="a" data-component-status="operational">API</div><a href="https://www.atlassian.com/software/statuspage">',
      ),
    ),
    'statuspage-html',
  );
  assert.equal(detectPlatform(Buffer.from('<html><div data-component-status="">x</div></html>')), 'html');
  assert.equal(
    detectPlatform(Buffer.from(`<html><script>window.pspApiPath = 'https://stats.uptimerobot.com/api/getMonitorList/Ab12';</script></html>`)),
    'uptimerobot',
  );
  assert.equal(detectPlatform(Buffer.from('<html><span data-id="incidents">[]</span></html>')), 'okta-status');
  assert.equal(platformMatches('okta-status', 'okta-status'), true);
  assert.equal(platformMatches('okta-status', 'html'), false, 'a page without the records is not Okta’s');
  assert.equal(detectPlatform(Buffer.alloc(0)), null);
});

test('a detection matches the declared type, feeds by family, unknown bodies say nothing', () => {
  assert.equal(platformMatches('statuspage-v2', 'statuspage-v2'), true);
  assert.equal(platformMatches('statuspage-v2', 'incidentio'), false);
  assert.equal(platformMatches('release-feed', 'feed'), true);
  assert.equal(platformMatches('release-feed', 'html'), false);
  assert.equal(platformMatches('statusio', null), true);
});

describe('how a source is asked for', () => {
  test('one Accept per format, for the poller and catalog verify alike', () => {
    const feed = sourceRequest('aws-rss').accept;
    assert.match(feed, /^application\/rss\+xml/, 'the AWS feed is asked for as a feed');
    assert.equal(sourceRequest('statuspage-atom').accept, feed);
    assert.match(sourceRequest('statuspage-html').accept, /^text\/html/);
    assert.match(sourceRequest('statuspage-v2').accept, /^application\/json/);
    assert.equal(sourceRequest('statuspage-v2').complete, undefined);
  });

  test('a Hund stream is asked for as an event stream and complete at its first init event', () => {
    const hund = sourceRequest('hund');
    assert.equal(hund.accept, 'text/event-stream');
    assert.equal(hund.complete?.(Buffer.from('event: init_event\ndata: {"a":1}')), false, 'an event without its blank line is not complete');
    assert.equal(hund.complete?.(Buffer.from('event: init_event\ndata: {"a":1}\n\n')), true);
  });
});
