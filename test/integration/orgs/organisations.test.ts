import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startApp, TestClock, type TestApp } from '../../helpers/app.ts';
import { createUser, loginCookie, send, type TestUser } from '../../helpers/users.ts';

// Organisations through the REST API as a team sets one up (docs/teams.md): a team
// organisation, invitations accepted by the invited people, roles, switching, a shared
// watchlist, removal, ownership, organisation keys; every refusal with its error body.

describe('organisations: a team sets up and works together', () => {
  let t: TestApp;
  const clock = new TestClock(new Date('2026-05-01T10:00:00Z'));
  let owner: TestUser;
  let ed: TestUser;
  let vi: TestUser;
  let stranger: TestUser;
  let ownerCookie: string;
  let edCookie: string;
  let viCookie: string;
  let strangerCookie: string;
  let orgId: string;
  let ci: Record<string, string>;
  /** The account area (organisations, keys, boards) and the data API (watchlist, preferences). */
  const api = (p: string) => (/^\/(watchlist|notification-preferences|vendors)/.test(p) ? `${t.api}${p}` : `${t.url}/api/v1${p}`);

  before(async () => {
    t = await startApp({ clock });
    [owner, ed, vi, stranger] = await Promise.all([createUser(t, 'pro'), createUser(t, 'free'), createUser(t, 'free'), createUser(t, 'pro')]);
    [ownerCookie, edCookie, viCookie, strangerCookie] = await Promise.all([owner, ed, vi, stranger].map((u) => loginCookie(t, u)));
  });
  after(() => t.close());

  /** A session request as our pages make it: the cookie and the page's Origin (send() adds the CSRF token). */
  const cookie = (c: string) => ({ cookie: c, origin: t.url });
  const invite = async (email: string, role: string) => {
    const r = await send(api(`/orgs/${orgId}/invitations`), 'POST', cookie(ownerCookie), { email, role });
    assert.equal(r.status, 201, JSON.stringify(r.body));
    return new URL(r.body.invitation.link, t.url).pathname.split('/').pop()!;
  };

  test('every account starts with its personal organisation, current and owned', async () => {
    const r = await send(api('/orgs'), 'GET', owner.headers);
    assert.equal(r.status, 200);
    assert.deepEqual(
      r.body.organisations.map((o: any) => [o.id, o.personal, o.role, o.current, o.plan]),
      [[owner.id, true, 'owner', true, 'pro']],
    );
    const acct = await send(api('/account'), 'GET', owner.headers);
    assert.deepEqual(acct.body.organisation, { id: owner.id, name: 'Personal', personal: true, role: 'owner' });
  });

  test('a team organisation: created by a member, who owns it; names are checked', async () => {
    const bad = await send(api('/orgs'), 'POST', cookie(ownerCookie), { name: 'a\u0007b' });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.success, false);
    const r = await send(api('/orgs'), 'POST', cookie(ownerCookie), { name: '  Platform team ' });
    assert.equal(r.status, 201);
    assert.equal(r.body.organisation.name, 'Platform team');
    assert.equal(r.body.organisation.role, 'owner');
    assert.equal(r.body.organisation.personal, false);
    assert.match(r.body.organisation.id, /^[0-9a-f-]{36}$/);
    orgId = r.body.organisation.id;
  });

  test('invitations: accepted by the invited address only, once', async () => {
    const edToken = await invite(ed.email.toUpperCase(), 'editor');
    const viToken = await invite(vi.email, 'viewer');

    const preview = await send(api(`/invitations/${edToken}`), 'GET', {});
    assert.equal(preview.status, 200);
    assert.equal(preview.body.invitation.organisation.name, 'Platform team');
    assert.equal(preview.body.invitation.email, ed.email.toLowerCase());
    assert.equal(preview.body.invitation.state, 'open');

    // Someone else signed in cannot take it.
    const foreign = await send(api(`/invitations/${edToken}/accept`), 'POST', cookie(strangerCookie));
    assert.equal(foreign.status, 409);
    assert.equal(foreign.body.state, 'foreign');

    // Twice at once: one membership.
    const both = await Promise.all([1, 2].map(() => send(api(`/invitations/${edToken}/accept`), 'POST', cookie(edCookie))));
    assert.deepEqual(both.map((r) => r.status).sort(), [200, 409]);
    const again = await send(api(`/invitations/${edToken}/accept`), 'POST', cookie(edCookie));
    assert.equal(again.status, 409);
    assert.match(again.body.message, /already accepted/);

    assert.equal((await send(api(`/invitations/${viToken}/accept`), 'POST', vi.headers)).status, 200);

    const members = await send(api(`/orgs/${orgId}/members`), 'GET', cookie(edCookie));
    assert.deepEqual(
      members.body.members.map((m: any) => [m.email, m.role]).sort(),
      [
        [ed.email.toLowerCase(), 'editor'],
        [owner.email.toLowerCase(), 'owner'],
        [vi.email.toLowerCase(), 'viewer'],
      ].sort(),
    );
  });

  test('an expired, declined or unknown invitation is refused with the reason', async () => {
    const late = await invite('late@example.com', 'viewer');
    const other = await createUser(t, 'free');
    const otherCookie = await loginCookie(t, other);
    const declined = await invite(other.email, 'editor');
    assert.equal((await send(api(`/invitations/${declined}/decline`), 'POST', cookie(otherCookie))).status, 200);
    const afterDecline = await send(api(`/invitations/${declined}/accept`), 'POST', cookie(otherCookie));
    assert.equal(afterDecline.status, 409);
    assert.equal(afterDecline.body.state, 'declined');

    clock.advance(8 * 86_400_000);
    const expired = await send(api(`/invitations/${late}`), 'GET', {});
    assert.equal(expired.body.invitation.state, 'expired');
    const lateUser = await createUser(t, 'free');
    void lateUser;

    for (const token of ['x'.repeat(43), 'not-a-token', 'A'.repeat(100)]) {
      const r = await send(api(`/invitations/${token}`), 'GET', {});
      assert.equal(r.status, 404, token);
      assert.equal(r.body.success, false);
    }
  });

  test('switching: the session acts for the team; the watchlist is shared', async () => {
    const sw = await send(api(`/orgs/${orgId}/switch`), 'POST', cookie(edCookie));
    assert.equal(sw.status, 200);
    assert.equal(sw.body.organisation.role, 'editor');
    const put = await send(api('/watchlist'), 'PUT', cookie(edCookie), { vendors: ['github', 'stripe'] });
    assert.equal(put.status, 200, JSON.stringify(put.body));

    await send(api(`/orgs/${orgId}/switch`), 'POST', cookie(ownerCookie));
    const seen = await send(api('/watchlist'), 'GET', cookie(ownerCookie));
    assert.deepEqual(seen.body.vendors, ['github', 'stripe']);
    // The editor's own key still acts for their personal organisation.
    assert.deepEqual((await send(api('/watchlist'), 'GET', ed.headers)).body.vendors, []);
    // A key cannot switch; an organisation one is not in cannot be switched to (404, like an unknown id).
    assert.equal((await send(api(`/orgs/${orgId}/switch`), 'POST', ed.headers)).status, 403);
    const foreign = await send(api(`/orgs/${orgId}/switch`), 'POST', cookie(strangerCookie));
    assert.equal(foreign.status, 404);
  });

  test('a viewer reads but every write is 403 role_required with the error body', async () => {
    await send(api(`/orgs/${orgId}/switch`), 'POST', cookie(viCookie));
    assert.deepEqual((await send(api('/watchlist'), 'GET', cookie(viCookie))).body.vendors, ['github', 'stripe']);
    const writes: [string, string, unknown][] = [
      ['PUT', '/watchlist', { vendors: ['github'] }],
      ['POST', '/watchlist/github', undefined],
      ['DELETE', '/watchlist/github', undefined],
      ['PUT', '/notification-preferences', { in_app: { enabled: false } }],
      ['POST', '/boards', {}],
      ['POST', `/orgs/${orgId}/invitations`, { email: 'x@example.com', role: 'viewer' }],
      ['PATCH', `/orgs/${orgId}`, { name: 'Renamed' }],
      ['PATCH', `/orgs/${orgId}/members/${ed.id}`, { role: 'viewer' }],
      ['GET', `/orgs/${orgId}/audit`, undefined],
    ];
    for (const [method, path, body] of writes) {
      const r = await send(api(path), method, cookie(viCookie), body);
      assert.equal(r.status, 403, `${method} ${path}: ${JSON.stringify(r.body)}`);
      assert.equal(r.body.error, 'role_required', `${method} ${path}`);
      assert.equal(r.body.role, 'viewer');
    }
    assert.deepEqual((await send(api('/watchlist'), 'GET', cookie(ownerCookie))).body.vendors, ['github', 'stripe']);
  });

  test('an admin never grants above their own role; only an owner changes an owner', async () => {
    assert.equal((await send(api(`/orgs/${orgId}/members/${ed.id}`), 'PATCH', cookie(ownerCookie), { role: 'admin' })).status, 200);
    const up = await send(api(`/orgs/${orgId}/members/${vi.id}`), 'PATCH', cookie(edCookie), { role: 'owner' });
    assert.equal(up.status, 403);
    const demoteOwner = await send(api(`/orgs/${orgId}/members/${owner.id}`), 'PATCH', cookie(edCookie), { role: 'viewer' });
    assert.equal(demoteOwner.status, 403);
    assert.equal((await send(api(`/orgs/${orgId}/members/${vi.id}`), 'PATCH', cookie(edCookie), { role: 'editor' })).status, 200);
    assert.equal((await send(api(`/orgs/${orgId}/members/${vi.id}`), 'PATCH', cookie(edCookie), { role: 'viewer' })).status, 200);
  });

  test('the last owner cannot leave or stop being owner; a transfer hands it over', async () => {
    const leave = await send(api(`/orgs/${orgId}/leave`), 'POST', cookie(ownerCookie));
    assert.equal(leave.status, 409);
    const self = await send(api(`/orgs/${orgId}/members/${owner.id}`), 'PATCH', cookie(ownerCookie), { role: 'admin' });
    assert.equal(self.status, 409);
    // Concurrent demotions of the two owners after a transfer: one of them stays owner.
    assert.equal((await send(api(`/orgs/${orgId}/transfer`), 'POST', cookie(ownerCookie), { userId: ed.id })).status, 200);
    const roles = async () =>
      Object.fromEntries((await send(api(`/orgs/${orgId}/members`), 'GET', cookie(edCookie))).body.members.map((m: any) => [m.userId, m.role]));
    assert.equal((await roles())[ed.id], 'owner');
    assert.equal((await roles())[owner.id], 'admin');
    // Back, so the rest of the suite has the same owner.
    assert.equal((await send(api(`/orgs/${orgId}/members/${owner.id}`), 'PATCH', cookie(edCookie), { role: 'owner' })).status, 200);
    const race = await Promise.all([
      send(api(`/orgs/${orgId}/members/${ed.id}`), 'PATCH', cookie(ownerCookie), { role: 'admin' }),
      send(api(`/orgs/${orgId}/members/${owner.id}`), 'PATCH', cookie(edCookie), { role: 'admin' }),
    ]);
    const after = await roles();
    assert.ok(Object.values(after).includes('owner'), JSON.stringify({ after, race: race.map((r) => r.status) }));
    if (after[owner.id] !== 'owner') {
      assert.equal((await send(api(`/orgs/${orgId}/members/${owner.id}`), 'PATCH', cookie(edCookie), { role: 'owner' })).status, 200);
    }
    if (after[ed.id] === 'owner') await send(api(`/orgs/${orgId}/members/${ed.id}`), 'PATCH', cookie(ownerCookie), { role: 'admin' });
  });

  test('organisation keys act with their role; a removed member loses keys and access at once', async () => {
    const made = await send(api(`/orgs/${orgId}/keys`), 'POST', cookie(ownerCookie), { name: 'ci', role: 'viewer' });
    assert.equal(made.status, 201);
    ci = { 'x-api-key': made.body.secret };
    assert.deepEqual((await send(api('/watchlist'), 'GET', ci)).body.vendors, ['github', 'stripe']);
    const denied = await send(api('/watchlist'), 'PUT', ci, { vendors: [] });
    assert.equal(denied.status, 403);
    assert.equal(denied.body.error, 'role_required');
    // An organisation key is no person: no account summary, no key minting.
    assert.equal((await send(api('/account'), 'GET', ci)).status, 403);

    // The admin's member key for the team (made while its session acts for the team).
    await send(api(`/orgs/${orgId}/switch`), 'POST', cookie(edCookie));
    const edKey = await send(api('/account/keys'), 'POST', cookie(edCookie), { name: 'mine' });
    assert.equal(edKey.status, 201);
    const edTeam = { 'x-api-key': edKey.body.secret };
    assert.deepEqual((await send(api('/watchlist'), 'GET', edTeam)).body.vendors, ['github', 'stripe']);

    const keys = await send(api(`/orgs/${orgId}/keys`), 'GET', cookie(ownerCookie));
    assert.deepEqual(
      keys.body.keys.map((k: any) => [k.name, k.userEmail, k.role]).sort(),
      [
        ['ci', null, 'viewer'],
        ['mine', ed.email.toLowerCase(), null],
      ].sort(),
    );

    assert.equal((await send(api(`/orgs/${orgId}/members/${ed.id}`), 'DELETE', cookie(ownerCookie))).status, 200);
    assert.equal((await send(api('/watchlist'), 'GET', edTeam)).status, 401);
    // Their session falls back to their personal organisation.
    const mine = await send(api('/account'), 'GET', cookie(edCookie));
    assert.equal(mine.body.organisation.id, ed.id);
    assert.equal((await send(api(`/orgs/${orgId}/members`), 'GET', cookie(edCookie))).status, 404);
    // The organisation key stays.
    assert.equal((await send(api('/watchlist'), 'GET', ci)).status, 200);
  });

  test('requests of every member and key count against the organisation', async () => {
    // The owner's member key for the team (the session acts for it) beside the organisation key.
    const made = await send(api('/account/keys'), 'POST', cookie(ownerCookie), { name: 'owner team key' });
    const ownerTeam = { 'x-api-key': made.body.secret };
    // Read through the owner's page session (first-party: not counted itself).
    const used = async () => (await send(api('/account'), 'GET', cookie(ownerCookie))).body.usage.usedThisMinute;
    const start = await used();
    await send(api('/watchlist'), 'GET', ci);
    await send(api('/watchlist'), 'GET', ownerTeam);
    await send(api('/vendors'), 'GET', ci);
    assert.equal(await used(), start + 3);
    // The owner's personal key counts elsewhere.
    await send(api('/watchlist'), 'GET', owner.headers);
    assert.equal(await used(), start + 3);
  });

  test('the audit log names who did what, with secrets masked; CSV cells never run as formulas', async () => {
    const saved = await send(api('/notification-preferences'), 'PUT', cookie(ownerCookie), {
      pagerduty: { enabled: true, routing_key: 'R0ABCDEF1234567890abcdef12345678' },
    });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    await send(api(`/orgs/${orgId}`), 'PATCH', cookie(ownerCookie), { name: '=HYPERLINK("http://evil")' });
    const r = await send(api(`/orgs/${orgId}/audit?limit=100`), 'GET', cookie(ownerCookie));
    assert.equal(r.status, 200);
    const actions = r.body.entries.map((e: any) => e.action);
    for (const a of [
      'org.created',
      'invitation.created',
      'member.joined',
      'invitation.declined',
      'watchlist.replaced',
      'member.role_changed',
      'org.ownership_transferred',
      'key.created',
      'member.removed',
      'preferences.updated',
      'org.renamed',
    ]) {
      assert.ok(actions.includes(a), `${a} in ${actions.join(',')}`);
    }
    const prefs = r.body.entries.find((e: any) => e.action === 'preferences.updated');
    assert.equal(prefs.actor.label, owner.email.toLowerCase());
    assert.equal(prefs.actor.kind, 'user');
    assert.equal(prefs.after.pagerduty.routing_key, '••••');
    assert.ok(!JSON.stringify(r.body).includes('R0ABCDEF1234567890'));
    const joined = r.body.entries.find((e: any) => e.action === 'member.joined' && e.target === `user:${vi.email.toLowerCase()}`);
    assert.equal(joined.actor.kind, 'key');

    // Paging backwards with filters.
    const page1 = await send(api(`/orgs/${orgId}/audit?limit=2`), 'GET', cookie(ownerCookie));
    assert.equal(page1.body.entries.length, 2);
    const page2 = await send(api(`/orgs/${orgId}/audit?limit=2&before=${page1.body.nextBefore}`), 'GET', cookie(ownerCookie));
    assert.ok(page2.body.entries[0].seq < page1.body.entries[1].seq + 0.5);
    const onlyKeys = await send(api(`/orgs/${orgId}/audit?action=key.created`), 'GET', cookie(ownerCookie));
    assert.ok(onlyKeys.body.entries.length >= 2 && onlyKeys.body.entries.every((e: any) => e.action === 'key.created'));

    const csv = await fetch(api(`/orgs/${orgId}/audit?format=csv`), { headers: { cookie: ownerCookie } });
    assert.equal(csv.status, 200);
    assert.match(csv.headers.get('content-type')!, /^text\/csv/);
    const text = await csv.text();
    assert.ok(text.startsWith('"seq","at","actor_kind"'));
    assert.equal(text.split('\r\n').filter(Boolean).length, r.body.entries.length + 1);
    // The renamed organisation's name sits inside the JSON of the `after` cell; an actor label
    // starting with "=" would be prefixed (src/domain/csv.ts, unit-tested on its own).
    assert.ok(!/(^|,)"=/.test(text));

    // JSON lines: every match, one entry per line, the same entries and hashes as the pages.
    const lines = await fetch(api(`/orgs/${orgId}/audit?format=ndjson&action=key.created`), { headers: { cookie: ownerCookie } });
    assert.equal(lines.status, 200);
    assert.match(lines.headers.get('content-type')!, /^application\/x-ndjson/);
    assert.match(lines.headers.get('content-disposition')!, /attachment; filename="audit-.+\.ndjson"/);
    const exported = (await lines.text())
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    assert.deepEqual(exported, onlyKeys.body.entries);
    assert.ok(!JSON.stringify(exported).includes('R0ABCDEF1234567890'));
    assert.equal((await send(api(`/orgs/${orgId}/audit?format=xml`), 'GET', cookie(ownerCookie))).status, 400);

    // Another organisation's log: 404 as if it did not exist.
    assert.equal((await send(api(`/orgs/${orgId}/audit`), 'GET', cookie(strangerCookie))).status, 404);
  });

  test('invitations cannot be used as a mailer: at most 3 to one address per 24 hours', async () => {
    const target = 'spam-target@example.com';
    for (let i = 0; i < 3; i++) {
      const r = await send(api(`/orgs/${orgId}/invitations`), 'POST', cookie(ownerCookie), { email: target, role: 'viewer' });
      assert.equal(r.status, 201, JSON.stringify(r.body));
      assert.equal((await send(api(`/orgs/${orgId}/invitations/${r.body.invitation.id}`), 'DELETE', cookie(ownerCookie))).status, 200);
    }
    const refused = await send(api(`/orgs/${orgId}/invitations`), 'POST', cookie(ownerCookie), { email: target.toUpperCase(), role: 'viewer' });
    assert.equal(refused.status, 429);
    assert.equal(refused.body.error, 'rate_limit_exceeded');
    assert.ok(refused.body.retryAfter > 0 && refused.body.retryAfter <= 86_400);
    clock.advance(86_400_000);
    assert.equal((await send(api(`/orgs/${orgId}/invitations`), 'POST', cookie(ownerCookie), { email: target, role: 'viewer' })).status, 201);
  });

  test('an organisation and everything it owns can be deleted by an owner only', async () => {
    const other = await send(api('/orgs'), 'POST', cookie(ownerCookie), { name: 'Short lived' });
    const id = other.body.organisation.id;
    assert.equal((await send(api(`/orgs/${owner.id}`), 'DELETE', cookie(ownerCookie))).status, 409);
    assert.equal((await send(api(`/orgs/${id}`), 'DELETE', cookie(strangerCookie))).status, 404);
    assert.equal((await send(api(`/orgs/${id}`), 'DELETE', cookie(ownerCookie))).status, 200);
    assert.equal((await send(api(`/orgs/${id}`), 'GET', cookie(ownerCookie))).status, 404);
  });
});
