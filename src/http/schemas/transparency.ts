import { Type } from '@sinclair/typebox';
import { TRANSPARENCY_DAYS, TRANSPARENCY_ORDERS } from '../../domain/early-warning-transparency.ts';
import { DateTime, Nullable, SLUG_PATTERN, StringEnum } from './common.ts';

// Transparency of vendors (docs/early-warning.md "Transparency"): an organisation's own
// figures of how far each vendor's page lags its signals.

const distribution = (description: string) =>
  Type.Object(
    {
      count: Type.Integer({ minimum: 1 }),
      p50: Type.Number({ minimum: 0 }),
      p90: Type.Number({ minimum: 0 }),
      min: Type.Number({ minimum: 0 }),
      max: Type.Number({ minimum: 0 }),
    },
    { additionalProperties: false, description: `${description}. Minutes, one decimal; percentiles by nearest rank` },
  );

const Count = Type.Integer({ minimum: 0 });

export const VendorTransparencySchema = Type.Object(
  {
    vendor: Type.String(),
    signals: Type.Integer({ minimum: 0, description: `Signals about the vendor opened in the last ${TRANSPARENCY_DAYS} days` }),
    outcomes: Type.Object({ suspected: Count, confirmed: Count, cleared: Count, dismissed: Count }, { additionalProperties: false }),
    leadTimeMinutes: Nullable(distribution("From the signal's opening to the vendor's first post (the confirming incident arriving); null: see `unknown`")),
    unpostedOutages: Nullable(
      Type.Integer({
        minimum: 0,
        description: 'Cleared signals whose confirmation window ended without a matching incident, not dismissed; null without signals',
      }),
    ),
    awaitingConfirmationWindow: Type.Integer({ minimum: 0, description: 'Cleared signals whose confirmation window is still open' }),
    timeToResolveMinutes: Nullable(distribution("From the signal's opening to the resolution of the vendor's incident that confirmed it; null: see `unknown`")),
    unresolved: Type.Integer({ minimum: 0, description: 'Confirmed signals whose incident is not resolved' }),
    unknown: Type.Array(
      Type.Object(
        { figure: StringEnum(['leadTimeMinutes', 'unpostedOutages', 'timeToResolveMinutes'] as const), reason: Type.String() },
        { additionalProperties: false },
      ),
      { description: 'Why each null figure is null' },
    ),
  },
  { additionalProperties: false, description: "The organisation's own figures from its signals' recorded transitions" },
);

export const TransparencyQuery = Type.Object(
  {
    vendor: Type.Optional(Type.String({ pattern: SLUG_PATTERN, description: 'One vendor, answered even without a signal' })),
    order: Type.Optional(
      StringEnum(TRANSPARENCY_ORDERS, { default: 'lead', description: 'lead: median lead time, longest first; unposted: unposted outages, most first' }),
    ),
  },
  { additionalProperties: false },
);

export const TransparencyAnswerSchema = Type.Object({
  success: Type.Boolean(),
  windowDays: Type.Integer(),
  from: DateTime(),
  to: DateTime(),
  vendors: Type.Array(VendorTransparencySchema),
});
