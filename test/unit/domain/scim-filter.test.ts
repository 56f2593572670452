import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ScimError } from '../../../src/domain/scim-errors.ts';
import { MAX_FILTER_LENGTH, parseScimFilter, type ScimFilterAttribute } from '../../../src/domain/scim-filter.ts';

// The SCIM filter subset (docs/teams.md, "SCIM"): eq on a few attributes, joined by and.

const USERS: ScimFilterAttribute[] = ['userName', 'externalId', 'id', 'displayName'];
const GROUPS: ScimFilterAttribute[] = ['displayName', 'externalId', 'id'];

function refused(text: string, allowed = USERS) {
  assert.throws(
    () => parseScimFilter(text, allowed),
    (e: unknown) => e instanceof ScimError && e.status === 400 && e.scimType === 'invalidFilter',
    text,
  );
}

describe('SCIM filter', () => {
  test("Okta's and Entra ID's filters", () => {
    assert.deepEqual(parseScimFilter('userName eq "alice@example.com"', USERS), [{ attribute: 'userName', value: 'alice@example.com' }]);
    assert.deepEqual(parseScimFilter('externalId eq 0f8e-11', USERS), [{ attribute: 'externalId', value: '0f8e-11' }]);
    assert.deepEqual(parseScimFilter('displayName eq "Engineering"', GROUPS), [{ attribute: 'displayName', value: 'Engineering' }]);
    assert.deepEqual(parseScimFilter('externalId eq "x" and userName eq "y"', USERS), [
      { attribute: 'externalId', value: 'x' },
      { attribute: 'userName', value: 'y' },
    ]);
  });

  test('attribute names and operators are case-insensitive; quoted values keep spaces and escapes', () => {
    assert.deepEqual(parseScimFilter('USERNAME EQ "a b"', USERS), [{ attribute: 'userName', value: 'a b' }]);
    assert.deepEqual(parseScimFilter('  userName  Eq  "q\\"uote\\\\"  AND id eq "1" ', USERS), [
      { attribute: 'userName', value: 'q"uote\\' },
      { attribute: 'id', value: '1' },
    ]);
    assert.deepEqual(parseScimFilter('displayName eq ""', GROUPS), [{ attribute: 'displayName', value: '' }]);
  });

  test('anything else is invalidFilter', () => {
    for (const f of [
      '',
      'userName',
      'userName eq',
      'userName co "a"',
      'userName ne "a"',
      'userName pr',
      'userName gt "a"',
      'userName eq "a" or userName eq "b"',
      'not(userName eq "a")',
      '(userName eq "a")',
      'emails[type eq "work"].value eq "a"',
      'emails.value eq "a"',
      'meta.created eq "x"',
      'userName eq "open',
      'userName eq "bad \\u0041 escape"',
      'userName eq a"b',
      'userName eq "a" and',
      'userName eq "a" andd id eq "b"',
      'userName eq "a"x',
      'userName\teq "a"',
      'userName eq "\u0000"',
      'a eq "1" and b eq "2"',
      'id eq "1" and id eq "2" and id eq "3" and id eq "4" and id eq "5"',
      `userName eq "${'x'.repeat(MAX_FILTER_LENGTH)}"`,
    ]) {
      refused(f);
    }
    refused('userName eq "a"', GROUPS);
  });
});
