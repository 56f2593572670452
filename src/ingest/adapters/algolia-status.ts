// Algolia's status page: `https://status.algolia.com/2/status/service/all/period/current`, whose
// `global.status` is the page's overall state in Statuspage's component words. Nothing else of
// the payload is evidenced, so no components or incidents are claimed. Mapping:
// docs/mappings.md "Algolia".
import { Type } from '@sinclair/typebox';
import type { Indicator } from '../../domain/records.ts';
import { defineAdapter, type AdapterInput } from './adapter.ts';
import { parseJsonBody } from './body.ts';
import { INDICATOR_DESCRIPTIONS } from './mapping.ts';
import { check } from './validate.ts';

const SOURCE = 'algolia-status';

const PayloadSchema = Type.Object({ global: Type.Object({ status: Type.String() }) });

export function algoliaIndicator(word: string): Indicator {
  switch (word.trim().toLowerCase()) {
    case 'operational':
      return 'operational';
    case 'degraded_performance':
      return 'degraded';
    case 'partial_outage':
      return 'partial_outage';
    case 'major_outage':
      return 'major_outage';
    default:
      return 'unknown';
  }
}

export const algoliaStatusAdapter = defineAdapter('algolia-status', (input: AdapterInput) => {
  const data = check(SOURCE, PayloadSchema, parseJsonBody(SOURCE, input.body, input.contentType));
  const indicator = algoliaIndicator(data.global.status);
  return { status: { indicator, description: INDICATOR_DESCRIPTIONS[indicator] } };
});
