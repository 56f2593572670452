import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { userWithKey, type TestUser } from '../../helpers/access.ts';
import { startFakeStatusPages, type FakeStatusPages } from '../../helpers/fake-status-page.ts';
import { incident } from '../../helpers/records.ts';
import { commitEvents, openStream } from '../../helpers/stream.ts';
import { waitFor } from '../../helpers/wait.ts';
import { send } from '../../helpers/users.ts';

// A board published from a watchlist holding a page its author added by URL (private to
// the account; docs/boards.md): its live stream answered an empty reply on every
// connection, and each logged a warning with a stack trace, because the stream's
// snapshot asked for the private page as the public and got a 404 after the stream had
// started. The board's stream follows what its audience (anyone) can see.

describe('the stream of a board whose watchlist holds a private page', () => {
  let t: TestApp;
  let pages: FakeStatusPages;
  let alice: TestUser;
  const warnings: string[] = [];
  const PRIVATE_TITLE = 'Private widgets outage';

  before(async () => {
    pages = await startFakeStatusPages();
    const logStream = new Writable({
      write(chunk, _enc, done) {
        const line = String(chunk);
        if (/"level":(40|50)/.test(line)) warnings.push(line);
        done();
      },
    });
    t = await startApp({ logStream, env: { LOG_LEVEL: 'warn', RATE_LIMITS: '{}', OUTBOUND_ALLOW_PRIVATE: '127.0.0.1' } });
    alice = await userWithKey(t, 'pro', 'alice');
    pages
      .incidents('widgets')
      .push({ id: 'w1', name: PRIVATE_TITLE, status: 'investigating', impact: 'minor', createdAt: new Date(Date.now() - 3_600_000).toISOString() });
    await t.repos.incidents.upsert(incident('github', 'board-public', { title: 'Git pushes failing' }), 'f');
  });
  after(async () => {
    await t?.close();
    await pages?.close();
  });

  test('the stream opens with the public vendors and carries their events; the private page stays out; nothing is logged', async () => {
    const key = { 'x-api-key': alice.secret };
    warnings.length = 0; // start-up notices (e.g. no SECRETS_KEY) are not what this test looks for
    const added = await send(`${t.url}/api/v1/account/status-pages`, 'POST', key, { url: `${pages.url}/pages/widgets/` });
    assert.equal(added.status, 201, JSON.stringify(added.body));
    const slug: string = added.body.page.slug;
    await t.app.ingest.scheduler.runRound({ force: true, vendor: slug });
    assert.equal((await send(`${t.api}/watchlist`, 'PUT', key, { vendors: ['github', slug] })).status, 200);
    const made = await send(`${t.url}/api/v1/boards`, 'POST', key, { title: 'Mixed' });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const token: string = made.body.token;

    for (let attempt = 0; attempt < 3; attempt++) {
      const s = openStream(`${t.url}/b/${token}/stream`);
      try {
        const [snapshot] = await s.waitFor(1, 5000);
        assert.equal(snapshot!.type, 'snapshot');
        const text = JSON.stringify(snapshot!.data);
        assert.match(text, /Git pushes failing/);
        assert.ok(!text.includes(PRIVATE_TITLE) && !text.includes(slug), 'nothing of the private page');
        if (attempt === 0) {
          await commitEvents(t, [{ vendor: 'github', id: 'board-live', type: 'incident.created' }]);
          const live = await s.waitForType('incident.created', 1, 5000);
          assert.equal(live.data.vendor ?? live.data.incident?.vendor, 'github');
        }
      } finally {
        s.es.close();
      }
      // The next connection waits until the server has let this one go (one anonymous slot per address).
      await waitFor(() => t.app.streams.hub.size === 0, { message: 'the stream is closed on the server' });
    }
    assert.deepEqual(warnings, [], 'no warning logged');

    // A board of the private page alone follows no vendor: an empty snapshot, not every vendor's.
    assert.equal((await send(`${t.api}/watchlist`, 'PUT', key, { vendors: [slug] })).status, 200);
    const only = await send(`${t.url}/api/v1/boards`, 'POST', key, { title: 'Private only' });
    assert.equal(only.status, 201, JSON.stringify(only.body));
    const s = openStream(`${t.url}/b/${only.body.token}/stream`);
    try {
      const [snapshot] = await s.waitFor(1, 5000);
      assert.deepEqual(snapshot!.data.incidents, []);
    } finally {
      s.es.close();
    }
    assert.deepEqual(warnings, [], 'no warning logged');
  });
});
