import type { ScimGroupRow } from '../services/scim/scim-groups-service.ts';
import type { ScimUserRow } from '../services/scim/scim-users-service.ts';
import { MAX_PAGE, type ScimPage } from '../services/scim/scim-users-service.ts';

// Users, groups and lists as SCIM resources (RFC 7643 §4, RFC 7644 §3.4.2;
// docs/teams.md, "SCIM"). `base` is the SCIM root URL (…/scim/v2).

const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const LIST = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';

export function userResource(u: ScimUserRow, base: string, groups?: { id: string; displayName: string }[]) {
  const name: Record<string, string> = {};
  if (u.givenName) name.givenName = u.givenName;
  if (u.familyName) name.familyName = u.familyName;
  if (u.givenName || u.familyName) name.formatted = [u.givenName, u.familyName].filter(Boolean).join(' ');
  return {
    schemas: [USER],
    id: u.id,
    ...(u.externalId ? { externalId: u.externalId } : {}),
    userName: u.userName,
    ...(Object.keys(name).length ? { name } : {}),
    ...(u.displayName ? { displayName: u.displayName } : {}),
    emails: [{ value: u.email, type: 'work', primary: true }],
    active: u.active,
    ...(groups ? { groups: groups.map((g) => ({ value: g.id, display: g.displayName, $ref: `${base}/Groups/${g.id}` })) } : {}),
    meta: { resourceType: 'User', created: u.createdAt, lastModified: u.updatedAt, location: `${base}/Users/${u.id}` },
  };
}

export function groupResource(g: ScimGroupRow, base: string, withMembers = true) {
  return {
    schemas: [GROUP],
    id: g.id,
    ...(g.externalId ? { externalId: g.externalId } : {}),
    displayName: g.displayName,
    ...(withMembers ? { members: g.members.map((m) => ({ value: m.id, display: m.userName, $ref: `${base}/Users/${m.id}` })) } : {}),
    meta: { resourceType: 'Group', created: g.createdAt, lastModified: g.updatedAt, location: `${base}/Groups/${g.id}` },
  };
}

export function listResponse<T>(items: T[], total: number, startIndex: number) {
  return { schemas: [LIST], totalResults: total, startIndex, itemsPerPage: items.length, Resources: items };
}

const attribute = (name: string, type: string, extra: Record<string, unknown> = {}) => ({
  name,
  type,
  multiValued: false,
  required: false,
  caseExact: false,
  mutability: 'readWrite',
  returned: 'default',
  uniqueness: 'none',
  ...extra,
});

/** RFC 7644 §4 discovery documents. */
export function discovery(base: string) {
  const config = {
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig'],
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults: MAX_PAGE },
    changePassword: { supported: false },
    sort: { supported: false },
    etag: { supported: false },
    authenticationSchemes: [
      {
        type: 'oauthbearertoken',
        name: 'Bearer token',
        description: 'A SCIM token of the organisation, made by an admin (POST /api/v1/orgs/{orgId}/scim/tokens)',
        primary: true,
      },
    ],
    meta: { resourceType: 'ServiceProviderConfig', location: `${base}/ServiceProviderConfig` },
  };
  const resourceTypes = [
    { id: 'User', name: 'User', endpoint: '/Users', description: 'A member of the organisation', schema: USER },
    { id: 'Group', name: 'Group', endpoint: '/Groups', description: 'A group; an admin maps it to a role', schema: GROUP },
  ].map((r) => ({
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:ResourceType'],
    ...r,
    meta: { resourceType: 'ResourceType', location: `${base}/ResourceTypes/${r.id}` },
  }));
  const ref = (name: string, types: string[]) => attribute(name, 'reference', { referenceTypes: types, mutability: 'immutable' });
  const schemas = [
    {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:Schema'],
      id: USER,
      name: 'User',
      description: 'User account',
      attributes: [
        attribute('userName', 'string', { required: true, uniqueness: 'server' }),
        attribute('externalId', 'string', { caseExact: true }),
        attribute('name', 'complex', {
          subAttributes: [attribute('givenName', 'string'), attribute('familyName', 'string'), attribute('formatted', 'string', { mutability: 'readOnly' })],
        }),
        attribute('displayName', 'string'),
        attribute('active', 'boolean'),
        attribute('emails', 'complex', {
          multiValued: true,
          subAttributes: [attribute('value', 'string'), attribute('type', 'string'), attribute('primary', 'boolean')],
        }),
        attribute('groups', 'complex', {
          multiValued: true,
          mutability: 'readOnly',
          subAttributes: [attribute('value', 'string', { mutability: 'readOnly' }), attribute('display', 'string', { mutability: 'readOnly' })],
        }),
      ],
    },
    {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:Schema'],
      id: GROUP,
      name: 'Group',
      description: 'Group',
      attributes: [
        attribute('displayName', 'string', { required: true, uniqueness: 'server' }),
        attribute('externalId', 'string', { caseExact: true }),
        attribute('members', 'complex', {
          multiValued: true,
          subAttributes: [
            attribute('value', 'string', { mutability: 'immutable' }),
            ref('$ref', ['User']),
            attribute('display', 'string', { mutability: 'readOnly' }),
          ],
        }),
      ],
    },
  ].map((s) => ({ ...s, meta: { resourceType: 'Schema', location: `${base}/Schemas/${s.id}` } }));
  return { config, resourceTypes, schemas };
}

export type { ScimPage };
