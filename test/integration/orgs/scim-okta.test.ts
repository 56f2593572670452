import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { createUser, loginCookie, send, type TestUser } from '../../helpers/users.ts';
import { assertScimError, joinByInvitation, roleIn, scim, SCIM_TYPE, session, teamWithToken } from './scim-support.ts';

// An Okta-shaped SCIM sequence end to end (docs/teams.md, "SCIM"): existence check by
// userName, create, 409 on a second create, read, PUT profile update, PATCH
// deactivation without a path (the member's key and session for the organisation stop
// at once), reactivation, group push (create, rename, add and remove members by
// `members[value eq "id"]`) with the group mapped to a role by an admin.

const OKTA = { 'user-agent': 'Okta SCIM Client 1.0.0' };

describe('SCIM: an Okta-shaped sequence', () => {
  let t: TestApp;
  let owner: TestUser;
  let ownerCookie: string;
  let bob: TestUser;
  let bobCookie: string;
  let team: { orgId: string; token: string };

  before(async () => {
    t = await startApp();
    owner = await createUser(t, 'pro');
    ownerCookie = await loginCookie(t, owner);
    team = await teamWithToken(t, ownerCookie, 'Okta team');
    bob = await createUser(t, 'free');
    bobCookie = await loginCookie(t, bob);
    await joinByInvitation(t, team.orgId, ownerCookie, bobCookie, bob.email, 'viewer');
  });
  after(() => t.close());

  test('users: check, create, conflict, read, PUT, deactivate (access ends at once), reactivate', async () => {
    const filter = encodeURIComponent(`userName eq "${bob.email}"`);
    const none = await scim(t, team.token, 'GET', `/Users?filter=${filter}&startIndex=1&count=100`, undefined, OKTA);
    assert.equal(none.status, 200);
    assert.match(none.headers.get('content-type') ?? '', /^application\/scim\+json/);
    assert.deepEqual(none.body, {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'],
      totalResults: 0,
      startIndex: 1,
      itemsPerPage: 0,
      Resources: [],
    });

    // Bob acts for the team with his session and a member key made there.
    assert.equal((await send(`${t.url}/api/v1/orgs/${team.orgId}/switch`, 'POST', session(t, bobCookie))).status, 200);
    const key = await send(`${t.url}/api/v1/account/keys`, 'POST', session(t, bobCookie), { name: 'bob in team' });
    assert.equal(key.status, 201, JSON.stringify(key.body));
    const bobKey = { 'x-api-key': key.body.secret };
    assert.equal((await send(`${t.url}/api/v1/orgs/${team.orgId}/members`, 'GET', bobKey)).status, 200);

    const user = {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
      userName: bob.email.toUpperCase(),
      name: { givenName: 'Bob', familyName: 'Builder' },
      emails: [{ primary: true, value: bob.email, type: 'work' }],
      displayName: 'Bob Builder',
      locale: 'en-US',
      externalId: '00u1abcd',
      groups: [],
      password: 'Secret-from-okta-1',
      active: true,
    };
    const created = await scim(t, team.token, 'POST', '/Users', user, OKTA);
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.match(created.headers.get('content-type') ?? '', /^application\/scim\+json/);
    const id = created.body.id as string;
    assert.equal(created.body.userName, bob.email.toUpperCase());
    assert.equal(created.body.active, true);
    assert.equal(created.body.externalId, '00u1abcd');
    assert.deepEqual(created.body.emails, [{ value: bob.email, type: 'work', primary: true }]);
    assert.equal(created.body.meta.resourceType, 'User');
    assert.ok(created.body.meta.location.endsWith(`/scim/v2/Users/${id}`));
    assert.ok(!JSON.stringify(created.body).includes('Secret-from-okta-1'), 'the password is neither kept nor echoed');
    assert.equal(await roleIn(t, team.orgId, ownerCookie, bob.id), 'viewer');

    assertScimError(await scim(t, team.token, 'POST', '/Users', user, OKTA), 409, 'uniqueness');

    const found = await scim(t, team.token, 'GET', `/Users?filter=${filter}&startIndex=1&count=100`, undefined, OKTA);
    assert.equal(found.body.totalResults, 1);
    assert.equal(found.body.Resources[0].id, id);
    const read = await scim(t, team.token, 'GET', `/Users/${id}`, undefined, OKTA);
    assert.equal(read.status, 200);
    assert.deepEqual(read.body.groups, []);
    assertScimError(await scim(t, team.token, 'GET', '/Users/00000000-0000-4000-8000-000000000000', undefined, OKTA), 404);

    const put = await scim(t, team.token, 'PUT', `/Users/${id}`, { ...read.body, name: { givenName: 'Robert', familyName: 'Builder' } }, OKTA);
    assert.equal(put.status, 200, JSON.stringify(put.body));
    assert.equal(put.body.name.givenName, 'Robert');

    const off = await scim(
      t,
      team.token,
      'PATCH',
      `/Users/${id}`,
      { schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: [{ op: 'replace', value: { active: false } }] },
      OKTA,
    );
    assert.equal(off.status, 200, JSON.stringify(off.body));
    assert.equal(off.body.active, false);
    // At once: no membership, the member key refused, the session back on the personal organisation.
    assert.equal(await roleIn(t, team.orgId, ownerCookie, bob.id), null);
    assert.equal((await send(`${t.url}/api/v1/orgs/${team.orgId}/members`, 'GET', bobKey)).status, 401);
    assert.equal((await send(`${t.url}/api/v1/orgs/${team.orgId}/members`, 'GET', { cookie: bobCookie })).status, 404);
    const account = await send(`${t.url}/api/v1/account`, 'GET', { cookie: bobCookie });
    assert.equal(account.body.organisation.personal, true, JSON.stringify(account.body));

    const on = await scim(
      t,
      team.token,
      'PATCH',
      `/Users/${id}`,
      { schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: [{ op: 'replace', value: { active: true } }] },
      OKTA,
    );
    assert.equal(on.status, 200);
    assert.equal(await roleIn(t, team.orgId, ownerCookie, bob.id), 'viewer');
    // The key revoked with the membership stays revoked.
    assert.equal((await send(`${t.url}/api/v1/orgs/${team.orgId}/members`, 'GET', bobKey)).status, 401);

    const audit = await send(`${t.url}/api/v1/orgs/${team.orgId}/audit?actor=scim&limit=100`, 'GET', { cookie: ownerCookie });
    const actions = audit.body.entries.map((e: { action: string }) => e.action);
    for (const a of ['scim.user_created', 'scim.user_updated', 'member.removed', 'member.joined', 'member.role_changed']) {
      if (a !== 'member.role_changed') assert.ok(actions.includes(a), `${a} in ${actions}`);
    }
    assert.ok(
      audit.body.entries.every((e: { actor: { kind: string; label: string } }) => e.actor.kind === 'scim' && e.actor.label.startsWith('SCIM token scim_')),
    );
    assert.ok(!JSON.stringify(audit.body).includes(team.token));
  });

  test('groups: push, admin maps the role, add and remove members, rename, delete', async () => {
    const carol = await createUser(t, 'free');
    const carolCookie = await loginCookie(t, carol);
    await joinByInvitation(t, team.orgId, ownerCookie, carolCookie, carol.email, 'viewer');
    const c = await scim(
      t,
      team.token,
      'POST',
      '/Users',
      { schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], userName: carol.email, active: true, externalId: '00u2' },
      OKTA,
    );
    assert.equal(c.status, 201);
    const carolId = c.body.id;

    const none = await scim(t, team.token, 'GET', `/Groups?filter=${encodeURIComponent('displayName eq "Engineering"')}`, undefined, OKTA);
    assert.equal(none.body.totalResults, 0);
    const g = await scim(
      t,
      team.token,
      'POST',
      '/Groups',
      { schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'], displayName: 'Engineering', members: [] },
      OKTA,
    );
    assert.equal(g.status, 201, JSON.stringify(g.body));
    const groupId = g.body.id;
    assertScimError(await scim(t, team.token, 'POST', '/Groups', { displayName: 'engineering', members: [] }, OKTA), 409, 'uniqueness');

    const mapped = await send(`${t.url}/api/v1/orgs/${team.orgId}/scim/groups/${groupId}/role`, 'PUT', session(t, ownerCookie), { role: 'editor' });
    assert.equal(mapped.status, 200, JSON.stringify(mapped.body));
    assert.equal(mapped.body.group.role, 'editor');

    const patch = (ops: unknown[]) =>
      scim(t, team.token, 'PATCH', `/Groups/${groupId}`, { schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: ops }, OKTA);
    assert.equal(
      (
        await patch([
          { op: 'replace', value: { id: groupId, displayName: 'Engineering' } },
          { op: 'add', path: 'members', value: [{ value: carolId, display: carol.email }] },
        ])
      ).status,
      204,
    );
    assert.equal(await roleIn(t, team.orgId, ownerCookie, carol.id), 'editor');
    const read = await scim(t, team.token, 'GET', `/Groups/${groupId}`, undefined, OKTA);
    assert.deepEqual(
      read.body.members.map((m: { value: string }) => m.value),
      [carolId],
    );

    assert.equal((await patch([{ op: 'replace', value: { id: groupId, displayName: 'Eng' } }])).status, 204);
    const renamed = await scim(t, team.token, 'GET', `/Groups?filter=${encodeURIComponent('displayName eq "eng"')}`, undefined, OKTA);
    assert.equal(renamed.body.totalResults, 1);

    assert.equal((await patch([{ op: 'remove', path: `members[value eq "${carolId}"]` }])).status, 204);
    assert.equal(await roleIn(t, team.orgId, ownerCookie, carol.id), 'viewer');
    // Replayed: same outcome.
    assert.equal((await patch([{ op: 'remove', path: `members[value eq "${carolId}"]` }])).status, 204);

    assert.equal((await patch([{ op: 'replace', path: 'members', value: [{ value: carolId }] }])).status, 204);
    assert.equal(await roleIn(t, team.orgId, ownerCookie, carol.id), 'editor');
    const del = await scim(t, team.token, 'DELETE', `/Groups/${groupId}`, undefined, OKTA);
    assert.equal(del.status, 204);
    assert.equal(await roleIn(t, team.orgId, ownerCookie, carol.id), 'viewer');
    assertScimError(await scim(t, team.token, 'DELETE', `/Groups/${groupId}`, undefined, OKTA), 404);
  });

  test('discovery documents', async () => {
    const spc = await scim(t, team.token, 'GET', '/ServiceProviderConfig');
    assert.equal(spc.status, 200);
    assert.equal(spc.body.patch.supported, true);
    assert.equal(spc.body.bulk.supported, false);
    assert.equal(spc.body.filter.maxResults, 100);
    const types = await scim(t, team.token, 'GET', '/ResourceTypes');
    assert.deepEqual(
      types.body.Resources.map((r: { id: string }) => r.id),
      ['User', 'Group'],
    );
    const schemas = await scim(t, team.token, 'GET', '/Schemas');
    assert.equal(schemas.body.totalResults, 2);
    assert.match(spc.headers.get('content-type') ?? '', new RegExp(`^${SCIM_TYPE.replace('+', '\\+')}`));
  });
});
