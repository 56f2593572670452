import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { detectPlatform } from '../../../../src/domain/platform-detect.ts';
import type { SourceType } from '../../../../src/domain/records.ts';
import { AdapterError, parseSource } from '../../../../src/ingest/adapters/index.ts';
import { input, repoRoot } from './helpers.ts';

// The vendors' own status endpoints read by stts (docs/mappings.md "Stripe", "Zendesk",
// "PayPal", "Algolia"). No recorded payload exists; the fixtures were written by hand from the
// shapes that code reads (test/fixtures/documented/README.md).
const documented = (file: string) => readFileSync(path.join(repoRoot, 'test/fixtures/documented', file));
const parse = (type: SourceType, body: Buffer | string) => parseSource(type, input('example', 'https://status.example.test/x', body));
const rejects = (type: SourceType, body: string, message: RegExp) =>
  assert.throws(
    () => parse(type, body),
    (e: unknown) => e instanceof AdapterError && message.test(e.message),
  );

describe('stripe current/full', () => {
  test('the page state with the page’s own sentence', () => {
    const body = documented('stripe/current-full.json');
    assert.equal(detectPlatform(body), 'stripe-status');
    const s = parse('stripe-status', body);
    assert.deepEqual(s.status, { indicator: 'degraded', description: 'Some requests to the API are failing.' });
    assert.equal(s.components, undefined);
    assert.equal(s.incidents, undefined);
  });

  test('up and down; pending and paused are unknown, and say so', () => {
    assert.equal(parse('stripe-status', '{"message":"All good","UptimeStatus":"up"}').status!.indicator, 'operational');
    assert.equal(parse('stripe-status', '{"message":"Down","UptimeStatus":"down"}').status!.indicator, 'major_outage');
    assert.deepEqual(parse('stripe-status', '{"message":"All systems operational","UptimeStatus":"paused"}').status, {
      indicator: 'unknown',
      description: 'Status Unknown',
    });
  });

  test('hostile input', () => {
    rejects('stripe-status', '{"message":"x","UptimeStatus":3}', /UptimeStatus/);
    rejects('stripe-status', '{"message":"x"}', /UptimeStatus/);
    const s = parse('stripe-status', JSON.stringify({ message: `a\u0000b\u001b${'x'.repeat(100_000)}`, UptimeStatus: 'degraded' }));
    assert.ok(s.status!.description.length <= 200);
    assert.ok(!/[\u0000-\u001f]/.test(s.status!.description));
  });
});

describe('zendesk ssp incidents', () => {
  test('open incidents set the state: an outage flag makes it an outage, resolved ones do not count', () => {
    const body = documented('zendesk/ssp-incidents.json');
    assert.equal(detectPlatform(body), 'zendesk-status');
    const s = parse('zendesk-status', body);
    assert.deepEqual(s.status, { indicator: 'partial_outage', description: 'Partial System Outage: 2 open incidents' });
    assert.equal(s.incidents, undefined, 'no titles or start times are evidenced: no incident records are claimed');
    assert.equal(parse('zendesk-status', '{"data":[{"id":"1","attributes":{"outage":false,"resolvedAt":null}}]}').status!.indicator, 'degraded');
    assert.equal(
      parse('zendesk-status', '{"data":[{"id":"1","attributes":{"outage":true,"resolvedAt":"2026-07-01T00:00:00Z"}}]}').status!.indicator,
      'operational',
    );
  });

  test('hostile input', () => {
    rejects('zendesk-status', '{"data":[{"id":"1","attributes":{"outage":"yes"}}]}', /outage/);
    rejects('zendesk-status', '{"data":{"id":"1"}}', /\/data/);
    rejects('zendesk-status', '{"errors":[{"status":"500"}]}', /data/);
  });
});

describe('paypal components', () => {
  test('four views at the worst status of their members; production alone sets the page state', () => {
    const body = documented('paypal/components.json');
    assert.equal(detectPlatform(body), 'paypal-status');
    const s = parse('paypal-status', body);
    assert.deepEqual(
      s.components!.map((c) => [c.id, c.status]),
      [
        ['product-production', 'degraded_performance'],
        ['api-production', 'operational'],
        ['product-sandbox', 'under_maintenance'],
        ['api-sandbox', 'major_outage'],
      ],
    );
    assert.equal(s.status!.indicator, 'degraded');
  });

  test('a word PayPal does not use is unknown, and the page is not called operational', () => {
    const s = parse('paypal-status', '{"result":[{"category":{"name":"api"},"status":{"production":"Mostly Fine"}}]}');
    assert.deepEqual(
      s.components!.map((c) => [c.id, c.status]),
      [['api-production', 'unknown']],
    );
    assert.equal(s.status!.indicator, 'unknown');
  });

  test('hostile input', () => {
    rejects('paypal-status', '{"result":[{"category":"api","status":{}}]}', /category/);
    rejects('paypal-status', '{"result":[]}', /no product or API component/);
    rejects('paypal-status', '{"result":[{"category":{"name":"api"},"status":{"production":7}}]}', /no product or API component/);
  });
});

