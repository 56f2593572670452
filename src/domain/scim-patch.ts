import { CONTROL_CHARS, scimBadRequest } from './scim-errors.ts';
import { attr, isObject, memberIds, nameParts, SCIM_PATCH_SCHEMA, scimBoolean, scimOptionalText, scimText } from './scim-resources.ts';

// PATCH requests (RFC 7644 §3.5.2) in the shapes Okta and Entra ID send (docs/teams.md,
// "SCIM"), read into what changes. `op` is compared case-insensitively (Entra sends
// "Replace", "Add"); `replace` without a path carries an object of attributes (Okta's
// deactivation `{"active": false}`, its group rename `{"id", "displayName"}`); members
// are removed by `members[value eq "id"]` or by `path: "members"` with a value list.
// Attributes this service does not keep are ignored; an unknown op, a malformed path or
// a wrong value is 400. Pure: no I/O.

export const MAX_PATCH_OPERATIONS = 100;

export interface UserPatch {
  active?: boolean;
  userName?: string;
  externalId?: string | null;
  displayName?: string | null;
  givenName?: string | null;
  familyName?: string | null;
}

export type MemberOp = { kind: 'add' | 'remove' | 'replace'; ids: string[] } | { kind: 'clear' };

export interface GroupPatch {
  displayName?: string;
  externalId?: string | null;
  /** In request order. */
  members: MemberOp[];
}

type Op = 'add' | 'remove' | 'replace';
interface RawOp {
  op: Op;
  path: string | null;
  value: unknown;
}

const PATH = /^[A-Za-z][A-Za-z0-9_.:$-]*(\[[^\]]{1,200}\])?(\.[A-Za-z][A-Za-z0-9_]*)?$/;
const MEMBER_FILTER = /^members\[\s*value\s+eq\s+"([^"\\]{1,64})"\s*\]$/i;

/** The operations of a PATCH body, checked for form. */
export function patchOperations(body: unknown): RawOp[] {
  if (!isObject(body)) throw scimBadRequest('invalidSyntax', 'The body must be a JSON object');
  const schemas = attr(body, 'schemas');
  if (schemas !== undefined && !(Array.isArray(schemas) && schemas.includes(SCIM_PATCH_SCHEMA))) {
    throw scimBadRequest('invalidSyntax', `'schemas' must list ${SCIM_PATCH_SCHEMA}`);
  }
  const ops = attr(body, 'Operations');
  if (!Array.isArray(ops) || ops.length === 0) throw scimBadRequest('invalidSyntax', "'Operations' must be a non-empty array");
  if (ops.length > MAX_PATCH_OPERATIONS) throw scimBadRequest('tooMany', `At most ${MAX_PATCH_OPERATIONS} operations per request`);
  return ops.map((o, i) => {
    if (!isObject(o)) throw scimBadRequest('invalidSyntax', `Operations[${i}] must be an object`);
    const op = attr(o, 'op');
    if (typeof op !== 'string' || !/^(add|remove|replace)$/i.test(op))
      throw scimBadRequest('invalidSyntax', `Operations[${i}].op must be add, remove or replace`);
    const rawPath = attr(o, 'path');
    let path: string | null = null;
    if (rawPath !== undefined && rawPath !== null && rawPath !== '') {
      if (typeof rawPath !== 'string' || rawPath.length > 300 || CONTROL_CHARS.test(rawPath) || !PATH.test(rawPath.trim())) {
        throw scimBadRequest('invalidPath', `Operations[${i}].path is not a valid attribute path`);
      }
      path = rawPath.trim();
    }
    const kind = op.toLowerCase() as Op;
    if (kind === 'remove' && path === null) throw scimBadRequest('noTarget', `Operations[${i}]: remove needs a path`);
    return { op: kind, path, value: attr(o, 'value') };
  });
}

/** Strips the core schema URN a client may put before an attribute (`urn:...:User:userName`). */
const bare = (path: string, schema: 'User' | 'Group') => {
  const prefix = `urn:ietf:params:scim:schemas:core:2.0:${schema}:`;
  return path.toLowerCase().startsWith(prefix.toLowerCase()) ? path.slice(prefix.length) : path;
};

