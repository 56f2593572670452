import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { detectPlatform } from '../../../../src/domain/platform-detect.ts';
import { AdapterError } from '../../../../src/ingest/adapters/adapter.ts';
import { site24x7Adapter } from '../../../../src/ingest/adapters/site24x7.ts';
import { input, repoRoot } from './helpers.ts';

// Site24x7-hosted pages (docs/mappings.md "Site24x7"). No recorded payload exists; the fixture
// was written by hand from the shape public code reads (test/fixtures/documented/README.md).
const URL_ = 'https://status.example.test/sp/api/public/summary_details/statuspages/abc=';
const documented = readFileSync(path.join(repoRoot, 'test/fixtures/documented/site24x7/summary_details.json'));
const parse = (body: Buffer | string) => site24x7Adapter.parse(input('example', URL_, body));
const page = (current_status: unknown[]) => JSON.stringify({ data: { current_status } });

describe('site24x7 summary (written from the observed shape)', () => {
  test('groups and lone components, numeric statuses, page state from the components', () => {
    assert.equal(detectPlatform(documented), 'site24x7');
    const s = parse(documented);
    assert.deepEqual(
      s.components!.map((c) => [c.id, c.name, c.status, c.group]),
      [
        ['Data centers/US', 'US', 'operational', 'Data centers'],
        ['Data centers/EU', 'EU', 'partial_outage', 'Data centers'],
        ['Data centers/India', 'India', 'under_maintenance', 'Data centers'],
        ['Website', 'Website', 'operational', null],
        ['Mobile apps', 'Mobile apps', 'operational', null],
        ['Alerting', 'Alerting', 'degraded_performance', null],
      ],
    );
    assert.equal(s.status!.indicator, 'partial_outage');
    assert.equal(s.incidents, undefined, 'the summary names no incidents: none are claimed');
  });

  test('6 is a major outage; a status code not in the table is unknown and the page is not called operational', () => {
    assert.equal(parse(page([{ display_name: 'API', component_status: 6 }])).status!.indicator, 'major_outage');
    const s = parse(
      page([
        { display_name: 'API', component_status: 1 },
        { display_name: 'Web', component_status: 9 },
      ]),
    );
    assert.deepEqual(
      s.components!.map((c) => c.status),
      ['operational', 'unknown'],
    );
    assert.equal(s.status!.indicator, 'unknown');
  });

  test('hostile input: wrong types, no components, control characters', () => {
    assert.throws(() => parse(page([{ display_name: 'API', component_status: '1' }])), AdapterError);
    assert.throws(
      () => parse('{"data":{"current_status":{}}}'),
      (e: unknown) => e instanceof AdapterError && /current_status/.test(e.message),
    );
    assert.throws(
      () => parse(page([])),
      (e: unknown) => e instanceof AdapterError && /no components/.test(e.message),
    );
    assert.throws(
      () => parse(page([{ display_name: '\u0000\u0007', component_status: 1 }])),
      (e: unknown) => e instanceof AdapterError && /no components/.test(e.message),
    );
    const s = parse(
      page([
        { componentgroup_display_name: 'E\u0000U', componentgroup_status: 1, componentgroup_components: [{ display_name: 'a\u001bb', component_status: 1 }] },
      ]),
    );
    assert.deepEqual([s.components![0]!.name, s.components![0]!.group], ['a b', 'E U']);
  });
});
