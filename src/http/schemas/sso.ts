import { Type } from '@sinclair/typebox';
import { JIT_ROLES } from '../../services/orgs/sso-service.ts';
import { DateTime, IdParam, Nullable, PLAIN_TEXT_PATTERN, StringEnum } from './common.ts';
import { Role } from './orgs.ts';

// Single sign-on settings of an organisation (docs/teams.md, "Single sign-on").

export const SsoSettingsSchema = Type.Object({
  issuer: Type.String({ description: 'OpenID Provider issuer URL (its discovery document is read from it)' }),
  clientId: Type.String(),
  clientSecret: Type.String({ description: 'Masked: `****` and the last four characters' }),
  defaultRole: Role,
  ssoRequired: Type.Boolean({ description: 'Members whose e-mail domain is verified must sign in with SSO (owners keep password sign-in, audited)' }),
  enabled: Type.Boolean(),
  redirectUri: Type.String({ description: 'The redirect URI to register at the identity provider' }),
  createdAt: DateTime(),
  updatedAt: DateTime(),
});

export const SsoSettingsInputSchema = Type.Object(
  {
    issuer: Type.String({ minLength: 1, maxLength: 500, pattern: PLAIN_TEXT_PATTERN, description: 'https URL of the OpenID Provider (exactly its `issuer`)' }),
    clientId: Type.String({ minLength: 1, maxLength: 255, pattern: PLAIN_TEXT_PATTERN }),
    clientSecret: Type.Optional(
      Type.String({ minLength: 1, maxLength: 1000, pattern: PLAIN_TEXT_PATTERN, description: 'Omit (or send the masked value back) to keep the stored one' }),
    ),
    defaultRole: StringEnum(JIT_ROLES, { description: 'Role of a person the first time they sign in with SSO (never owner)' }),
    ssoRequired: Type.Boolean(),
    enabled: Type.Boolean(),
  },
  { additionalProperties: false },
);

export const SsoDomainSchema = Type.Object({
  id: Type.String(),
  domain: Type.String(),
  verified: Type.Boolean(),
  verifiedAt: Nullable(DateTime()),
  record: Type.Object({
    name: Type.String({ description: 'DNS name of the TXT record: `_vis-verify.<domain>`' }),
    value: Type.String({ description: 'Its value: `vis-verify=<token>`' }),
  }),
  createdAt: DateTime(),
});

export const NewSsoDomain = Type.Object(
  { domain: Type.String({ minLength: 3, maxLength: 253, pattern: '^[A-Za-z0-9.-]+$', description: 'An e-mail domain, such as example.com' }) },
  { additionalProperties: false },
);

export const SsoDomainParams = Type.Object({ orgId: IdParam('Id of the organisation'), domainId: IdParam('Id of the domain') });

export const SsoSettingsResponse = Type.Object({ success: Type.Boolean(), sso: Nullable(SsoSettingsSchema) });
export const SsoDomainResponse = Type.Object({ success: Type.Boolean(), domain: SsoDomainSchema });
export const SsoDomainsResponse = Type.Object({ success: Type.Boolean(), domains: Type.Array(SsoDomainSchema) });
