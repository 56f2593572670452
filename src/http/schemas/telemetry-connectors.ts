import { Type } from '@sinclair/typebox';
import { MAX_DURATION_SECONDS, MAX_QUERIES, MAX_QUERY_LENGTH } from '../../domain/telemetry.ts';
import { DateTime, IdParam, Nullable, PLAIN_TEXT_PATTERN, SLUG_PATTERN, StringEnum } from './common.ts';
import { OrgName } from './orgs.ts';

// Telemetry connectors of an organisation (docs/early-warning.md "Prometheus connectors").

const Query = Type.Object(
  {
    vendor: Type.String({ pattern: SLUG_PATTERN, maxLength: 64, description: 'Catalog slug of the vendor the query measures' }),
    query: Type.String({
      minLength: 1,
      maxLength: MAX_QUERY_LENGTH,
      pattern: PLAIN_TEXT_PATTERN,
      description: 'PromQL instant query, one line; its highest value is compared with the threshold',
    }),
    threshold: Type.Number({ description: 'A value above this is a breach (e.g. 0.2 for a 20 % error ratio)' }),
    durationSeconds: Type.Integer({ minimum: 0, maximum: MAX_DURATION_SECONDS, description: 'How long the value must stay above the threshold' }),
  },
  { additionalProperties: false },
);

const Token = Type.String({
  minLength: 1,
  maxLength: 4096,
  pattern: '^[\\x21-\\x7e]+$',
  description: 'Bearer token sent to Prometheus (or its proxy); sealed at rest, never shown again',
});
const BaseUrl = Type.String({
  minLength: 1,
  maxLength: 2048,
  description: 'Base URL of the Prometheus HTTP API (https; a private address only when the operator allows it)',
});

export const NewTelemetryConnector = Type.Object(
  {
    name: OrgName,
    baseUrl: BaseUrl,
    token: Type.Optional(Nullable(Token)),
    queries: Type.Array(Query, { minItems: 1, maxItems: MAX_QUERIES }),
    enabled: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export const TelemetryConnectorChange = Type.Object(
  {
    name: Type.Optional(OrgName),
    baseUrl: Type.Optional(BaseUrl),
    token: Type.Optional(Nullable(Token)),
    queries: Type.Optional(Type.Array(Query, { minItems: 1, maxItems: MAX_QUERIES })),
    enabled: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const TelemetryConnectorSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  baseUrl: Type.String(),
  token: Nullable(Type.Object({ lastFour: Type.String() })),
  enabled: Type.Boolean(),
  health: StringEnum(['unknown', 'ok', 'unhealthy'] as const, {
    description: '`unknown` until the first evaluation; `unhealthy` when a query failed (see lastError)',
  }),
  lastError: Nullable(Type.String()),
  lastEvaluatedAt: Nullable(DateTime()),
  queries: Type.Array(
    Type.Object({
      vendor: Type.String(),
      query: Type.String(),
      threshold: Type.Number(),
      durationSeconds: Type.Integer(),
      value: Nullable(Type.Number({ description: 'Highest finite value of the last answer; null when it had none' })),
      aboveSince: Nullable(DateTime()),
      breaching: Type.Boolean(),
      error: Nullable(Type.String()),
      evaluatedAt: Nullable(DateTime()),
    }),
  ),
  createdAt: DateTime(),
  updatedAt: DateTime(),
});

export const ConnectorParams = Type.Object({ orgId: IdParam('Id of the organisation'), connectorId: IdParam('Id of the telemetry connector') });
