import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { getJson, startApp, type TestApp } from '../../helpers/app.ts';
import { createUser, loginCookie, send, type TestUser } from '../../helpers/users.ts';
import { assertScimError, joinByInvitation, roleIn, scim, session, teamWithToken } from './scim-support.ts';

// Hostile input against the SCIM endpoints and their admin routes (docs/teams.md,
// "SCIM"): missing, wrong, revoked and foreign tokens; another organisation's ids;
// huge and malformed bodies; bad filters; control characters; wrong types; unknown
// ops; replays; the per-token rate (SCIM_REQUESTS_PER_MINUTE, small here). Every
// refusal is a SCIM error (never a 500) and nothing of organisation A changes.

const SCIM_REQUESTS_PER_MINUTE = 400;

const PATCH = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

describe('SCIM: attacks', () => {
  let t: TestApp;
  let owner: TestUser;
  let ownerCookie: string;
  let a: { orgId: string; token: string; tokenId: string };
  let b: { orgId: string; token: string; tokenId: string };
  let aUser: string;
  let aGroup: string;
  let member: TestUser;

  before(async () => {
    t = await startApp({ env: { SCIM_REQUESTS_PER_MINUTE: String(SCIM_REQUESTS_PER_MINUTE) } });
    owner = await createUser(t, 'pro');
    ownerCookie = await loginCookie(t, owner);
    a = await teamWithToken(t, ownerCookie, 'Team A');
    const other = await createUser(t, 'pro');
    b = await teamWithToken(t, await loginCookie(t, other), 'Team B');
    member = await createUser(t, 'free');
    await joinByInvitation(t, a.orgId, ownerCookie, await loginCookie(t, member), member.email, 'viewer');
    const u = await scim(t, a.token, 'POST', '/Users', { userName: member.email, externalId: 'ext-a' });
    assert.equal(u.status, 201);
    aUser = u.body.id;
    const g = await scim(t, a.token, 'POST', '/Groups', { displayName: 'A group', members: [{ value: aUser }] });
    assert.equal(g.status, 201);
    aGroup = g.body.id;
    await send(`${t.url}/api/v1/orgs/${a.orgId}/scim/groups/${aGroup}/role`, 'PUT', session(t, ownerCookie), { role: 'editor' });
  });
  after(() => t.close());

  async function stateOfA() {
    const user = await scim(t, a.token, 'GET', `/Users/${aUser}`);
    const group = await scim(t, a.token, 'GET', `/Groups/${aGroup}`);
    return { user: { ...user.body, meta: null }, group: { ...group.body, meta: null }, role: await roleIn(t, a.orgId, ownerCookie, member.id) };
  }

  test('missing, malformed, unknown and revoked tokens are 401 in the SCIM error schema', async () => {
    for (const auth of [null, 'Bearer', 'Bearer x', `Bearer ${a.token}x`, `Basic ${a.token}`, `Bearer scim_${'A'.repeat(43)}`, `Bearer ${owner.key}`]) {
      const r = await getJson(`${t.url}/scim/v2/Users`, { headers: auth ? { authorization: auth } : {} });
      assertScimError(r, 401);
      assert.equal(r.headers.get('www-authenticate'), 'Bearer realm="scim"');
    }
    // An API key or a session does not open SCIM.
    assertScimError(await getJson(`${t.url}/scim/v2/Users`, { headers: { 'x-api-key': owner.key } }), 401);
    assertScimError(await getJson(`${t.url}/scim/v2/Users`, { headers: { cookie: ownerCookie } }), 401);
    // Unknown SCIM paths answer in SCIM's shape too.
    assertScimError(await scim(t, a.token, 'GET', '/Bulk'), 404);

    const extra = await send(`${t.url}/api/v1/orgs/${a.orgId}/scim/tokens`, 'POST', session(t, ownerCookie), { name: 'to revoke' });
    assert.equal((await scim(t, extra.body.secret, 'GET', '/Users')).status, 200);
    assert.equal((await send(`${t.url}/api/v1/orgs/${a.orgId}/scim/tokens/${extra.body.token.id}`, 'DELETE', session(t, ownerCookie))).status, 200);
    assertScimError(await scim(t, extra.body.secret, 'GET', '/Users'), 401);
    // Replayed revocation: 404.
    assert.equal((await send(`${t.url}/api/v1/orgs/${a.orgId}/scim/tokens/${extra.body.token.id}`, 'DELETE', session(t, ownerCookie))).status, 404);
    const listed = await send(`${t.url}/api/v1/orgs/${a.orgId}/scim/tokens`, 'GET', { cookie: ownerCookie });
    assert.deepEqual(
      listed.body.tokens.map((x: { id: string }) => x.id),
      [a.tokenId],
    );
    assert.ok(!JSON.stringify(listed.body).includes(a.token), 'the secret is never listed');
    const row = await t.store.db.selectFrom('scim_tokens').select('token_hash').where('id', '=', a.tokenId).executeTakeFirstOrThrow();
    assert.match(row.token_hash, /^[0-9a-f]{64}$/);
  });

  test("organisation B's token cannot read or change A's users and groups by id", async () => {
    const before = await stateOfA();
    assertScimError(await scim(t, b.token, 'GET', `/Users/${aUser}`), 404);
    assertScimError(await scim(t, b.token, 'PUT', `/Users/${aUser}`, { userName: 'taken@example.com' }), 404);
    assertScimError(await scim(t, b.token, 'PATCH', `/Users/${aUser}`, { schemas: [PATCH], Operations: [{ op: 'replace', value: { active: false } }] }), 404);
    assertScimError(await scim(t, b.token, 'DELETE', `/Users/${aUser}`), 404);
    assertScimError(await scim(t, b.token, 'GET', `/Groups/${aGroup}`), 404);
    assertScimError(
      await scim(t, b.token, 'PATCH', `/Groups/${aGroup}`, { schemas: [PATCH], Operations: [{ op: 'remove', path: `members[value eq "${aUser}"]` }] }),
      404,
    );
    assertScimError(await scim(t, b.token, 'DELETE', `/Groups/${aGroup}`), 404);
    const list = await scim(t, b.token, 'GET', `/Users?filter=${encodeURIComponent(`userName eq "${member.email}"`)}`);
    assert.equal(list.body.totalResults, 0);
    assert.equal((await scim(t, b.token, 'GET', `/Users?filter=${encodeURIComponent(`id eq "${aUser}"`)}`)).body.totalResults, 0);
    // B's own group cannot take A's user as a member.
    const bg = await scim(t, b.token, 'POST', '/Groups', { displayName: 'B group', members: [] });
    assertScimError(
      await scim(t, b.token, 'PATCH', `/Groups/${bg.body.id}`, { schemas: [PATCH], Operations: [{ op: 'add', path: 'members', value: [{ value: aUser }] }] }),
      400,
      'invalidValue',
    );
    assertScimError(await scim(t, b.token, 'POST', '/Groups', { displayName: 'B2', members: [{ value: aUser }] }), 400, 'invalidValue');
    // B may provision the same person into B: a separate link, A's is untouched.
    assert.equal((await scim(t, b.token, 'POST', '/Users', { userName: member.email })).status, 409, 'not a member of B and not confirmed');
    // B's admin cannot see or map A's groups or tokens.
    const bAdmin = await createUser(t, 'free');
    const bCookie = await loginCookie(t, bAdmin);
    assert.equal((await send(`${t.url}/api/v1/orgs/${a.orgId}/scim/tokens`, 'GET', { cookie: bCookie })).status, 404);
    assert.equal((await send(`${t.url}/api/v1/orgs/${a.orgId}/scim/groups/${aGroup}/role`, 'PUT', session(t, bCookie), { role: 'admin' })).status, 404);
    assert.deepEqual(await stateOfA(), before);
  });

  test('bodies: too large, malformed JSON, not JSON, wrong types, control characters', async () => {
    const before = await stateOfA();
    const huge = { userName: 'big@example.com', displayName: 'x'.repeat(300_000) };
    assertScimError(await scim(t, a.token, 'POST', '/Users', huge), 413);
    assertScimError(await scim(t, a.token, 'POST', '/Users', '{"userName": "x@example.com"'), 400, 'invalidSyntax');
    assertScimError(await scim(t, a.token, 'POST', '/Users', '[1,2]'), 400);
    assertScimError(await scim(t, a.token, 'POST', '/Users', '{"__proto__": {"admin": true}, "userName": "p@example.com"}'), 400);
    assertScimError(await scim(t, a.token, 'POST', '/Users', 'userName=x', { 'content-type': 'text/plain' }), 415);
    assertScimError(await scim(t, a.token, 'POST', '/Users', 'userName=x@example.com', { 'content-type': 'application/x-www-form-urlencoded' }), 415);
    assertScimError(await scim(t, a.token, 'POST', '/Users', {}), 400, 'invalidValue');
    assertScimError(await scim(t, a.token, 'POST', '/Users', { userName: 5 }), 400, 'invalidValue');
    assertScimError(await scim(t, a.token, 'POST', '/Users', { userName: 'not an address' }), 400, 'invalidValue');
    assertScimError(await scim(t, a.token, 'POST', '/Users', { userName: 'ctl\u0000@example.com' }), 400, 'invalidValue');
    assertScimError(await scim(t, a.token, 'POST', '/Users', { userName: 'ok@example.com', displayName: 'bell\u0007' }), 400, 'invalidValue');
    assertScimError(await scim(t, a.token, 'POST', '/Users', { userName: 'ok@example.com', active: 'maybe' }), 400, 'invalidValue');
    assertScimError(await scim(t, a.token, 'POST', '/Users', { userName: 'ok@example.com', name: 'Bob' }), 400, 'invalidValue');
    assertScimError(await scim(t, a.token, 'POST', '/Groups', { displayName: ['x'] }), 400, 'invalidValue');
    assertScimError(await scim(t, a.token, 'POST', '/Groups', { displayName: 'G', members: [{ value: 'x'.repeat(65) }] }), 400, 'invalidValue');
    assertScimError(await scim(t, a.token, 'POST', '/Groups', { displayName: 'G', members: 'everyone' }), 400, 'invalidValue');
    // A NUL or another control character in an id names nothing: 400, never a failed query (PostgreSQL refuses NUL in text).
    for (const [method, path] of [
      ['GET', '/Users/a%00b'],
      ['PATCH', '/Groups/a%00b'],
      ['DELETE', '/Groups/a%00b'],
      ['PUT', '/Users/a%07b'],
    ] as const) {
      const body =
        method === 'PATCH'
          ? { schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: [{ op: 'replace', value: { displayName: 'x' } }] }
          : method === 'PUT'
            ? { userName: 'ok@example.com' }
            : undefined;
      assertScimError(await scim(t, a.token, method, path, body), 400, 'invalidValue');
    }
    // An over-long id is refused by the router before SCIM is reached (the service's error body).
    assert.equal((await scim(t, a.token, 'GET', '/Users/x'.padEnd(150, 'x'))).status, 414);
    assert.deepEqual(await stateOfA(), before);
    assert.equal(await t.repos.users.findByEmail('ok@example.com'), null);
  });

  test('filters and paging: only eq (and and) on known attributes; count capped at 100', async () => {
    for (const f of [
      'userName co "a"',
      'userName sw "a"',
      'userName pr',
      `userName eq "a" or userName eq "b"`,
      'not (userName eq "a")',
      '(userName eq "a")',
      'emails[type eq "work"].value eq "a@example.com"',
      'name.givenName eq "a"',
      'password eq "x"',
      'userName eq "unterminated',
      'userName eq',
      'userName  eq  "a" and',
      `userName eq "${'a'.repeat(600)}"`,
      'userName eq "a\u0001"',
      'userName eq "a" and externalId eq "b" and id eq "c" and displayName eq "d" and userName eq "e"',
      'userName eq "a\\u0041"',
    ]) {
      assertScimError(await scim(t, a.token, 'GET', `/Users?filter=${encodeURIComponent(f)}`), 400, 'invalidFilter');
    }
    assertScimError(await scim(t, a.token, 'GET', `/Groups?filter=${encodeURIComponent('userName eq "a"')}`), 400, 'invalidFilter');
    assertScimError(await scim(t, a.token, 'GET', `/Users?filter=${'x'.repeat(3000)}`), 400);
    assertScimError(await scim(t, a.token, 'GET', '/Users?count=abc'), 400, 'invalidValue');
    assertScimError(await scim(t, a.token, 'GET', '/Users?startIndex=1.5'), 400, 'invalidValue');
    assertScimError(await scim(t, a.token, 'GET', '/Users?admin=true'), 400);
    const capped = await scim(t, a.token, 'GET', '/Users?count=100000&startIndex=-5');
    assert.equal(capped.status, 200);
    assert.equal(capped.body.startIndex, 1);
    assert.ok(capped.body.itemsPerPage <= 100);
    const zero = await scim(t, a.token, 'GET', '/Users?count=-1');
    assert.deepEqual([zero.body.itemsPerPage, zero.body.totalResults], [0, 1]);
    const far = await scim(t, a.token, 'GET', '/Users?startIndex=99999999999');
    assert.equal(far.status, 200);
    assert.equal(far.body.itemsPerPage, 0);
  });

  test('PATCH: unknown ops and paths, remove without a path, wrong values; replays are idempotent', async () => {
    const before = await stateOfA();
    const up = (ops: unknown, body: Record<string, unknown> = { schemas: [PATCH] }) =>
      scim(t, a.token, 'PATCH', `/Users/${aUser}`, { ...body, Operations: ops });
    const gp = (ops: unknown) => scim(t, a.token, 'PATCH', `/Groups/${aGroup}`, { schemas: [PATCH], Operations: ops });
    assertScimError(await up([{ op: 'move', path: 'active', value: false }]), 400, 'invalidSyntax');
    assertScimError(await up([{ op: 'replace' }]), 400, 'invalidValue');
    assertScimError(await up([{ op: 'remove' }]), 400, 'noTarget');
    assertScimError(await up([]), 400, 'invalidSyntax');
    assertScimError(await up('replace'), 400, 'invalidSyntax');
    assertScimError(await up([{ op: 'replace', path: 'active', value: false }], { schemas: ['urn:wrong'] }), 400, 'invalidSyntax');
    assertScimError(await up([{ op: 'replace', path: 'a"; drop table', value: 1 }]), 400, 'invalidPath');
    assertScimError(await up([{ op: 'replace', path: 'active\u0000', value: false }]), 400, 'invalidPath');
    assertScimError(await up([{ op: 'replace', path: 'active', value: 'nope' }]), 400, 'invalidValue');
    assertScimError(await up([{ op: 'remove', path: 'userName' }]), 400, 'mutability');
    assertScimError(await up(Array.from({ length: 101 }, () => ({ op: 'replace', path: 'displayName', value: 'x' }))), 400, 'tooMany');
    assertScimError(await gp([{ op: 'add', path: 'members[value eq "x"]' }]), 400, 'invalidPath');
    assertScimError(await gp([{ op: 'remove', path: 'members[display eq "x"]' }]), 400, 'invalidPath');
    assertScimError(await gp([{ op: 'replace', path: 'owner', value: 'me' }]), 400, 'invalidPath');
    assertScimError(await gp([{ op: 'add', path: 'members', value: [{ value: '00000000-0000-4000-8000-000000000000' }] }]), 400, 'invalidValue');
    assertScimError(await gp([{ op: 'add', path: 'members', value: Array.from({ length: 1001 }, (_, i) => ({ value: `u${i}` })) }]), 400, 'tooMany');
    assert.deepEqual(await stateOfA(), before);

    // Replays: the same deactivation twice, the same member added twice, leave one state.
    for (let i = 0; i < 2; i++) assert.equal((await up([{ op: 'replace', path: 'active', value: false }])).status, 200);
    assert.equal(await roleIn(t, a.orgId, ownerCookie, member.id), null);
    for (let i = 0; i < 2; i++) assert.equal((await up([{ op: 'replace', path: 'active', value: true }])).status, 200);
    for (let i = 0; i < 2; i++) assert.equal((await gp([{ op: 'add', path: 'members', value: [{ value: aUser }] }])).status, 204);
    assert.deepEqual(await stateOfA(), before);
  });

  test('admin routes: admins only, never into a personal organisation, capped; group roles never owner', async () => {
    const viewerCookie = await loginCookie(t, member);
    assert.equal((await send(`${t.url}/api/v1/orgs/${a.orgId}/scim/tokens`, 'GET', { cookie: viewerCookie })).status, 403);
    assert.equal((await send(`${t.url}/api/v1/orgs/${a.orgId}/scim/groups/${aGroup}/role`, 'PUT', session(t, viewerCookie), { role: 'viewer' })).status, 403);
    assert.equal((await send(`${t.url}/api/v1/orgs/${a.orgId}/scim/groups/${aGroup}/role`, 'PUT', session(t, ownerCookie), { role: 'owner' })).status, 400);
    assert.equal(
      (await send(`${t.url}/api/v1/orgs/${a.orgId}/scim/groups/${aGroup}/role`, 'PUT', session(t, ownerCookie), { role: 'admin', extra: 1 })).status,
      400,
    );
    assert.equal((await send(`${t.url}/api/v1/orgs/${a.orgId}/scim/tokens`, 'POST', session(t, ownerCookie), { name: 'bad\u0007name' })).status, 400);
    // A key cannot mint SCIM tokens.
    assert.equal((await send(`${t.url}/api/v1/orgs/${a.orgId}/scim/tokens`, 'POST', owner.headers, { name: 'by key' })).status, 403);
    assert.equal((await send(`${t.url}/api/v1/orgs/${owner.id}/scim/tokens`, 'POST', session(t, ownerCookie), { name: 'personal' })).status, 409);
    const made: number[] = [];
    for (let i = 0; i < 5; i++)
      made.push((await send(`${t.url}/api/v1/orgs/${a.orgId}/scim/tokens`, 'POST', session(t, ownerCookie), { name: `t${i}` })).status);
    assert.deepEqual(made, [201, 201, 201, 201, 403]);
  });

  test(`a token makes at most ${SCIM_REQUESTS_PER_MINUTE} requests a minute (429 with Retry-After)`, async () => {
    let last = null as Awaited<ReturnType<typeof scim>> | null;
    // The limit counts in fixed minutes of the clock: a run that crosses a minute's end starts
    // over once, so up to twice the limit are sent; the first 429 ends the loop.
    for (let i = 0; i <= 2 * SCIM_REQUESTS_PER_MINUTE + 1; i++) {
      last = await scim(t, b.token, 'GET', '/ServiceProviderConfig');
      if (last.status === 429) break;
    }
    assertScimError(last!, 429);
    assert.ok(Number(last!.headers.get('retry-after')) >= 1);
    // Another organisation's token is not affected.
    assert.equal((await scim(t, a.token, 'GET', '/ServiceProviderConfig')).status, 200);
  });
});
