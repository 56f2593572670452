import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { getJson, TestClock, type TestApp } from '../../helpers/app.ts';
import { startFleet, startIngestApp, type TestFleet } from '../../helpers/fleet.ts';
import { createUser, type TestUser } from '../../helpers/users.ts';

// A cached list is computed again once a change newer than it is committed and the entry is
// over a second old (docs/access.md "Response cache"): a client polling /incidents sees a new
// incident within about a second, not at the end of the entry's 60 s. Both the Fastify path
// (anonymous) and the server's hot path (API key) apply it. An entry younger than a second is
// still served, so a burst of changes does not empty the cache.

describe('response cache: an entry older than a newer change is computed again', () => {
  const clock = new TestClock(new Date('2026-11-20T12:00:00Z'));
  let fleet: TestFleet;
  let t: TestApp;
  let user: TestUser;

  before(async () => {
    fleet = await startFleet(['railway', 'github'], { clock });
    t = await startIngestApp(fleet, { clock });
    user = await createUser(t, 'pro');
    await t.app.ingest.scheduler.runRound({ force: true });
  });
  after(async () => {
    await t?.close();
    await fleet?.close();
  });

  const list = (key?: string) => getJson(`${t.api}/incidents?activeOnly=true`, key ? { headers: { 'x-api-key': key } } : undefined);
  const titles = (r: { body: { items: { title?: string; name?: string }[] } }) => r.body.items.map((i) => i.title ?? i.name);

  test('a new incident shows once the entry is a second old; before that the entry is served', async () => {
    for (const key of [undefined, user.key]) {
      await list(key);
      const warm = await list(key);
      assert.equal(warm.headers.get('x-cache'), 'HIT');
    }
    const before = titles(await list());

    const inc = fleet.sim.fleet.openIncident('github', { impact: 'major' });
    clock.advance(61_000);
    await t.app.ingest.scheduler.runRound({ vendor: 'github', force: true });

    // The entries were stored 61 s ago on the test clock and expired anyway: warm them again
    // after the change, then move on by 20 s (well within 60 s) with a second change.
    const fresh = await list();
    assert.ok(titles(fresh).includes(inc.title), `${inc.title} in ${titles(fresh).join(', ')}`);
    assert.equal((await list()).headers.get('x-cache'), 'HIT');
    await list(user.key);
    assert.equal((await list(user.key)).headers.get('x-cache'), 'HIT');

    const second = fleet.sim.fleet.openIncident('railway', { impact: 'minor' });
    clock.advance(20_000);
    await t.app.ingest.scheduler.runRound({ vendor: 'railway', force: true });
    // Well within the 60 s expiry: without the data version, both would still answer the old list.
    const anon = await list();
    assert.equal(anon.headers.get('x-cache'), 'MISS');
    assert.ok(titles(anon).includes(second.title));
    const keyed = await list(user.key);
    assert.ok(titles(keyed).includes(second.title), 'the hot path falls through to a fresh answer too');
    assert.notDeepEqual(titles(anon), before);
  });

  test('an entry younger than a second is still served after a newer change', async () => {
    await list();
    assert.equal((await list()).headers.get('x-cache'), 'HIT');
    fleet.sim.fleet.openIncident('github', { impact: 'minor' });
    clock.advance(100);
    await t.app.ingest.scheduler.runRound({ vendor: 'github', force: true });
    assert.equal((await list()).headers.get('x-cache'), 'HIT', 'younger than a second: served');
    clock.advance(1_000);
    assert.equal((await list()).headers.get('x-cache'), 'MISS');
  });
});
