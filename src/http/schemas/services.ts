import { Type } from '@sinclair/typebox';
import {
  CRITICALITIES,
  DEPENDENCY_KINDS,
  MAX_COMPONENT_ID,
  MAX_DEPENDENCIES,
  MAX_DEPENDENCY_COMPONENTS,
  MAX_DEPENDENCY_REGIONS,
  MAX_TAGS,
  SERVICE_NAME_PATTERN,
  TAG_PATTERN,
} from '../../domain/team-services.ts';
import { DateTime, IdParam, Nullable, PLAIN_TEXT_PATTERN, SLUG_PATTERN, StringEnum } from './common.ts';

// An organisation's services and their vendor dependencies (docs/services.md "API").

const ServiceName = Type.String({
  minLength: 1,
  maxLength: 64,
  pattern: SERVICE_NAME_PATTERN,
  description: 'Unique in the organisation: lower-case letters, digits, and dashes or dots between them',
});
const Tags = Type.Array(Type.String({ minLength: 1, maxLength: 40, pattern: TAG_PATTERN }), {
  maxItems: MAX_TAGS,
  description: 'Free labels (team:payments, tier-1)',
});
const OwnerRouteId = Nullable(
  Type.String({ minLength: 1, maxLength: 64, pattern: PLAIN_TEXT_PATTERN, description: 'An alert route of this organisation that reaches the owning team' }),
);

export const DependencyInput = Type.Object(
  {
    vendor: Type.String({ pattern: SLUG_PATTERN, description: 'Vendor slug of the catalog' }),
    kind: Type.Optional(StringEnum(DEPENDENCY_KINDS, { description: 'hard (default): the service fails with the vendor; soft: it degrades or falls back' })),
    components: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: MAX_COMPONENT_ID, pattern: PLAIN_TEXT_PATTERN }), {
        maxItems: MAX_DEPENDENCY_COMPONENTS,
        description: "Ids of the vendor's components (an exact component name is taken as its id); empty = the whole vendor",
      }),
    ),
    regions: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 64, pattern: PLAIN_TEXT_PATTERN }), {
        maxItems: MAX_DEPENDENCY_REGIONS,
        description: 'Cloud regions (us-east-1, us-central1, eastus, "US East (N. Virginia)"), stored as codes; empty = every region',
      }),
    ),
  },
  { additionalProperties: false },
);

const Dependencies = Type.Array(DependencyInput, { maxItems: MAX_DEPENDENCIES, description: 'One per vendor; replaces the stored list as a whole' });

export const NewService = Type.Object(
  {
    name: ServiceName,
    ownerRouteId: Type.Optional(OwnerRouteId),
    criticality: Type.Optional(StringEnum(CRITICALITIES, { description: 'Default medium' })),
    tags: Type.Optional(Tags),
    dependencies: Type.Optional(Dependencies),
  },
  { additionalProperties: false },
);

export const ServiceChange = Type.Object(
  {
    name: Type.Optional(ServiceName),
    ownerRouteId: Type.Optional(OwnerRouteId),
    criticality: Type.Optional(StringEnum(CRITICALITIES)),
    tags: Type.Optional(Tags),
    dependencies: Type.Optional(Dependencies),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const DependencySchema = Type.Object({
  vendor: Type.String(),
  kind: StringEnum(DEPENDENCY_KINDS),
  components: Type.Array(
    Type.Object({ id: Type.String(), name: Nullable(Type.String({ description: "The component's current name; null when the vendor no longer reports it" })) }),
  ),
  regions: Type.Array(Type.Object({ code: Type.String(), cloud: Type.String(), name: Type.String() })),
});

export const ServiceSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  ownerRouteId: Nullable(Type.String()),
  criticality: StringEnum(CRITICALITIES),
  tags: Type.Array(Type.String()),
  dependencies: Type.Array(DependencySchema),
  createdAt: DateTime(),
  updatedAt: DateTime(),
});

export const ServiceParams = Type.Object({ orgId: IdParam('Id of the organisation'), serviceId: IdParam('Id of the service') });