describe('algolia current period', () => {
  test('the global status in Statuspage’s words', () => {
    const body = documented('algolia/status-current.json');
    assert.equal(detectPlatform(body), 'algolia-status');
    assert.deepEqual(parse('algolia-status', body).status, { indicator: 'partial_outage', description: 'Partial System Outage' });
    assert.equal(parse('algolia-status', '{"global":{"status":"operational"}}').status!.indicator, 'operational');
    assert.equal(parse('algolia-status', '{"global":{"status":"degraded_performance"}}').status!.indicator, 'degraded');
    assert.equal(parse('algolia-status', '{"global":{"status":"major_outage"}}').status!.indicator, 'major_outage');
    assert.equal(parse('algolia-status', '{"global":{"status":"fine"}}').status!.indicator, 'unknown');
  });

  test('hostile input', () => {
    rejects('algolia-status', '{"global":{"status":null}}', /status/);
    rejects('algolia-status', '{"global":"operational"}', /global/);
  });
});

describe('okta status page', () => {
  test('the open records of the page set its state, in Okta’s own words', () => {
    const body = documented('okta/status-page.html');
    assert.equal(detectPlatform(body, 'text/html'), 'okta-status');
    assert.deepEqual(parse('okta-status', body).status, { indicator: 'partial_outage', description: 'Service Degradation, Service Disruption' });
    const only = (records: unknown[]) => parse('okta-status', `<div data-id="incidents">${JSON.stringify(records).replace(/"/g, '&quot;')}</div>`).status;
    assert.deepEqual(only([]), { indicator: 'operational', description: 'All Systems Operational' });
    assert.equal(only([{ Status__c: 'Resolved', Category__c: 'Major Service Disruption' }])!.indicator, 'operational');
    assert.equal(only([{ Status__c: 'Open', Category__c: 'Major Service Disruption' }])!.indicator, 'major_outage');
    assert.equal(only([{ Status__c: 'Open', Category__c: 'Service Disruption', Service_Feature__c: 'tp' }])!.indicator, 'degraded');
    assert.equal(only([{ Status__c: 'Open', Category__c: 'Something New' }])!.indicator, 'unknown');
  });

  test('hostile input: nested markup, wrong types, control characters, a huge page', () => {
    const nested = parse(
      'okta-status',
      '<div data-id="incidents">[<b>{"Status__c":"Open","Category__c":"Performance Issue"}</b>]</div><p data-id="incidents">[]</p>',
    );
    assert.equal(nested.status!.indicator, 'degraded', 'text inside the first marked element, nested tags included');
    rejects('okta-status', '<div data-id="incidents">[{"Status__c":1,"Category__c":"x"}]</div>', /Status__c/);
    rejects('okta-status', '<div data-id="incidents">{"Status__c":"Open"}</div>', /invalid payload/);
    const noisy = parse('okta-status', '<div data-id="incidents">[{"Status__c":"Open","Category__c":"Service\\u0000Degradation\\u001b"}]</div>');
    assert.equal(noisy.status!.description, 'Service Degradation');
    const padding = `<p>${'x'.repeat(5 * 1024 * 1024)}</p>`;
    rejects('okta-status', `<html><body>${padding}<div data-id="incidents">[]</div></body></html>`, /no element/);
  });
});

describe('statuscake public report', () => {
  test('checks up and down set the page state', () => {
    const body = documented('statuscake/public-report.json');
    assert.equal(detectPlatform(body), 'statuscake');
    assert.deepEqual(parse('statuscake', body).status, { indicator: 'partial_outage', description: 'Partial System Outage: 1 of 3 checks down' });
    assert.equal(parse('statuscake', '{"TestData":[{"Status":"Up"}]}').status!.indicator, 'operational');
    assert.equal(parse('statuscake', '{"TestData":[{"Status":"Down"}]}').status!.indicator, 'major_outage');
    assert.equal(parse('statuscake', '{"TestData":[{"Status":"Up"},{"Status":"Paused"}]}').status!.indicator, 'unknown');
  });

  test('hostile input', () => {
    rejects('statuscake', '{"TestData":[]}', /no tests/);
    rejects('statuscake', '{"TestData":[{"Status":1}]}', /Status/);
    rejects('statuscake', '{"TestData":"Up"}', /TestData/);
  });
});

