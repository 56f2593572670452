import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { detectPlatform } from '../../../../src/domain/platform-detect.ts';
import { gcpAdapter } from '../../../../src/ingest/adapters/gcp.ts';
import { input, repoRoot } from './helpers.ts';

// The Google Workspace dashboard's incidents.json, read by the Google Cloud adapter (docs/mappings.md
// "Google Workspace"). No recorded payload exists; the fixture was written by hand with the
// fields public code reads from it (test/fixtures/documented/README.md).
const LIST = 'https://www.google.com/appsstatus/dashboard/incidents.json';
const documented = readFileSync(path.join(repoRoot, 'test/fixtures/documented/google-workspace/incidents.json'));

describe('google workspace incidents.json', () => {
  test('products as components, open and closed incidents, links on the Workspace dashboard', () => {
    assert.equal(detectPlatform(documented), 'gcp-json');
    const s = gcpAdapter.parse(input('google-workspace', LIST, documented));
    const [open, closed] = s.incidents!;
    assert.deepEqual(
      [open!.title, open!.status, open!.impact, open!.components, open!.url],
      [
        'Some users cannot open shared documents',
        'investigating',
        'major',
        ['Google Docs'],
        'https://www.google.com/appsstatus/dashboard/incidents/aBcDeFgHiJkLmNoPqRsT',
      ],
    );
    assert.deepEqual(
      [closed!.status, closed!.resolvedAt, closed!.url],
      ['resolved', '2026-07-20T11:30:00.000Z', 'https://www.google.com/appsstatus/dashboard/incidents/zYxWvUtSrQpOnMlKjIhG'],
    );
    assert.deepEqual(
      s.components!.map((c) => [c.name, c.status]),
      [
        ['Gmail', 'operational'],
        ['Google Docs', 'partial_outage'],
      ],
    );
  });

  test('Google Cloud links stay on Google Cloud’s dashboard', () => {
    const s = gcpAdapter.parse(input('google-cloud', 'https://status.cloud.google.com/incidents.json', documented));
    assert.equal(s.incidents![1]!.url, 'https://status.cloud.google.com/incidents/zYxWvUtSrQpOnMlKjIhG');
  });
});
