import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { getJson, startApp, type TestApp } from '../helpers/app.ts';
import { userWithKey, login, type TestUser } from '../helpers/access.ts';
import { incident } from '../helpers/records.ts';
import { commitEvents, openStream } from '../helpers/stream.ts';
import { send } from '../helpers/users.ts';

// Public status boards (docs/boards.md): the owner's API (create, list, revoke, scoped
// to the owner), the public page (no account data, CSP frame-ancestors per board, 404
// once revoked) and its stream (the board's vendors only, an anonymous stream slot).

describe('public status boards', () => {
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;
  const logLines: string[] = [];
  const ah = () => ({ 'x-api-key': alice.secret });
  const boards = () => `${t.url}/api/v1/boards`;

  before(async () => {
    const logStream = new Writable({
      write(chunk, _enc, done) {
        logLines.push(String(chunk));
        done();
      },
    });
    t = await startApp({ logStream, env: { LOG_LEVEL: 'debug' } }); // request lines are logged at debug (docs/operations.md)
    alice = await userWithKey(t, 'pro', 'alice');
    bob = await userWithKey(t, 'pro', 'bob');
    await t.repos.incidents.upsert(incident('github', 'board-a', { title: 'Git pushes failing' }), 'fa');
    await t.repos.incidents.upsert(incident('stripe', 'board-b', { title: 'Payments slow' }), 'fb');
    assert.equal((await send(`${t.api}/watchlist`, 'PUT', ah(), { vendors: ['github', 'cloudflare'] })).status, 200);
  });
  after(async () => t?.close());

  test("create: an unguessable URL shown once, the token stored only hashed; list and revoke are the owner's", async () => {
    const made = await send(boards(), 'POST', ah(), { title: 'Acme vendors' });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const { board, token, url } = made.body;
    assert.match(token, /^[A-Za-z0-9_-]{43}$/, '256 random bits, base64url');
    assert.equal(url, `${t.url}/b/${token}`);
    assert.deepEqual(board.vendors, ['github', 'cloudflare']);
    assert.deepEqual(board.frameAncestors, ['*']);

    const rows = await t.store.db.selectFrom('boards').selectAll().execute();
    const row = rows.find((r) => r.id === board.id)!;
    assert.equal(row.org_id, alice.userId);
    assert.notEqual(row.token_hash, token);
    assert.ok(!JSON.stringify(rows).includes(token), 'the token is not stored');

    const listed = await getJson(boards(), { headers: ah() });
    assert.equal(listed.status, 200);
    assert.deepEqual(
      listed.body.boards.map((b: { id: string }) => b.id),
      [board.id],
    );
    assert.ok(!JSON.stringify(listed.body).includes(token), 'the list never shows the URL');

    // Bob sees none of Alice's boards and cannot revoke them.
    const bobList = await getJson(boards(), { headers: { 'x-api-key': bob.secret } });
    assert.deepEqual(bobList.body.boards, []);
    assert.equal((await send(`${boards()}/${board.id}`, 'DELETE', { 'x-api-key': bob.secret })).status, 404);
    assert.equal((await fetch(`${t.url}/b/${token}`)).status, 200, 'still published after Bob tried');

    // Without credentials: 401.
    assert.equal((await send(boards(), 'POST', {}, {})).status, 401);
    assert.equal((await getJson(boards())).status, 401);

    assert.equal((await send(`${boards()}/${board.id}`, 'DELETE', ah())).status, 204);
    assert.equal((await fetch(`${t.url}/b/${token}`)).status, 404, 'revoked: 404 at once');
    assert.equal((await fetch(`${t.url}/b/${token}/partial`)).status, 404);
    assert.equal((await fetch(`${t.url}/b/${token}/stream`)).status, 404);
    assert.equal((await send(`${boards()}/${board.id}`, 'DELETE', ah())).status, 404);
  });

  test('bad input: unknown fields, bad frame-ancestors sources, an empty watchlist are 400s', async () => {
    for (const body of [
      { title: 'x', userId: bob.userId },
      { frameAncestors: ['https://ok.example.com; script-src *'] },
      { frameAncestors: ['javascript:alert(1)'] },
      { frameAncestors: ["'none'", 'https://a.example.com'] },
      { frameAncestors: [] },
      { title: 'tab\there' },
    ]) {
      const r = await send(boards(), 'POST', ah(), body);
      assert.equal(r.status, 400, `${JSON.stringify(body)}: ${JSON.stringify(r.body)}`);
      assert.equal(r.body.success, false);
    }
    const r = await send(boards(), 'POST', { 'x-api-key': bob.secret }, {});
    assert.equal(r.status, 400, 'Bob has an empty watchlist');
    assert.match(r.body.message, /watchlist is empty/);
  });

  test("the public page shows the vendors' status and nothing of the account or the visitor", async () => {
    const { token } = (await send(boards(), 'POST', ah(), { title: 'Status of our vendors' })).body;
    // A signed-in visitor (Bob) sees the same page as anyone: no session state on it.
    const bobCookie = await login(t, bob.email, bob.password);
    const visitors: Record<string, string>[] = [{}, { cookie: bobCookie }, { 'x-api-key': bob.secret }];
    for (const headers of visitors) {
      const res = await fetch(`${t.url}/b/${token}`, { headers });
      assert.equal(res.status, 200);
      const page = await res.text();
      assert.match(page, /<h1[^>]*>Status of our vendors<\/h1>/);
      assert.match(page, /Git pushes failing/, "the board's vendor's incident");
      assert.doesNotMatch(page, /Payments slow/, 'a vendor not on the board');
      for (const secret of [alice.email, alice.userId, alice.keyId, bob.email, bob.userId, 'csrf', 'Log out', 'Account', 'vis_']) {
        assert.ok(!page.includes(secret), `the page shows ${secret}`);
      }
      assert.doesNotMatch(page, /\bplan\b/i, 'no plan');
      assert.equal(res.headers.get('set-cookie'), null, 'no cookie set on a board');
      assert.equal(res.headers.get('cache-control'), 'no-store');
      assert.equal(res.headers.get('referrer-policy'), 'no-referrer');
    }
    // The partial the live module fetches says the same.
    const partial = await (await fetch(`${t.url}/b/${token}/partial`)).text();
    assert.match(partial, /Git pushes failing/);
    assert.ok(!partial.includes(alice.email));
    // Unknown and malformed tokens: 404, no oracle on the format.
    for (const bad of ['x'.repeat(43), 'short', `${token}x`]) assert.equal((await fetch(`${t.url}/b/${bad}`)).status, 404, bad);
    // The token never reaches a log line.
    assert.ok(
      logLines.some((l) => l.includes('/b/[redacted]')),
      'board requests are logged, redacted',
    );
    assert.ok(!logLines.some((l) => l.includes(token)), 'a log line holds the board token');
  });

  test("CSP frame-ancestors: * by default, the owner's list when set; every other page keeps 'none'", async () => {
    const open = (await send(boards(), 'POST', ah(), {})).body.token;
    const listed = (await send(boards(), 'POST', ah(), { frameAncestors: ['https://Intranet.Example.com', "'self'"] })).body;
    assert.deepEqual(listed.board.frameAncestors, ['https://intranet.example.com', "'self'"]);
    const csp = async (path: string) => {
      const r = await fetch(`${t.url}${path}`);
      await r.arrayBuffer();
      return { csp: r.headers.get('content-security-policy')!, xfo: r.headers.get('x-frame-options') };
    };
    const a = await csp(`/b/${open}`);
    assert.match(a.csp, /(^|; )frame-ancestors \*(;|$)/);
    assert.match(a.csp, /script-src 'self'/, "the rest of the policy is the site's");
    assert.equal(a.xfo, null, 'no X-Frame-Options contradicting frame-ancestors');
    const b = await csp(`/b/${listed.token}`);
    assert.match(b.csp, /(^|; )frame-ancestors https:\/\/intranet\.example\.com 'self'(;|$)/);
    for (const path of ['/', '/vendors/github', '/login', `/b/${'y'.repeat(43)}`]) {
      const other = await csp(path);
      assert.match(other.csp, /frame-ancestors 'none'/, path);
      assert.equal(other.xfo, 'DENY', path);
    }
  });

  test("the public stream carries the board's vendors only and takes an anonymous stream slot", async () => {
    const { token } = (await send(boards(), 'POST', ah(), {})).body;
    // HEAD answers at once and holds no slot.
    const head = await fetch(`${t.url}/b/${token}/stream`, { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.match(head.headers.get('content-type')!, /^text\/event-stream/);
    const s = openStream(`${t.url}/b/${token}/stream`, { cookie: await login(t, alice.email, alice.password) });
    const [snap] = await s.waitFor(1);
    assert.equal(snap!.type, 'snapshot');
    assert.deepEqual(
      snap!.data.incidents.map((i: { id: string }) => i.id),
      ['github:board-a'],
    );
    const stored = await commitEvents(t, [
      { vendor: 'stripe', id: 'st-1', type: 'incident.created' },
      { vendor: 'cloudflare', id: 'cf-1', type: 'incident.created' },
    ]);
    const [, ev] = await s.waitFor(2);
    assert.equal(ev!.id, String(stored[1]!.seq));
    assert.equal(ev!.data.incident.vendor, 'cloudflare');
    // A second stream from the same address is over the anonymous cap (1), signed in or not.
    const second = await fetch(`${t.url}/b/${token}/stream`);
    assert.equal(second.status, 429);
    assert.equal((await second.json()).currentPlan, 'anonymous');
    s.close();
  });
});