describe('statushub statuses', () => {
  test('the counters of services up, affected and down set the page state', () => {
    const body = documented('statushub/statuses.json');
    assert.equal(detectPlatform(body), 'statushub');
    assert.deepEqual(parse('statushub', body).status, { indicator: 'degraded', description: 'Minor Service Outage: 2 affected' });
    const counters = (a: number, b: number, c: number) => JSON.stringify({ counters: { count_status_1: a, count_status_2: b, count_status_3: c } });
    assert.equal(parse('statushub', counters(3, 0, 0)).status!.indicator, 'operational');
    assert.equal(parse('statushub', counters(3, 1, 1)).status!.indicator, 'partial_outage');
    assert.equal(parse('statushub', counters(0, 0, 4)).status!.indicator, 'major_outage');
    assert.equal(parse('statushub', counters(0, 0, 0)).status!.indicator, 'unknown', 'no service counted: nothing observed');
  });

  test('hostile input', () => {
    rejects('statushub', '{"counters":{"count_status_1":-1,"count_status_2":0,"count_status_3":0}}', /count_status_1/);
    rejects('statushub', '{"counters":{"count_status_1":"3","count_status_2":0,"count_status_3":0}}', /count_status_1/);
    rejects('statushub', '{"counters":{"count_status_1":1.5,"count_status_2":0,"count_status_3":0}}', /count_status_1/);
  });
});

describe('fastly status page', () => {
  test('top-level rows as components grouped by their tab, today’s icon as their state', () => {
    const body = documented('fastly/status-page.html');
    assert.equal(detectPlatform(body, 'text/html'), 'fastly-status');
    const s = parse('fastly-status', body);
    assert.deepEqual(
      s.components!.map((c) => [c.id, c.status, c.group]),
      [
        ['Platform/Delivery', 'operational', 'Platform'],
        ['Platform/Configuration API', 'degraded_performance', 'Platform'],
        ['Network & Edge/North America', 'degraded_performance', 'Network & Edge'],
        ['Network & Edge/Europe', 'under_maintenance', 'Network & Edge'],
        ['Network & Edge/Asia', 'operational', 'Network & Edge'],
      ],
    );
    assert.equal(s.status!.indicator, 'degraded');
    assert.equal(s.incidents, undefined);
  });

  test('unavailable is a major outage; an icon word not in the list is unknown, and so is the page', () => {
    const row = (state: string, path = '1') =>
      `<tr data-path="${path}" data-pid="9"><td><a>API</a></td><td></td><td><i class="component-${state}"></i></td></tr>`;
    assert.equal(parse('fastly-status', `<table>${row('unavailable')}</table>`).status!.indicator, 'major_outage');
    const odd = parse('fastly-status', `<table>${row('available')}${row('sparkly', '2').replace('API', 'CDN')}</table>`);
    assert.deepEqual(
      odd.components!.map((c) => [c.name, c.group, c.status]),
      [
        ['API', null, 'operational'],
        ['CDN', null, 'unknown'],
      ],
    );
    assert.equal(odd.status!.indicator, 'unknown');
  });

  test('hostile input: no rows, unclosed markup, control characters, a huge page', () => {
    rejects('fastly-status', '<html><body><p>502 Bad Gateway</p></body></html>', /no component rows/);
    rejects('fastly-status', '<tr data-path="1"><td><a>API', /no component rows/);
    const noisy = parse('fastly-status', '<tr data-path="1"><td><a>A\u0000P\u0007I</a></td><td></td><td><i class="component-available"></i></td></tr>');
    assert.equal(noisy.components![0]!.name, 'A P I');
    const long = parse('fastly-status', `<tr data-path="1"><td><a>${'x'.repeat(10_000)}</a></td><td></td><td><i class="component-available"></i></td></tr>`);
    assert.ok(long.components![0]!.name.length <= 300);
    rejects(
      'fastly-status',
      `<html><body><p>${'x'.repeat(5 * 1024 * 1024)}</p><table><tr data-path="1"><td><a>API</a></td><td></td><td><i class="component-available"></i></td></tr></table></body></html>`,
      /no component rows/,
    );
  });
});
