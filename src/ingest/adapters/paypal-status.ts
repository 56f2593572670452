// PayPal's status page: `https://www.paypal-status.com/api/v1/components`. `result` lists
// PayPal's components, each with a `category.name` (`product` or `api`) and a `status` per
// environment (`production`, `sandbox`) in words such as "Operational" or "Service Outage".
// The page shows them as four views (product and API, production and sandbox); each view is
// one component here, at the worst status of its members. Nothing else of the payload is
// evidenced. Mapping: docs/mappings.md "PayPal".
import { Type } from '@sinclair/typebox';
import type { ComponentRecord, ComponentStatus } from '../../domain/records.ts';
import { AdapterError, defineAdapter, type AdapterInput } from './adapter.ts';
import { parseJsonBody } from './body.ts';
import { INDICATOR_DESCRIPTIONS, indicatorFromReadComponents } from './mapping.ts';
import { check } from './validate.ts';

const SOURCE = 'paypal-status';

const PayloadSchema = Type.Object({
  result: Type.Array(
    Type.Object({
      category: Type.Object({ name: Type.String() }),
      status: Type.Record(Type.String(), Type.Unknown()),
    }),
  ),
});

/** PayPal's words, spaces read as underscores: operational, informational, under maintenance, service disruption, service outage. */
export function paypalComponentStatus(word: string): ComponentStatus {
  switch (word.trim().toLowerCase().replace(/\s+/g, '_')) {
    case 'operational':
    case 'informational':
      return 'operational';
    case 'under_maintenance':
      return 'under_maintenance';
    case 'service_disruption':
      return 'degraded_performance';
    case 'service_outage':
      return 'major_outage';
    default:
      return 'unknown';
  }
}

const VIEWS = [
  { category: 'product', environment: 'production', name: 'Product (production)' },
  { category: 'api', environment: 'production', name: 'APIs (production)' },
  { category: 'product', environment: 'sandbox', name: 'Product (sandbox)' },
  { category: 'api', environment: 'sandbox', name: 'APIs (sandbox)' },
] as const;

const RANK: Record<ComponentStatus, number> = {
  operational: 0,
  under_maintenance: 1,
  degraded_performance: 2,
  partial_outage: 3,
  major_outage: 4,
  unknown: 5,
};

export const paypalStatusAdapter = defineAdapter('paypal-status', (input: AdapterInput) => {
  const data = check(SOURCE, PayloadSchema, parseJsonBody(SOURCE, input.body, input.contentType));
  const components: ComponentRecord[] = [];
  for (const view of VIEWS) {
    const words = data.result
      .filter((r) => r.category.name.trim().toLowerCase() === view.category)
      .map((r) => r.status[view.environment])
      .filter((w): w is string => typeof w === 'string');
    if (words.length === 0) continue;
    const status = words.map(paypalComponentStatus).reduce((a, b) => (RANK[b] > RANK[a] ? b : a));
    components.push({ id: `${view.category}-${view.environment}`, name: view.name, status, group: null, position: components.length });
  }
  if (components.length === 0) throw new AdapterError(`${SOURCE}: no product or API component with a status`, { kind: 'no components' });
  // The page a customer reads is production's; sandbox trouble does not colour PayPal's status.
  const production = components.filter((c) => c.id.endsWith('-production'));
  const indicator = indicatorFromReadComponents((production.length ? production : components).map((c) => c.status));
  return { status: { indicator, description: INDICATOR_DESCRIPTIONS[indicator] }, components };
});
