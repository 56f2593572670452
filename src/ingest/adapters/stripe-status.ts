// Stripe's status page: `https://status.stripe.com/current/full`, `{message, UptimeStatus}`,
// the page's own summary of its current state. It names no components and no incidents,
// so none are claimed. Mapping: docs/mappings.md "Stripe".
import { Type } from '@sinclair/typebox';
import type { Indicator } from '../../domain/records.ts';
import { defineAdapter, type AdapterInput } from './adapter.ts';
import { parseJsonBody } from './body.ts';
import { INDICATOR_DESCRIPTIONS } from './mapping.ts';
import { plainLine, truncate } from './text.ts';
import { check, OptStr } from './validate.ts';

const SOURCE = 'stripe-status';

const PayloadSchema = Type.Object({ UptimeStatus: Type.String(), message: OptStr });

/** up, degraded, down; `pending` and `paused` are not explained anywhere, so they stay unknown. */
export function stripeIndicator(word: string): Indicator {
  switch (word.trim().toLowerCase()) {
    case 'up':
      return 'operational';
    case 'degraded':
      return 'degraded';
    case 'down':
      return 'major_outage';
    default:
      return 'unknown';
  }
}

export const stripeStatusAdapter = defineAdapter('stripe-status', (input: AdapterInput) => {
  const data = check(SOURCE, PayloadSchema, parseJsonBody(SOURCE, input.body, input.contentType));
  const indicator = stripeIndicator(data.UptimeStatus);
  const message = truncate(plainLine(data.message ?? ''), 200);
  // The page's own sentence, unless the word is one we cannot read: then "unknown" is not dressed up.
  return { status: { indicator, description: indicator !== 'unknown' && message ? message : INDICATOR_DESCRIPTIONS[indicator] } };
});
