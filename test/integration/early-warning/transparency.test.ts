import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { signatureOf } from '../../../src/domain/early-warning-signing.ts';
import { emit, incident } from '../../helpers/alerts.ts';
import { startApp, TestClock, type TestApp } from '../../helpers/app.ts';
import { createUser, loginCookie, send } from '../../helpers/users.ts';

// Transparency of vendors (docs/early-warning.md "Transparency") over the real listener and
// store: nothing known before any signal (nulls with reasons, never zeros), then lead time
// to the vendor's post, time to resolve, unposted outages after the confirmation window,
// dismissed false alarms left out; the ranking orders; another organisation sees none of
// it, in the endpoint or in /vendor-stats; hostile queries are 4xx.

describe('early-warning transparency', () => {
  const clock = new TestClock(new Date('2026-11-29T08:00:00Z'));
  let t: TestApp;
  let cookie: string;
  let orgId: string;
  let secret: string;
  let viewerCookie: string;
  let other: { cookie: string; orgId: string };
  let msg = 0;
  const s = (c = cookie) => ({ cookie: c, origin: t.url });
  const org = (p = '', id = orgId) => `${t.url}/api/v1/orgs/${id}${p}`;
  const transparency = (q = '', c = cookie, id = orgId) => send(`${org('/early-warning/transparency', id)}${q}`, 'GET', { cookie: c });

  function signed(body: Record<string, unknown>) {
    const raw = JSON.stringify(body);
    const id = `msg_${++msg}`;
    const ts = Math.floor(clock.now().getTime() / 1000);
    return fetch(org('/signals'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'webhook-id': id, 'webhook-timestamp': String(ts), 'webhook-signature': signatureOf(secret, id, ts, raw) },
      body: raw,
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));
  }

  /** An inbound call and a member's report agree: a signal opens now. */
  async function openSignal(vendor: string): Promise<string> {
    assert.equal((await signed({ vendor, severity: 'major', summary: `${vendor} errors` })).status, 202);
    const r = await send(org('/reports'), 'POST', s(), { vendor });
    assert.equal(r.body.signal?.state, 'suspected', JSON.stringify(r.body));
    return r.body.signal.id;
  }

  before(async () => {
    t = await startApp({ clock, env: { DELIVER: 'off' } });
    const owner = await createUser(t, 'pro');
    cookie = await loginCookie(t, owner);
    orgId = (await send(`${t.url}/api/v1/orgs`, 'POST', s(), { name: 'Lead team' })).body.organisation.id;
    assert.equal((await send(org('/switch'), 'POST', s())).status, 200);
    secret = (await send(org('/signal-secret'), 'POST', s())).body.secret;
    const v = await createUser(t, 'free');
    viewerCookie = await loginCookie(t, v);
    const inv = await send(org('/invitations'), 'POST', s(), { email: v.email, role: 'viewer' });
    assert.equal((await send(`${t.url}/api/v1/invitations/${inv.body.invitation.link.split('/').pop()}/accept`, 'POST', s(viewerCookie))).status, 200);
    assert.equal((await send(org('/switch'), 'POST', s(viewerCookie))).status, 200);
    const u = await createUser(t, 'pro');
    const c = await loginCookie(t, u);
    const otherOrg = (await send(`${t.url}/api/v1/orgs`, 'POST', s(c), { name: 'Other team' })).body.organisation.id;
    assert.equal((await send(`${t.url}/api/v1/orgs/${otherOrg}/switch`, 'POST', s(c))).status, 200);
    other = { cookie: c, orgId: otherOrg };
  });
  after(async () => {
    await t?.close();
  });

  test('before any signal: unknown, with reasons, never zero', async () => {
    const one = await transparency('?vendor=github');
    assert.equal(one.status, 200, JSON.stringify(one.body));
    assert.equal(one.body.windowDays, 90);
    const [g] = one.body.vendors;
    assert.equal(g.vendor, 'github');
    assert.equal(g.signals, 0);
    assert.equal(g.leadTimeMinutes, null);
    assert.equal(g.unpostedOutages, null);
    assert.equal(g.timeToResolveMinutes, null);
    assert.equal(g.unknown.length, 3);
    assert.deepEqual((await transparency()).body.vendors, [], 'no vendor is ranked without a signal');
    const stats = await send(`${t.api}/vendor-stats/github`, 'GET', { cookie });
    assert.equal(stats.status, 200);
    assert.equal(stats.body.items[0].earlyWarning.signals, 0);
    assert.equal(stats.body.items[0].earlyWarning.leadTimeMinutes, null);
  });

  test('lead time, time to resolve, unposted outages, dismissed left out; ranked both ways', async () => {
    const gh = await openSignal('github');
    const fa = await openSignal('fastly');
    const st = await openSignal('stripe');
    // GitHub posts 12 minutes after our signal, and resolves 60 minutes after it.
    clock.advance(12 * 60_000);
    const at = clock.now().toISOString();
    const posted = { ...incident('github', { id: 'gh-lead-1' }), startedAt: at };
    await emit(t, 'incident.created', posted, at);
    assert.equal((await t.app.earlyWarning.runOnce()).confirmed, 1);
    const { vendorName: _n, durationMinutes: _d, ...record } = posted;
    await t.repos.incidents.upsert(
      { ...record, status: 'resolved', resolvedAt: new Date(clock.now().getTime() + 48 * 60_000).toISOString() } as never,
      'fp-gh-lead-1',
    );
    // Stripe's was a false alarm.
    assert.equal((await send(org(`/signals/${st}/dismiss`), 'POST', s(), { reason: 'our proxy' })).status, 200);
    // Fastly's clears after the quiet period; within the confirmation window it is not counted yet.
    clock.advance(31 * 60_000);
    assert.ok((await t.app.earlyWarning.runOnce()).cleared >= 1);
    let fastly = (await transparency('?vendor=fastly')).body.vendors[0];
    assert.equal(fastly.unpostedOutages, 0);
    assert.equal(fastly.awaitingConfirmationWindow, 1);
    clock.advance(2 * 60 * 60_000);
    fastly = (await transparency('?vendor=fastly')).body.vendors[0];
    assert.equal(fastly.unpostedOutages, 1, 'the window ended without an incident');
    assert.equal(fastly.awaitingConfirmationWindow, 0);
    assert.equal(fastly.leadTimeMinutes, null);
    assert.match(fastly.unknown.find((u: any) => u.figure === 'leadTimeMinutes').reason, /none of 1 signals/);

    const ranked = await transparency();
    assert.equal(ranked.status, 200);
    assert.deepEqual(
      ranked.body.vendors.map((v: any) => v.vendor),
      ['github', 'fastly', 'stripe'],
    );
    const [g, , s3] = ranked.body.vendors;
    assert.deepEqual(g.leadTimeMinutes, { count: 1, p50: 12, p90: 12, min: 12, max: 12 });
    assert.deepEqual(g.timeToResolveMinutes, { count: 1, p50: 60, p90: 60, min: 60, max: 60 });
    assert.equal(g.outcomes.confirmed, 1);
    assert.equal(s3.outcomes.dismissed, 1);
    assert.equal(s3.unpostedOutages, 0, 'a dismissed false alarm is no unposted outage');
    assert.deepEqual(
      (await transparency('?order=unposted')).body.vendors.map((v: any) => v.vendor),
      ['fastly', 'github', 'stripe'],
    );
    // A viewer reads them; the statistics carry the same figures.
    assert.deepEqual((await transparency('', viewerCookie)).body.vendors, ranked.body.vendors);
    const stats = await send(`${t.api}/vendor-stats/github`, 'GET', { cookie });
    assert.deepEqual(stats.body.items[0].earlyWarning, g);
    assert.ok(gh && fa);
  });

  test('another organisation and anonymous callers see none of it', async () => {
    assert.equal((await transparency('', other.cookie)).status, 404);
    assert.deepEqual((await transparency('', other.cookie, other.orgId)).body.vendors, []);
    const theirs = await send(`${t.api}/vendor-stats/github`, 'GET', { cookie: other.cookie });
    assert.equal(theirs.body.items[0].earlyWarning.signals, 0);
    const anon = await fetch(`${t.api}/vendor-stats/github`);
    assert.equal(anon.status, 200);
    assert.ok(!('earlyWarning' in ((await anon.json()) as any).items[0]));
    assert.equal((await fetch(org('/early-warning/transparency'))).status, 401);
  });

  test('hostile queries are 4xx, never 500', async () => {
    for (const q of [
      '?order=fastest',
      '?vendor=GitHub',
      "?vendor=a'%20or%201=1",
      `?vendor=${'a'.repeat(300)}`,
      '?extra=1',
      '?order=lead&order=unposted',
      '?vendor=%00',
    ]) {
      const r = await transparency(q);
      assert.equal(r.status, 400, `${q}: ${r.status} ${JSON.stringify(r.body)}`);
    }
    const unknown = await transparency('?vendor=no-such-vendor');
    assert.equal(unknown.status, 404);
    assert.equal((await transparency('', cookie, 'no-such-org')).status, 404);
  });
});
