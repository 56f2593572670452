import { Type } from '@sinclair/typebox';
import {
  MAX_EXPECT,
  MAX_HEADER_NAME_LENGTH,
  MAX_HEADER_VALUE_LENGTH,
  MAX_PRIVATE_INTERVAL_SECONDS,
  MAX_TARGET_LENGTH,
  MIN_PRIVATE_INTERVAL_SECONDS,
  PRIVATE_PROBE_KINDS,
} from '../../domain/private-probes.ts';
import { DateTime, IdParam, Nullable, PLAIN_TEXT_PATTERN, SLUG_PATTERN, StringEnum } from './common.ts';

// An organisation's private probes (docs/early-warning.md "Private probes").

const Kind = StringEnum(PRIVATE_PROBE_KINDS, {
  description: '`http`: a GET of `target` (a URL); `tcp`: a connection to `target` (host:port); `tls`: a verified TLS handshake with it',
});
const Target = Type.String({
  minLength: 1,
  maxLength: MAX_TARGET_LENGTH,
  pattern: PLAIN_TEXT_PATTERN,
  description: "https URL (http) or host:port (tcp, tls), under the vendor's hostnames",
});
const Expect = Type.Array(Type.Integer({ minimum: 100, maximum: 599 }), {
  minItems: 1,
  maxItems: MAX_EXPECT,
  description: 'Statuses that count as a good answer (http; default [200]); redirects are never followed',
});
const Interval = Type.Integer({
  minimum: MIN_PRIVATE_INTERVAL_SECONDS,
  maximum: MAX_PRIVATE_INTERVAL_SECONDS,
  description: 'Seconds between checks (default 60)',
});
const CredentialIn = Type.Object(
  {
    name: Type.String({
      minLength: 1,
      maxLength: MAX_HEADER_NAME_LENGTH,
      pattern: '^[A-Za-z0-9-]+$',
      description: 'Header name: authorization, api-key, apikey, private-token or an x- header',
    }),
    value: Type.String({
      minLength: 1,
      maxLength: MAX_HEADER_VALUE_LENGTH,
      pattern: '^[\\x20-\\x7e]+$',
      description: 'Header value (e.g. `Bearer …`); sealed at rest, never shown again',
    }),
  },
  { additionalProperties: false, description: 'One request header sent with each check (http only)' },
);

export const NewPrivateProbe = Type.Object(
  {
    vendor: Type.String({ pattern: SLUG_PATTERN, maxLength: 64, description: 'Catalog slug of the vendor the probe checks' }),
    kind: Kind,
    target: Target,
    expect: Type.Optional(Expect),
    intervalSeconds: Type.Optional(Interval),
    credential: Type.Optional(Nullable(CredentialIn)),
  },
  { additionalProperties: false },
);

export const PrivateProbeChange = Type.Object(
  {
    vendor: Type.Optional(Type.String({ pattern: SLUG_PATTERN, maxLength: 64 })),
    kind: Type.Optional(Kind),
    target: Type.Optional(Target),
    expect: Type.Optional(Expect),
    intervalSeconds: Type.Optional(Interval),
    credential: Type.Optional(Nullable(CredentialIn)),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const PrivateProbeSchema = Type.Object({
  id: Type.String(),
  vendor: Type.String(),
  kind: Kind,
  target: Type.String(),
  expect: Nullable(Type.Array(Type.Integer())),
  intervalSeconds: Type.Integer(),
  credential: Nullable(
    Type.Object({
      name: Type.String(),
      lastFour: Type.String({ description: 'Last four characters of the value (empty for a value under 12 characters); the value is never answered' }),
    }),
  ),
  state: StringEnum(['unknown', 'ok', 'anomalous', 'credential_rejected'] as const, {
    description:
      '`unknown` before the first check; `credential_rejected` while the vendor answers 401/403 (the credential, not the vendor); `anomalous` by the probe rules',
  }),
  reason: Nullable(Type.String()),
  samples: Type.Integer(),
  p50Ms: Nullable(Type.Number()),
  p99Ms: Nullable(Type.Number()),
  errorRate: Nullable(Type.Number()),
  lastSampleAt: Nullable(DateTime()),
  createdAt: DateTime(),
  updatedAt: DateTime(),
});

export const PrivateProbeParams = Type.Object({ orgId: IdParam('Id of the organisation'), probeId: IdParam('Id of the private probe') });
export const PrivateProbeQuery = Type.Object({ vendor: Type.Optional(Type.String({ pattern: SLUG_PATTERN, maxLength: 64 })) }, { additionalProperties: false });
