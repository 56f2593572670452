import { type TSchema, Type } from '@sinclair/typebox';
import { DateTime, Nullable, PLAIN_TEXT_PATTERN } from './common.ts';

// SCIM 2.0 wire shapes (RFC 7643, RFC 7644; docs/teams.md, "SCIM"). SCIM answers are
// `application/scim+json`; errors use SCIM's own error schema with the status as a string.

export const SCIM_MEDIA_TYPE = 'application/scim+json';

const Schemas = Type.Array(Type.String(), { description: 'Schema URNs of the resource or message' });

const Meta = Type.Object({
  resourceType: Type.String(),
  created: Type.Optional(DateTime()),
  lastModified: Type.Optional(DateTime()),
  location: Type.String({ description: 'URL of the resource' }),
});

/** A member or group reference; it also carries `$ref`, the referenced resource's URL (a name OpenAPI schemas cannot spell). */
const Reference = Type.Object({ value: Type.String(), display: Type.String() }, { additionalProperties: true });

export const ScimErrorSchema = Type.Object(
  {
    schemas: Schemas,
    status: Type.String({ description: 'The HTTP status, as a string' }),
    scimType: Type.Optional(Type.String({ description: 'invalidFilter, tooMany, uniqueness, mutability, invalidSyntax, invalidPath, noTarget, invalidValue' })),
    detail: Type.String(),
  },
  { description: 'SCIM error (RFC 7644 §3.12)' },
);

export const ScimUserSchema = Type.Object({
  schemas: Schemas,
  id: Type.String(),
  externalId: Type.Optional(Type.String()),
  userName: Type.String(),
  name: Type.Optional(
    Type.Object({ givenName: Type.Optional(Type.String()), familyName: Type.Optional(Type.String()), formatted: Type.Optional(Type.String()) }),
  ),
  displayName: Type.Optional(Type.String()),
  emails: Type.Array(Type.Object({ value: Type.String(), type: Type.String(), primary: Type.Boolean() })),
  active: Type.Boolean(),
  groups: Type.Optional(Type.Array(Reference)),
  meta: Meta,
});

export const ScimGroupSchema = Type.Object({
  schemas: Schemas,
  id: Type.String(),
  externalId: Type.Optional(Type.String()),
  displayName: Type.String(),
  members: Type.Optional(Type.Array(Reference)),
  meta: Meta,
});

export const scimList = <T extends TSchema>(item: T) =>
  Type.Object({
    schemas: Schemas,
    totalResults: Type.Integer(),
    startIndex: Type.Integer(),
    itemsPerPage: Type.Integer(),
    Resources: Type.Array(item),
  });

const Supported = Type.Object({ supported: Type.Boolean() });

export const ServiceProviderConfigSchema = Type.Object({
  schemas: Schemas,
  documentationUri: Type.Optional(Type.String()),
  patch: Supported,
  bulk: Type.Object({ supported: Type.Boolean(), maxOperations: Type.Integer(), maxPayloadSize: Type.Integer() }),
  filter: Type.Object({ supported: Type.Boolean(), maxResults: Type.Integer() }),
  changePassword: Supported,
  sort: Supported,
  etag: Supported,
  authenticationSchemes: Type.Array(Type.Object({ type: Type.String(), name: Type.String(), description: Type.String(), primary: Type.Boolean() })),
  meta: Type.Object({ resourceType: Type.String(), location: Type.String() }),
});

export const ResourceTypeSchema = Type.Object({
  schemas: Schemas,
  id: Type.String(),
  name: Type.String(),
  endpoint: Type.String(),
  description: Type.String(),
  schema: Type.String(),
  meta: Type.Object({ resourceType: Type.String(), location: Type.String() }),
});

const AttributeSchema = Type.Object(
  {
    name: Type.String(),
    type: Type.String(),
    multiValued: Type.Boolean(),
    required: Type.Boolean(),
    caseExact: Type.Boolean(),
    mutability: Type.String(),
    returned: Type.String(),
    uniqueness: Type.String(),
    subAttributes: Type.Optional(Type.Array(Type.Object({}, { additionalProperties: true }))),
  },
  { additionalProperties: true },
);

export const ScimSchemaSchema = Type.Object({
  schemas: Schemas,
  id: Type.String(),
  name: Type.String(),
  description: Type.String(),
  attributes: Type.Array(AttributeSchema),
  meta: Type.Object({ resourceType: Type.String(), location: Type.String() }),
});

/** Query parameters every SCIM read may carry; `attributes` is accepted and the full resource returned. */
export const ScimProjection = {
  attributes: Type.Optional(Type.String({ maxLength: 1000, description: 'Accepted; the full resource is returned' })),
  excludedAttributes: Type.Optional(Type.String({ maxLength: 1000, description: '`members` leaves out the members of groups' })),
};

export const ScimListQuery = Type.Object({
  filter: Type.Optional(
    Type.String({
      maxLength: 2048,
      description: '`attribute eq "value"` clauses joined with `and` (userName, externalId, id on Users; displayName, externalId, id on Groups)',
    }),
  ),
  startIndex: Type.Optional(Type.Integer({ description: '1-based index of the first result (default 1)' })),
  count: Type.Optional(Type.Integer({ description: 'Page size, at most 100 (default 100)' })),
  sortBy: Type.Optional(Type.String({ maxLength: 200, description: 'Ignored: sorting is not supported' })),
  sortOrder: Type.Optional(Type.String({ maxLength: 20, description: 'Ignored: sorting is not supported' })),
  ...ScimProjection,
});

// Ids are ours (UUIDs) or the provider's echo of them: control characters never name one, and
// PostgreSQL refuses a NUL in text, so they are 400 at validation, never a failed query.
export const ScimIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100, pattern: PLAIN_TEXT_PATTERN }) });

/** A SCIM request body: any JSON object; its attributes are read and checked by the use case (400 invalidValue). */
export const ScimBody = (description: string) =>
  Type.Object({ schemas: Type.Optional(Type.Array(Type.String())) }, { additionalProperties: true, description });

// ------------------------------------------------------------------ admin REST

export const ScimTokenSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  prefix: Type.String({ description: 'The first characters of the token, to recognise it' }),
  createdBy: Nullable(Type.String()),
  createdAt: DateTime(),
  lastUsedAt: Nullable(DateTime()),
});

export const ScimGroupRoleSchema = Type.Object({
  id: Type.String(),
  displayName: Type.String(),
  externalId: Nullable(Type.String()),
  role: Nullable(Type.String({ description: 'viewer, editor or admin; null: the group gives no role' })),
  members: Type.Integer(),
});
