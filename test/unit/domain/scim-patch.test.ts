import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ScimError } from '../../../src/domain/scim-errors.ts';
import { parseGroupPatch, parseUserPatch } from '../../../src/domain/scim-patch.ts';
import { parseScimGroup, parseScimUser } from '../../../src/domain/scim-resources.ts';
import { membershipChange, provisionedRole } from '../../../src/domain/scim-roles.ts';

// PATCH bodies in Okta's and Entra ID's shapes, resources and the role rule (docs/teams.md, "SCIM").

const SCHEMA = ['urn:ietf:params:scim:api:messages:2.0:PatchOp'];
const ops = (...Operations: unknown[]) => ({ schemas: SCHEMA, Operations });

function refused(f: () => unknown, scimType: string) {
  assert.throws(f, (e: unknown) => e instanceof ScimError && e.status === 400 && e.scimType === scimType);
}

describe('SCIM PATCH of a User', () => {
  test('Okta: replace without a path, value an object', () => {
    assert.deepEqual(parseUserPatch(ops({ op: 'replace', value: { active: false } })), { active: false });
  });

  test('Entra ID: capitalised ops, string booleans, paths, the enterprise extension ignored', () => {
    assert.deepEqual(
      parseUserPatch(
        ops(
          { op: 'Replace', path: 'active', value: 'False' },
          { op: 'Add', path: 'displayName', value: 'Carol' },
          { op: 'Replace', path: 'name.familyName', value: 'E' },
          { op: 'Replace', path: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department', value: 'Ops' },
          { op: 'Replace', path: 'emails[type eq "work"].value', value: 'c@example.com' },
          { op: 'Replace', path: 'urn:ietf:params:scim:schemas:core:2.0:User:userName', value: 'C@example.com' },
        ),
      ),
      { active: false, displayName: 'Carol', familyName: 'E', userName: 'C@example.com' },
    );
    assert.deepEqual(parseUserPatch(ops({ op: 'replace', value: { 'name.givenName': 'A', active: 'true' } })), { givenName: 'A', active: true });
    assert.deepEqual(parseUserPatch(ops({ op: 'remove', path: 'externalId' })), { externalId: null });
  });

  test('malformed operations', () => {
    refused(() => parseUserPatch(null), 'invalidSyntax');
    refused(() => parseUserPatch({ schemas: SCHEMA }), 'invalidSyntax');
    refused(() => parseUserPatch({ schemas: ['urn:x'], Operations: [{ op: 'add', path: 'displayName', value: 'x' }] }), 'invalidSyntax');
    refused(() => parseUserPatch(ops({ op: 'copy', path: 'active', value: true })), 'invalidSyntax');
    refused(() => parseUserPatch(ops({ op: 5 })), 'invalidSyntax');
    refused(() => parseUserPatch(ops('replace')), 'invalidSyntax');
    refused(() => parseUserPatch(ops({ op: 'remove' })), 'noTarget');
    refused(() => parseUserPatch(ops({ op: 'replace', value: 'x' })), 'invalidValue');
    refused(() => parseUserPatch(ops({ op: 'replace', path: 'active', value: 1 })), 'invalidValue');
    refused(() => parseUserPatch(ops({ op: 'replace', path: 'displayName', value: 'a\u0007' })), 'invalidValue');
    refused(() => parseUserPatch(ops({ op: 'replace', path: 'a b', value: 'x' })), 'invalidPath');
    refused(() => parseUserPatch(ops({ op: 'replace', path: 7, value: 'x' })), 'invalidPath');
    refused(() => parseUserPatch(ops({ op: 'remove', path: 'active' })), 'mutability');
    refused(() => parseUserPatch(ops(...Array.from({ length: 101 }, () => ({ op: 'add', path: 'displayName', value: 'x' })))), 'tooMany');
  });
});

describe('SCIM PATCH of a Group', () => {
  test("Okta: rename with the group's id, add by list, remove by a value filter", () => {
    assert.deepEqual(
      parseGroupPatch(
        ops(
          { op: 'replace', value: { id: 'g1', displayName: 'Eng' } },
          { op: 'add', path: 'members', value: [{ value: 'u1', display: 'a@example.com' }, { value: 'u2' }] },
          { op: 'remove', path: 'members[value eq "u1"]' },
        ),
      ),
      {
        displayName: 'Eng',
        members: [
          { kind: 'add', ids: ['u1', 'u2'] },
          { kind: 'remove', ids: ['u1'] },
        ],
      },
    );
  });

  test('Entra ID: Add and Remove with value lists, replace of all members, remove of all', () => {
    assert.deepEqual(
      parseGroupPatch(
        ops(
          { op: 'Add', path: 'members', value: [{ value: 'u1' }] },
          { op: 'Remove', path: 'members', value: [{ value: 'u1' }] },
          { op: 'Replace', path: 'members', value: [{ value: 'u3' }] },
          { op: 'Replace', path: 'externalId', value: 'g-ext' },
          { op: 'Remove', path: 'members' },
          { op: 'remove', path: 'Members[Value EQ "u9"]' },
        ),
      ),
      {
        externalId: 'g-ext',
        members: [
          { kind: 'add', ids: ['u1'] },
          { kind: 'remove', ids: ['u1'] },
          { kind: 'replace', ids: ['u3'] },
          { kind: 'clear' },
          { kind: 'remove', ids: ['u9'] },
        ],
      },
    );
  });

  test('malformed operations', () => {
    refused(() => parseGroupPatch(ops({ op: 'add', path: 'members[value eq "u1"]' })), 'invalidPath');
    refused(() => parseGroupPatch(ops({ op: 'remove', path: 'members[display eq "x"]' })), 'invalidPath');
    refused(() => parseGroupPatch(ops({ op: 'replace', path: 'role', value: 'owner' })), 'invalidPath');
    refused(() => parseGroupPatch(ops({ op: 'remove', path: 'displayName' })), 'mutability');
    refused(() => parseGroupPatch(ops({ op: 'add', path: 'members', value: ['u1'] })), 'invalidValue');
    refused(() => parseGroupPatch(ops({ op: 'add', path: 'members', value: [{ value: 5 }] })), 'invalidValue');
    refused(() => parseGroupPatch(ops({ op: 'add', path: 'members', value: Array.from({ length: 1001 }, (_, i) => ({ value: `u${i}` })) })), 'tooMany');
  });
});

describe('SCIM resources and roles', () => {
  test('a User: userName or a primary e-mail gives the address; active defaults to true', () => {
    assert.equal(parseScimUser({ userName: 'A@Example.com' }).email, 'a@example.com');
    assert.equal(parseScimUser({ userName: 'A@Example.com' }).active, true);
    const upn = parseScimUser({ userName: 'alice', emails: [{ value: 'x@example.com' }, { value: 'Alice@Example.com', primary: true }], active: 'False' });
    assert.deepEqual([upn.email, upn.active], ['alice@example.com', false]);
    refused(() => parseScimUser({ userName: 'alice' }), 'invalidValue');
    refused(() => parseScimUser({ userName: '' }), 'invalidValue');
    refused(() => parseScimUser({ userName: 'x'.repeat(257) }), 'invalidValue');
    refused(() => parseScimUser([]), 'invalidSyntax');
  });

  test('a Group: members deduplicated', () => {
    assert.deepEqual(parseScimGroup({ displayName: ' Eng ', members: [{ value: 'u1' }, { value: 'u1' }] }), {
      displayName: 'Eng',
      externalId: null,
      members: ['u1'],
    });
    refused(() => parseScimGroup({ members: [] }), 'invalidValue');
  });

  test('the highest mapped role, viewer without one; owners untouched', () => {
    assert.equal(provisionedRole([]), 'viewer');
    assert.equal(provisionedRole([null, 'editor', 'viewer']), 'editor');
    assert.equal(provisionedRole(['admin', 'editor']), 'admin');
    assert.equal(provisionedRole(['owner', 'bogus']), 'viewer');
    assert.deepEqual(membershipChange('owner', null), { action: 'none', role: 'owner' });
    assert.deepEqual(membershipChange('owner', 'viewer'), { action: 'none', role: 'owner' });
    assert.deepEqual(membershipChange(null, 'editor'), { action: 'add', role: 'editor' });
    assert.deepEqual(membershipChange('admin', 'viewer'), { action: 'set', role: 'viewer' });
    assert.deepEqual(membershipChange('viewer', null), { action: 'remove', role: null });
    assert.deepEqual(membershipChange(null, null), { action: 'none', role: null });
  });
});
