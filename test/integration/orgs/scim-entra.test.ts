import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { createUser, loginCookie, send, type TestUser } from '../../helpers/users.ts';
import { assertScimError, roleIn, scim, session, teamWithToken } from './scim-support.ts';

// An Entra ID-shaped SCIM sequence end to end (docs/teams.md, "SCIM"): match by
// userName or an unquoted externalId, create (a new account), capitalised PATCH ops
// with booleans as strings, groups with externalId and `excludedAttributes=members`,
// Add/Remove members with a value list, disable by `Replace active "False"` and hard
// delete. Owners are never demoted or removed by SCIM; an existing account whose owner
// confirmed its address is linked.

const PATCH = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

describe('SCIM: an Entra ID-shaped sequence', () => {
  let t: TestApp;
  let owner: TestUser;
  let ownerCookie: string;
  let team: { orgId: string; token: string };

  before(async () => {
    t = await startApp();
    owner = await createUser(t, 'pro');
    ownerCookie = await loginCookie(t, owner);
    team = await teamWithToken(t, ownerCookie, 'Entra team');
  });
  after(() => t.close());

  test('users and groups: match, create, Replace/Add/Remove, disable, delete', async () => {
    const email = 'carol.entra@example.com';
    const match = await scim(t, team.token, 'GET', `/Users?filter=${encodeURIComponent(`userName eq "${email}"`)}`);
    assert.equal(match.body.totalResults, 0);
    const created = await scim(t, team.token, 'POST', '/Users', {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:User', 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User'],
      externalId: 'e-123',
      userName: email,
      active: true,
      displayName: 'Carol',
      emails: [{ primary: true, type: 'work', value: email }],
      meta: { resourceType: 'User' },
      name: { formatted: 'Carol Entra', familyName: 'Entra', givenName: 'Carol' },
      'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User': { department: 'Ops' },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const id = created.body.id as string;
    const account = await t.repos.users.findByEmail(email);
    assert.ok(account, 'an account was made for the address');
    assert.equal(await roleIn(t, team.orgId, ownerCookie, account.id), 'viewer');
    // The account made by SCIM has no password: nobody signs in with one.
    assert.equal((await send(`${t.url}/api/v1/auth/login`, 'POST', {}, { email, password: 'anything-at-all-1' })).status, 401);

    const byExternal = await scim(t, team.token, 'GET', `/Users?filter=${encodeURIComponent('externalId eq e-123')}`);
    assert.equal(byExternal.body.totalResults, 1);
    const both = await scim(t, team.token, 'GET', `/Users?filter=${encodeURIComponent(`externalId eq "e-123" and userName eq "${email.toUpperCase()}"`)}`);
    assert.equal(both.body.totalResults, 1);

    const renamed = await scim(t, team.token, 'PATCH', `/Users/${id}`, {
      schemas: [PATCH],
      Operations: [
        { op: 'Replace', path: 'displayName', value: 'Carol E.' },
        { op: 'Add', path: 'name.givenName', value: 'Caroline' },
        { op: 'Replace', path: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department', value: 'Platform' },
      ],
    });
    assert.equal(renamed.status, 200, JSON.stringify(renamed.body));
    assert.equal(renamed.body.displayName, 'Carol E.');
    assert.equal(renamed.body.name.givenName, 'Caroline');

    const group = await scim(t, team.token, 'POST', '/Groups', {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
      externalId: 'g-ops',
      displayName: 'Ops admins',
      members: [],
    });
    assert.equal(group.status, 201, JSON.stringify(group.body));
    const groupId = group.body.id as string;
    const list = await send(`${t.url}/api/v1/orgs/${team.orgId}/scim/groups`, 'GET', { cookie: ownerCookie });
    assert.deepEqual(
      list.body.groups.map((g: { displayName: string; role: string | null }) => [g.displayName, g.role]),
      [['Ops admins', null]],
    );
    assert.equal((await send(`${t.url}/api/v1/orgs/${team.orgId}/scim/groups/${groupId}/role`, 'PUT', session(t, ownerCookie), { role: 'admin' })).status, 200);

    const gpatch = (op: unknown) => scim(t, team.token, 'PATCH', `/Groups/${groupId}`, { schemas: [PATCH], Operations: [op] });
    assert.equal((await gpatch({ op: 'Add', path: 'members', value: [{ value: id }] })).status, 204);
    assert.equal(await roleIn(t, team.orgId, ownerCookie, account.id), 'admin');
    const lean = await scim(t, team.token, 'GET', `/Groups?filter=${encodeURIComponent('displayName eq "Ops admins"')}&excludedAttributes=members`);
    assert.equal(lean.body.totalResults, 1);
    assert.equal(lean.body.Resources[0].members, undefined);
    assert.equal(lean.body.Resources[0].externalId, 'g-ops');
    const user = await scim(t, team.token, 'GET', `/Users/${id}`);
    assert.deepEqual(
      user.body.groups.map((g: { value: string }) => g.value),
      [groupId],
    );

    assert.equal((await gpatch({ op: 'Remove', path: 'members', value: [{ value: id }] })).status, 204);
    assert.equal(await roleIn(t, team.orgId, ownerCookie, account.id), 'viewer');
    assert.equal((await gpatch({ op: 'Add', path: 'members', value: [{ value: id }] })).status, 204);
    assert.equal(await roleIn(t, team.orgId, ownerCookie, account.id), 'admin');

    // Unassigned in Entra: disabled with a string boolean; the membership goes at once.
    const off = await scim(t, team.token, 'PATCH', `/Users/${id}`, { schemas: [PATCH], Operations: [{ op: 'Replace', path: 'active', value: 'False' }] });
    assert.equal(off.status, 200);
    assert.equal(off.body.active, false);
    assert.equal(await roleIn(t, team.orgId, ownerCookie, account.id), null);
    const on = await scim(t, team.token, 'PATCH', `/Users/${id}`, {
      schemas: [PATCH],
      Operations: [{ op: 'replace', value: { active: true, 'name.familyName': 'E' } }],
    });
    assert.equal(on.body.active, true);
    assert.equal(await roleIn(t, team.orgId, ownerCookie, account.id), 'admin');

    // The admin unmaps the group: the member falls back to the default role.
    assert.equal((await send(`${t.url}/api/v1/orgs/${team.orgId}/scim/groups/${groupId}/role`, 'PUT', session(t, ownerCookie), { role: null })).status, 200);
    assert.equal(await roleIn(t, team.orgId, ownerCookie, account.id), 'viewer');

    assert.equal((await scim(t, team.token, 'DELETE', `/Users/${id}`)).status, 204);
    assert.equal(await roleIn(t, team.orgId, ownerCookie, account.id), null);
    assertScimError(await scim(t, team.token, 'GET', `/Users/${id}`), 404);
    assertScimError(await scim(t, team.token, 'DELETE', `/Users/${id}`), 404);
    assert.ok(await t.repos.users.findByEmail(email), "the account stays (it is the person's)");
    const g = await scim(t, team.token, 'GET', `/Groups/${groupId}`);
    assert.deepEqual(g.body.members, []);

    const audit = await send(`${t.url}/api/v1/orgs/${team.orgId}/audit?limit=200`, 'GET', { cookie: ownerCookie });
    const scimActions = audit.body.entries.filter((e: { actor: { kind: string } }) => e.actor.kind === 'scim').map((e: { action: string }) => e.action);
    for (const a of [
      'scim.user_created',
      'scim.user_updated',
      'scim.group_created',
      'scim.group_updated',
      'member.joined',
      'member.role_changed',
      'member.removed',
      'scim.user_deleted',
    ]) {
      assert.ok(scimActions.includes(a), `${a} in ${scimActions}`);
    }
    const byAdmin = audit.body.entries.filter((e: { action: string }) => e.action === 'scim.group_role_changed');
    assert.equal(byAdmin.length, 2);
    assert.equal(byAdmin[0].actor.kind, 'user');
  });

  test('owners are never demoted or removed; a confirmed address or an account SCIM made links the existing account', async () => {
    const o = await scim(t, team.token, 'POST', '/Users', { userName: owner.email, active: true });
    assert.equal(o.status, 201, JSON.stringify(o.body));
    const grp = await scim(t, team.token, 'POST', '/Groups', { displayName: 'Viewers', members: [{ value: o.body.id }] });
    assert.equal(grp.status, 201);
    await send(`${t.url}/api/v1/orgs/${team.orgId}/scim/groups/${grp.body.id}/role`, 'PUT', session(t, ownerCookie), { role: 'viewer' });
    assert.equal(await roleIn(t, team.orgId, ownerCookie, owner.id), 'owner');
    await scim(t, team.token, 'PATCH', `/Users/${o.body.id}`, { schemas: [PATCH], Operations: [{ op: 'replace', path: 'active', value: false }] });
    assert.equal(await roleIn(t, team.orgId, ownerCookie, owner.id), 'owner');
    assert.equal((await scim(t, team.token, 'DELETE', `/Users/${o.body.id}`)).status, 204);
    assert.equal(await roleIn(t, team.orgId, ownerCookie, owner.id), 'owner');

    // An account with the address, not a member and not confirmed: refused (409), nothing linked.
    const dana = await createUser(t, 'free');
    assertScimError(await scim(t, team.token, 'POST', '/Users', { userName: dana.email }), 409, 'uniqueness');
    assert.equal(await roleIn(t, team.orgId, ownerCookie, dana.id), null);
    // Once Dana confirmed the address (the alert e-mail confirmation of her personal organisation), it links.
    const prefs = await send(`${t.api}/notification-preferences`, 'PUT', dana.headers, { in_app: { enabled: true } });
    assert.equal(prefs.status, 200, JSON.stringify(prefs.body));
    await t.store.db.updateTable('notification_preferences').set({ email_confirmed_address: dana.email }).where('org_id', '=', dana.id).execute();
    const linked = await scim(t, team.token, 'POST', '/Users', { userName: dana.email });
    assert.equal(linked.status, 201, JSON.stringify(linked.body));
    assert.equal(await roleIn(t, team.orgId, ownerCookie, dana.id), 'viewer');

    // An account SCIM made for one organisation links into another one's provisioning too.
    const other = await teamWithToken(t, ownerCookie, 'Second Entra team');
    const carol = await t.repos.users.findByEmail('carol.entra@example.com');
    assert.ok(carol);
    const again = await scim(t, other.token, 'POST', '/Users', { userName: 'Carol.Entra@example.com' });
    assert.equal(again.status, 201, JSON.stringify(again.body));
    assert.equal(await roleIn(t, other.orgId, ownerCookie, carol.id), 'viewer');
    assert.equal(await roleIn(t, team.orgId, ownerCookie, carol.id), null, 'the first organisation is not affected');
  });
});
