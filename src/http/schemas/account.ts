import { Type } from '@sinclair/typebox';
import { ORG_ROLES } from '../../domain/org-roles.ts';
import { USER_PLANS } from '../../domain/plans.ts';
import { DateTime, Nullable, StringEnum } from './common.ts';

export const Credentials = Type.Object(
  {
    email: Type.String({ minLength: 3, maxLength: 254, format: 'email', description: 'Account email (case-insensitive)' }),
    password: Type.String({ minLength: 1, maxLength: 256, description: 'On signup: 10 to 256 characters, not a common or easily guessed password' }),
  },
  { additionalProperties: false },
);

const AccountSchema = Type.Object({
  id: Type.String(),
  email: Type.String(),
  plan: StringEnum(USER_PLANS),
  createdAt: DateTime(),
});

export const AuthResponse = Type.Object({
  success: Type.Boolean(),
  account: AccountSchema,
  sessionExpiresAt: DateTime({ description: 'When the session cookie stops working' }),
});

export const ApiKeySchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  prefix: Type.String({ description: 'First characters of the secret, for recognising the key' }),
  createdAt: DateTime(),
  lastUsedAt: Nullable(DateTime({ description: 'Last use, to the minute' })),
});

const KeyUsage = Type.Object({
  usedToday: Type.Integer(),
  remainingToday: Type.Integer(),
  usedThisMinute: Type.Integer(),
  remainingThisMinute: Type.Integer(),
});

export const AccountSummary = Type.Object({
  success: Type.Boolean(),
  account: AccountSchema,
  organisation: Type.Object({
    id: Type.String(),
    name: Type.String(),
    personal: Type.Boolean({ description: 'The organisation made with the account (cannot be left)' }),
    role: StringEnum(ORG_ROLES),
  }),
  limits: Type.Object({
    perMinute: Type.Integer(),
    perDay: Type.Integer(),
    countedPer: Type.String({ description: "`organisation`: all API keys and members' web sessions of the organisation share the figures" }),
    maxKeys: Type.Integer({ description: 'Active API keys the plan allows' }),
    windowDays: Nullable(Type.Integer({ description: 'History window cap; null = unlimited' })),
    watchlistLimit: Nullable(Type.Integer({ description: 'null = unlimited' })),
    compliance: Type.Boolean(),
    concurrentStreams: Type.Integer(),
  }),
  usage: Type.Composite([
    Type.Object({
      day: Type.String({ description: 'UTC day the counts belong to' }),
      resetsInSeconds: Type.Integer(),
      total: Type.Integer({ description: 'Requests today over all keys and web sessions of the account (same as usedToday)' }),
    }),
    KeyUsage,
  ]),
});
