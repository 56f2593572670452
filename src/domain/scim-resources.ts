import { CONTROL_CHARS, scimBadRequest } from './scim-errors.ts';

// Reading the User and Group resources an identity provider sends (RFC 7643 §4.1,
// §4.2; docs/teams.md, "SCIM") into the few attributes this service keeps. Attributes
// it does not keep (title, phone numbers, the enterprise extension, a password) are
// ignored, as Okta and Entra ID send whatever their mapping holds; wrong types, control
// characters and over-long values are 400 invalidValue. Pure: no I/O.

export const SCIM_USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const SCIM_GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';
export const SCIM_PATCH_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
export const SCIM_LIST_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
export const SCIM_ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';

const MAX_TEXT = 256;
/** Member references in one request (a group's members in a POST or PUT, or one PATCH). */
export const MAX_MEMBERS_PER_REQUEST = 1000;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export interface ScimUserInput {
  userName: string;
  /** The account's address: userName when it is one, else the primary (or first) e-mail. */
  email: string;
  externalId: string | null;
  displayName: string | null;
  givenName: string | null;
  familyName: string | null;
  active: boolean;
}

export interface ScimGroupInput {
  displayName: string;
  externalId: string | null;
  members: string[];
}

type Json = Record<string, unknown>;

export const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A string attribute: trimmed, 1 to 256 characters, no control characters. */
export function scimText(v: unknown, name: string, max = MAX_TEXT): string {
  if (typeof v !== 'string') throw scimBadRequest('invalidValue', `'${name}' must be a string`);
  const s = v.trim();
  if (!s) throw scimBadRequest('invalidValue', `'${name}' must not be empty`);
  if (s.length > max) throw scimBadRequest('invalidValue', `'${name}' must be at most ${max} characters`);
  if (CONTROL_CHARS.test(s)) throw scimBadRequest('invalidValue', `'${name}' must not contain control characters`);
  return s;
}

/** An optional string attribute: absent or null is null. */
export function scimOptionalText(v: unknown, name: string): string | null {
  if (v === undefined || v === null) return null;
  if (v === '') return null;
  return scimText(v, name);
}

/** A boolean; Entra ID without its compliance flag sends "True" and "False". */
export function scimBoolean(v: unknown, name: string): boolean {
  if (typeof v === 'boolean') return v;
  if (typeof v === 'string' && /^(true|false)$/i.test(v)) return v.toLowerCase() === 'true';
  throw scimBadRequest('invalidValue', `'${name}' must be true or false`);
}

/** Attribute names are case-insensitive (RFC 7643 §2.1): the value under `name` in any case. */
export function attr(o: Json, name: string): unknown {
  if (name in o) return o[name];
  const lower = name.toLowerCase();
  for (const k of Object.keys(o)) if (k.toLowerCase() === lower) return o[k];
  return undefined;
}

function emailOf(userName: string, emails: unknown): string {
  if (EMAIL.test(userName) && userName.length <= 254) return userName.toLowerCase();
  if (Array.isArray(emails)) {
    const list = emails.filter(isObject);
    const pick = list.find((e) => attr(e, 'primary') === true || attr(e, 'primary') === 'True') ?? list[0];
    const value = pick ? attr(pick, 'value') : undefined;
    if (typeof value === 'string' && EMAIL.test(value.trim()) && value.trim().length <= 254 && !CONTROL_CHARS.test(value)) return value.trim().toLowerCase();
  }
  throw scimBadRequest('invalidValue', "'userName' must be an e-mail address, or 'emails' must hold one");
}

/** The name parts of a `name` complex attribute. */
export function nameParts(v: unknown): { givenName: string | null; familyName: string | null } {
  if (v === undefined || v === null) return { givenName: null, familyName: null };
  if (!isObject(v)) throw scimBadRequest('invalidValue', "'name' must be an object");
  return { givenName: scimOptionalText(attr(v, 'givenName'), 'name.givenName'), familyName: scimOptionalText(attr(v, 'familyName'), 'name.familyName') };
}

/** A User resource of a POST or PUT. */
export function parseScimUser(body: unknown): ScimUserInput {
  if (!isObject(body)) throw scimBadRequest('invalidSyntax', 'The body must be a JSON object');
  const userName = scimText(attr(body, 'userName'), 'userName');
  const active = attr(body, 'active');
  return {
    userName,
    email: emailOf(userName, attr(body, 'emails')),
    externalId: scimOptionalText(attr(body, 'externalId'), 'externalId'),
    displayName: scimOptionalText(attr(body, 'displayName'), 'displayName'),
    ...nameParts(attr(body, 'name')),
    active: active === undefined || active === null ? true : scimBoolean(active, 'active'),
  };
}

/** Member ids of a `members` value: an array of `{value}` (a single object is taken as one). */
export function memberIds(v: unknown): string[] {
  if (v === undefined || v === null) return [];
  const list = Array.isArray(v) ? v : [v];
  if (list.length > MAX_MEMBERS_PER_REQUEST) throw scimBadRequest('tooMany', `At most ${MAX_MEMBERS_PER_REQUEST} members per request`);
  return list.map((m, i) => {
    if (!isObject(m)) throw scimBadRequest('invalidValue', `members[${i}] must be an object with a 'value'`);
    return scimText(attr(m, 'value'), `members[${i}].value`, 64);
  });
}

/** A Group resource of a POST or PUT. */
export function parseScimGroup(body: unknown): ScimGroupInput {
  if (!isObject(body)) throw scimBadRequest('invalidSyntax', 'The body must be a JSON object');
  return {
    displayName: scimText(attr(body, 'displayName'), 'displayName', 200),
    externalId: scimOptionalText(attr(body, 'externalId'), 'externalId'),
    members: [...new Set(memberIds(attr(body, 'members')))],
  };
}
