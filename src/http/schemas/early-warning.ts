import { Type } from '@sinclair/typebox';
import {
  MAX_SIGNAL_COMPONENTS,
  MAX_SIGNAL_REGIONS,
  MAX_SIGNAL_SUMMARY,
  OBSERVATION_SOURCES,
  SIGNAL_SEVERITIES,
  SIGNAL_STATES,
} from '../../domain/early-warning.ts';
import { DateTime, IdParam, Nullable, PLAIN_TEXT_PATTERN, SLUG_PATTERN, StringEnum } from './common.ts';

// Early warning (docs/early-warning.md): inbound signals, members' reports, signals with
// their evidence and transitions, the organisation's signing secret.

const Name = Type.String({ minLength: 1, maxLength: 200, pattern: PLAIN_TEXT_PATTERN });
const Components = Type.Array(Name, { maxItems: MAX_SIGNAL_COMPONENTS, description: 'Component names as the vendor names them' });
const Regions = Type.Array(Name, { maxItems: MAX_SIGNAL_REGIONS, description: 'Region names' });
const Vendor = Type.String({ pattern: SLUG_PATTERN, description: 'Vendor slug' });

export const InboundSignalBody = Type.Object(
  {
    vendor: Vendor,
    components: Type.Optional(Components),
    regions: Type.Optional(Regions),
    severity: StringEnum(SIGNAL_SEVERITIES, { description: 'minor = strength 0.4, major = 0.7, critical = 0.9' }),
    summary: Type.String({ minLength: 1, maxLength: MAX_SIGNAL_SUMMARY, pattern: PLAIN_TEXT_PATTERN }),
    externalId: Type.Optional(Type.String({ minLength: 1, maxLength: 200, pattern: PLAIN_TEXT_PATTERN, description: "The sender's own id of what it saw" })),
  },
  { additionalProperties: false },
);

export const ReportBody = Type.Object(
  {
    vendor: Vendor,
    components: Type.Optional(Components),
    regions: Type.Optional(Regions),
    summary: Type.Optional(Type.String({ maxLength: MAX_SIGNAL_SUMMARY, pattern: PLAIN_TEXT_PATTERN })),
  },
  { additionalProperties: false },
);

export const DismissBody = Type.Object(
  { reason: Type.Optional(Type.String({ maxLength: MAX_SIGNAL_SUMMARY, pattern: PLAIN_TEXT_PATTERN })) },
  { additionalProperties: false },
);

export const SignalsQuery = Type.Object(
  {
    state: Type.Optional(StringEnum(SIGNAL_STATES)),
    vendor: Type.Optional(Vendor),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
  },
  { additionalProperties: false },
);

export const ObservationSchema = Type.Object({
  id: Type.String(),
  source: StringEnum(OBSERVATION_SOURCES),
  vendor: Type.String(),
  components: Type.Array(Type.String()),
  regions: Type.Array(Type.String()),
  strength: Type.Number({ minimum: 0, maximum: 1 }),
  summary: Type.String(),
  observedAt: DateTime(),
  externalId: Nullable(Type.String()),
});

const signalFields = {
  id: Type.String(),
  vendor: Type.String(),
  state: StringEnum(SIGNAL_STATES, { description: "Ours, never the vendor's status: suspected until the vendor's incident confirms it" }),
  confidence: Type.Number({ minimum: 0, maximum: 1 }),
  components: Type.Array(Type.String()),
  regions: Type.Array(Type.String()),
  openedAt: DateTime(),
  updatedAt: DateTime(),
  lastObservedAt: DateTime(),
  incidentId: Nullable(Type.String({ description: "The vendor's incident that confirmed it" })),
};

export const SignalSchema = Type.Object(signalFields);

export const SignalDetailSchema = Type.Object({
  ...signalFields,
  affectedServices: Type.Array(
    Type.Object({
      serviceId: Type.String(),
      serviceName: Type.String(),
      criticality: StringEnum(['critical', 'high', 'medium', 'low'] as const),
      confidence: StringEnum(['high', 'medium', 'low'] as const),
      reasons: Type.Array(Type.String()),
      via: Type.String({ description: 'The dependency: the vendor\'s name, then the components or regions matched ("Stripe: API")' }),
    }),
    { description: 'The organisation\'s services the signal may hit, by the impact rules (docs/services.md "Impact of signals"); empty when none' },
  ),
  evidence: Type.Array(ObservationSchema),
  transitions: Type.Array(
    Type.Object({
      from: Nullable(Type.String({ description: 'The state before; null for the opening' })),
      to: StringEnum(SIGNAL_STATES),
      at: DateTime(),
      actor: Type.String({ description: 'system, ingest or user:<id>' }),
      reason: Type.String(),
    }),
  ),
});

export const ObservedAnswer = Type.Object({ success: Type.Boolean(), observation: ObservationSchema, signal: Nullable(SignalSchema) });

export const SignalParams = Type.Object({ orgId: IdParam('Id of the organisation'), signalId: IdParam('Id of the signal') });

export const SignalSecretStatus = Type.Object({
  success: Type.Boolean(),
  configured: Type.Boolean(),
  createdAt: Nullable(DateTime()),
  lastFour: Nullable(Type.String({ description: 'Masked' })),
});
