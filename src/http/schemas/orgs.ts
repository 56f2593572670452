import { Type } from '@sinclair/typebox';
import { ORG_ROLES, type OrgRole } from '../../domain/org-roles.ts';
import { USER_PLANS } from '../../domain/plans.ts';
import { ApiKeySchema } from './account.ts';
import { DateTime, IdParam, Nullable, PLAIN_TEXT_PATTERN, SLUG_PATTERN, StringEnum } from './common.ts';

// Organisations, members, invitations, organisation keys and the audit log (docs/teams.md).

export const Role = StringEnum(ORG_ROLES, { description: 'owner > admin > editor > viewer (docs/teams.md, "Roles")' });

export const OrgIdParams = Type.Object({ orgId: IdParam('Id of the organisation') });

export const OrgName = Type.String({ minLength: 1, maxLength: 80, pattern: PLAIN_TEXT_PATTERN, description: 'Name people see' });

export const OrganisationSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  plan: StringEnum(USER_PLANS),
  personal: Type.Boolean({ description: 'Made with its account: one member, cannot be left or deleted' }),
  createdAt: DateTime(),
  role: Role,
});

export const MyOrganisation = Type.Composite([
  OrganisationSchema,
  Type.Object({ current: Type.Boolean({ description: 'The organisation this request acts for' }) }),
]);

export const MemberSchema = Type.Object({
  userId: Type.String(),
  email: Type.String(),
  role: Role,
  joinedAt: DateTime(),
});

export const InvitationSchema = Type.Object({
  id: Type.String(),
  organisation: Type.Object({ id: Type.String(), name: Type.String() }),
  email: Type.String({ description: 'Only a user signed in with this address can accept' }),
  role: Role,
  invitedBy: Nullable(Type.String({ description: 'E-mail address of the member who invited' })),
  createdAt: DateTime(),
  expiresAt: DateTime(),
  state: StringEnum(['open', 'accepted', 'declined', 'revoked', 'expired'] as const),
});

export const NewInvitation = Type.Object({
  id: Type.String(),
  email: Type.String(),
  role: Role,
  expiresAt: DateTime(),
  link: Type.String({ description: 'The single-use invitation link; shown here only (it is also e-mailed when the server has SMTP)' }),
  emailed: Type.Boolean({ description: 'Whether the invitation e-mail was accepted by the mail server' }),
});

export const OrgKeySchema = Type.Composite([
  ApiKeySchema,
  Type.Object({
    userEmail: Nullable(Type.String({ description: 'The member the key acts as; null for an organisation key' })),
    role: Type.Unsafe<OrgRole | null>({
      type: 'string',
      enum: [...ORG_ROLES, null],
      nullable: true,
      description: "An organisation key's role; null for a member key (it acts with its member's current role)",
    }),
  }),
]);

const AuditActorSchema = Type.Object({
  kind: StringEnum(['user', 'key', 'scim', 'operator', 'system'] as const),
  id: Nullable(Type.String()),
  label: Type.String({ description: 'Who, as people read it (an e-mail address, a key)' }),
  address: Nullable(Type.String({ description: 'Client address of the request' })),
});

export const AuditEntrySchema = Type.Object({
  id: Type.String(),
  seq: Type.Integer({ description: "Position in the organisation's hash chain" }),
  at: DateTime(),
  actor: AuditActorSchema,
  action: Type.String({ description: 'What changed, e.g. member.role_changed' }),
  target: Type.String({ description: 'What it changed, e.g. user:ann@example.com' }),
  before: Type.Unknown({ description: 'State before the change, secrets masked' }),
  after: Type.Unknown({ description: 'State after the change, secrets masked' }),
  hash: Type.String({ description: "SHA-256 of the previous entry's hash and this entry" }),
});

export const AuditQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 50 })),
    before: Type.Optional(Type.Integer({ minimum: 1, description: 'Entries before this `seq` (the `nextBefore` of the previous page)' })),
    action: Type.Optional(Type.String({ maxLength: 64, pattern: '^[a-z_.]+$' })),
    actor: Type.Optional(StringEnum(['user', 'key', 'scim', 'operator', 'system'] as const)),
    since: Type.Optional(DateTime()),
    until: Type.Optional(DateTime()),
    format: Type.Optional(
      StringEnum(['json', 'csv', 'ndjson'] as const, {
        description: '`json`: one page; `csv`: every matching entry as a CSV download; `ndjson`: every matching entry as a JSON-lines download',
      }),
    ),
  },
  { additionalProperties: false },
);

export const NamedWatchlistSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  vendors: Type.Array(Type.String(), { description: 'Vendor slugs in the order given' }),
  createdAt: DateTime(),
  updatedAt: DateTime(),
});

const WatchlistVendors = Type.Array(Type.String({ pattern: SLUG_PATTERN }), {
  maxItems: 5000,
  description: 'Vendor slugs; duplicates collapse, order is kept',
});

export const NewNamedWatchlist = Type.Object({ name: OrgName, vendors: WatchlistVendors }, { additionalProperties: false });
export const NamedWatchlistChange = Type.Object(
  { name: Type.Optional(OrgName), vendors: Type.Optional(WatchlistVendors) },
  { additionalProperties: false, minProperties: 1 },
);
export const WatchlistParams = Type.Object({ orgId: IdParam('Id of the organisation'), watchlistId: IdParam('Id of the watchlist') });