function applyUserAttribute(out: UserPatch, name: string, value: unknown, op: Op) {
  const removing = op === 'remove';
  switch (name.toLowerCase()) {
    case 'active':
      if (removing) throw scimBadRequest('mutability', "'active' cannot be removed");
      out.active = scimBoolean(value, 'active');
      return;
    case 'username':
      if (removing) throw scimBadRequest('mutability', "'userName' is required");
      out.userName = scimText(value, 'userName');
      return;
    case 'externalid':
      out.externalId = removing ? null : scimOptionalText(value, 'externalId');
      return;
    case 'displayname':
      out.displayName = removing ? null : scimOptionalText(value, 'displayName');
      return;
    case 'name.givenname':
      out.givenName = removing ? null : scimOptionalText(value, 'name.givenName');
      return;
    case 'name.familyname':
      out.familyName = removing ? null : scimOptionalText(value, 'name.familyName');
      return;
    case 'name': {
      const parts = removing ? { givenName: null, familyName: null } : nameParts(value);
      out.givenName = parts.givenName;
      out.familyName = parts.familyName;
      return;
    }
    default:
      // Attributes this service does not keep (emails, title, the enterprise extension ...).
      return;
  }
}

/** A PATCH of a User. */
export function parseUserPatch(body: unknown): UserPatch {
  const out: UserPatch = {};
  for (const o of patchOperations(body)) {
    if (o.path === null) {
      if (!isObject(o.value)) throw scimBadRequest('invalidValue', `${o.op} without a path needs an object value`);
      for (const [k, v] of Object.entries(o.value)) applyUserAttribute(out, bare(k, 'User'), v, o.op);
    } else {
      applyUserAttribute(out, bare(o.path, 'User'), o.value, o.op);
    }
  }
  return out;
}

function applyGroupAttribute(out: GroupPatch, name: string, value: unknown, op: Op) {
  const removing = op === 'remove';
  const lower = name.toLowerCase();
  if (lower === 'displayname') {
    if (removing) throw scimBadRequest('mutability', "'displayName' is required");
    out.displayName = scimText(value, 'displayName', 200);
  } else if (lower === 'externalid') {
    out.externalId = removing ? null : scimOptionalText(value, 'externalId');
  } else if (lower === 'members') {
    if (op === 'add') out.members.push({ kind: 'add', ids: memberIds(value) });
    else if (op === 'replace') out.members.push({ kind: 'replace', ids: memberIds(value) });
    else if (value === undefined || value === null) out.members.push({ kind: 'clear' });
    else out.members.push({ kind: 'remove', ids: memberIds(value) });
  } else if (lower === 'id' || lower === 'schemas' || lower === 'meta') {
    // Okta sends the group's own id with a rename; read-only attributes are ignored (RFC 7644 §3.5.2).
  } else {
    throw scimBadRequest('invalidPath', `'${name}' is not an attribute of a Group`);
  }
}

/** A PATCH of a Group. */
export function parseGroupPatch(body: unknown): GroupPatch {
  const out: GroupPatch = { members: [] };
  for (const o of patchOperations(body)) {
    if (o.path === null) {
      if (!isObject(o.value)) throw scimBadRequest('invalidValue', `${o.op} without a path needs an object value`);
      for (const [k, v] of Object.entries(o.value)) applyGroupAttribute(out, bare(k, 'Group'), v, o.op);
      continue;
    }
    const path = bare(o.path, 'Group');
    const filtered = MEMBER_FILTER.exec(path);
    if (filtered) {
      if (o.op !== 'remove') throw scimBadRequest('invalidPath', 'A members[value eq "id"] path is only for remove');
      out.members.push({ kind: 'remove', ids: [filtered[1]!] });
      continue;
    }
    if (path.includes('[')) throw scimBadRequest('invalidPath', 'Only members[value eq "id"] filters are supported in a path');
    applyGroupAttribute(out, path, o.value, o.op);
  }
  return out;
}
