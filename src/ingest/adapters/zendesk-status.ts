// Zendesk's status page: `https://status.zendesk.com/api/ssp/incidents.json`, a JSON:API
// document whose `data` lists incidents with `attributes.outage` (a boolean) and
// `attributes.resolvedAt` (null while open). Titles and start times are not evidenced for this
// endpoint, so no incident records are claimed: the page state is read from the open incidents
// alone. Mapping: docs/mappings.md "Zendesk".
import { Type } from '@sinclair/typebox';
import type { Indicator } from '../../domain/records.ts';
import { defineAdapter, type AdapterInput } from './adapter.ts';
import { parseJsonBody } from './body.ts';
import { INDICATOR_DESCRIPTIONS } from './mapping.ts';
import { check, OptStr } from './validate.ts';

const SOURCE = 'zendesk-status';

const PayloadSchema = Type.Object({
  data: Type.Array(
    Type.Object({
      id: Type.Union([Type.String(), Type.Number()]),
      attributes: Type.Object({ outage: Type.Boolean(), resolvedAt: OptStr }),
    }),
  ),
});

export const zendeskStatusAdapter = defineAdapter('zendesk-status', (input: AdapterInput) => {
  const data = check(SOURCE, PayloadSchema, parseJsonBody(SOURCE, input.body, input.contentType));
  const open = data.data.filter((i) => typeof i.attributes.resolvedAt !== 'string' || i.attributes.resolvedAt.trim() === '');
  // An open incident flagged `outage` is an outage of unknown reach; any other open one a degradation.
  const indicator: Indicator = open.length === 0 ? 'operational' : open.some((i) => i.attributes.outage) ? 'partial_outage' : 'degraded';
  const description =
    open.length === 0
      ? INDICATOR_DESCRIPTIONS.operational
      : `${INDICATOR_DESCRIPTIONS[indicator]}: ${open.length} open incident${open.length === 1 ? '' : 's'}`;
  return { status: { indicator, description } };
});
