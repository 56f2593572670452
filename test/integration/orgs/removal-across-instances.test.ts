import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { ownerViewer } from '../../helpers/access.ts';
import { createUser, loginCookie, send, type TestUser } from '../../helpers/users.ts';
import { waitFor } from '../../helpers/wait.ts';

// A removed member's key and session stop acting for the organisation on every instance
// within AUTH_CACHE_SECONDS (docs/teams.md, "Removing a member"): at once on the instance
// that removed them, within the cache's lifetime on another one that had them cached.
// Several instances share a store on PostgreSQL only (docs/deployment.md); on the embedded
// store the in-process part is covered by test/integration/orgs/organisations.test.ts.

const CACHE_SECONDS = 1;

describe('removal of a member across instances', { skip: !process.env.DATABASE_URL && 'several instances need PostgreSQL' }, () => {
  let a: TestApp;
  let b: TestApp;
  let owner: TestUser;
  let member: TestUser;
  let orgId: string;

  before(async () => {
    a = await startApp({ env: { AUTH_CACHE_SECONDS: String(CACHE_SECONDS) } });
    b = await startApp({ shareStoreWith: a, env: { AUTH_CACHE_SECONDS: String(CACHE_SECONDS) } });
    owner = await createUser(a, 'pro');
    member = await createUser(a, 'free');
    orgId = (await a.app.services.orgs.createFor(owner.id, 'Two instances', 'pro')).id;
    assert.ok(await a.repos.organisations.addMember(orgId, member.id, 'editor', new Date()));
  });
  after(async () => {
    await b?.close();
    await a?.close();
  });

  test('the member key and session stop on the other instance within AUTH_CACHE_SECONDS', async () => {
    const asMember = { ...ownerViewer(member.id, 'pro'), orgId, role: 'editor' as const };
    const teamKey = { 'x-api-key': (await a.app.services.keys.create(asMember, 'team key')).secret };
    const cookie = await loginCookie(b, member);
    const session = { cookie, origin: b.url };
    assert.equal((await send(`${b.url}/api/v1/orgs/${orgId}/switch`, 'POST', session)).status, 200);
    // Both credentials are now cached on b.
    assert.equal((await send(`${b.api}/watchlist`, 'GET', teamKey)).status, 200);
    assert.equal((await send(`${b.url}/api/v1/orgs/${orgId}/members`, 'GET', session)).status, 200);

    const ownerCookie = await loginCookie(a, owner);
    await send(`${a.url}/api/v1/orgs/${orgId}/switch`, 'POST', { cookie: ownerCookie, origin: a.url });
    const removedAt = performance.now();
    assert.equal((await send(`${a.url}/api/v1/orgs/${orgId}/members/${member.id}`, 'DELETE', { cookie: ownerCookie, origin: a.url })).status, 200);
    // On the instance that removed them: at once.
    assert.equal((await send(`${a.api}/watchlist`, 'GET', teamKey)).status, 401);

    // On the other: within the cache's lifetime (plus a margin for a loaded machine).
    await waitFor(async () => (await send(`${b.api}/watchlist`, 'GET', teamKey)).status === 401, { message: 'the key refused on b', timeoutMs: 10_000 });
    const keyGone = (performance.now() - removedAt) / 1000;
    await waitFor(async () => (await send(`${b.url}/api/v1/orgs/${orgId}/members`, 'GET', session)).status === 404, {
      message: 'the session no longer acting for the team on b',
      timeoutMs: 10_000,
    });
    const sessionGone = (performance.now() - removedAt) / 1000;
    assert.ok(keyGone <= CACHE_SECONDS + 2 && sessionGone <= CACHE_SECONDS + 2, `key ${keyGone.toFixed(2)} s, session ${sessionGone.toFixed(2)} s`);
    // The session itself still works: it acts for the member's personal organisation.
    const account = await send(`${b.url}/api/v1/account`, 'GET', session);
    assert.equal(account.body.organisation.id, member.id);
  });
});
