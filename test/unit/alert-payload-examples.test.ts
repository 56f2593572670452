import assert from 'node:assert/strict';
import fs from 'node:fs';
import { test } from 'node:test';
import { payloadExamplesMarkdown } from '../../scripts/alert-payload-examples.ts';

// docs/alerts.md shows every outbound body as the channels build it today: the
// section is generated, and this fails when a builder changed and the docs did not.

test('docs/alerts.md holds the current payload examples', () => {
  const docs = fs.readFileSync(new URL('../../docs/alerts.md', import.meta.url), 'utf8');
  const section = payloadExamplesMarkdown();
  assert.ok(docs.includes(section), 'run `npx tsx scripts/alert-payload-examples.ts` and paste its output under "Payload examples"');
  for (const heading of [
    'Standard Webhooks',
    'Discord',
    'Slack',
    'Teams',
    'Google Chat',
    'Opsgenie',
    'PagerDuty',
    'Grafana',
    'ServiceNow',
    'FireHydrant',
    'Rootly',
    'status page',
    'E-mail',
    'digest',
    'Quiet-hours',
    'reminder',
  ]) {
    assert.match(section, new RegExp(`#### .*${heading}`), heading);
  }
});
