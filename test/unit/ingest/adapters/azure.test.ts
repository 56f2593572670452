import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { azureRssAdapter } from '../../../../src/ingest/adapters/azure.ts';
import { input, parseFixture } from './helpers.ts';

describe('azure status RSS', () => {
  test('two captures of one active issue keep one id; categories are the affected services', (t) => {
    const eus = parseFixture(t, 'azure/feed-2026-07-23-eus.xml');
    if (!eus) return;
    const wus = parseFixture(t, 'azure/feed-2026-07-23-wus.xml')!;
    for (const s of [eus, wus]) {
      assert.equal(s.incidents!.length, 1);
      assert.equal(s.incidentsAreCompleteUnresolvedSet, true);
      const i = s.incidents![0]!;
      assert.equal(i.id, 'azure:issues-connecting-to-resources-in-west-us');
      assert.equal(i.title, 'Issues connecting to resources in West US');
      assert.equal(i.status, 'investigating');
      assert.equal(i.impact, 'major');
      assert.equal(i.startedAt, '2026-07-23T16:29:09.000Z');
      assert.equal(i.resolvedAt, null);
      assert.equal(i.updates.length, 1);
    }
    // Categories are services and regions: each service in the region is one component.
    assert.deepEqual(eus.incidents![0]!.components, ['Network Infrastructure (westus)']);
    assert.equal(wus.incidents![0]!.components.length, 14);
    assert.ok(wus.incidents![0]!.components.includes('Azure Kubernetes Service (AKS) (westus)'));
    assert.ok(eus.incidents![0]!.updates[0]!.body.startsWith('Starting at 14:44 UTC on 23 July'));
    // HTML paragraphs, links and &nbsp; end up as plain text.
    const body = wus.incidents![0]!.updates[0]!.body;
    assert.ok(body.includes('(https://status.cloud.microsoft/)'), 'link text kept, tag dropped');
    assert.doesNotMatch(body, /<|&nbsp;|&amp;|\s$/);
  });

  test('an empty feed means no active issue', () => {
    const feed =
      '<?xml version="1.0" encoding="utf-8"?><rss version="2.0"><channel><title>Azure Status</title><link>https://azure.status.microsoft/en-us/status/</link><description>Azure Status</description></channel></rss>';
    assert.deepEqual(azureRssAdapter.parse(input('azure', 'https://azure.status.microsoft/en-us/status/feed/', feed)), {
      incidents: [],
      incidentsAreCompleteUnresolvedSet: true,
      components: [],
      componentsKeepUnlisted: true,
    });
  });
});
