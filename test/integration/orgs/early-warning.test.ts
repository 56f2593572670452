import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { signatureOf } from '../../../src/domain/early-warning-signing.ts';
import { emit, incident } from '../../helpers/alerts.ts';
import { startApp, TestClock, type TestApp } from '../../helpers/app.ts';
import { connect, textOf } from '../../helpers/mcp.ts';
import { commitEvents, openStream } from '../../helpers/stream.ts';
import { waitFor } from '../../helpers/wait.ts';
import { createUser, loginCookie, send, type TestUser } from '../../helpers/users.ts';

// Early warning (docs/early-warning.md) over the real listener and store: the signed
// inbound API (good, bad signature, old timestamp, replay, hostile bodies, another
// organisation), members' reports and their bounds, the list with evidence and
// transitions, dismissal by role, confirmation by an ingested incident, clearing by the
// sweep with a stepped clock, and nothing of one organisation shown to another.

describe('early warning', () => {
  const clock = new TestClock(new Date('2026-11-29T12:00:00Z'));
  let t: TestApp;
  let owner: TestUser;
  let cookie: string;
  let orgId: string;
  let secret: string;
  let viewer: { user: TestUser; cookie: string };
  let editor: { user: TestUser; cookie: string };
  let other: { user: TestUser; cookie: string; orgId: string; secret: string };
  let msg = 0;
  const s = (c = cookie) => ({ cookie: c, origin: t.url });
  const org = (p = '', id = orgId) => `${t.url}/api/v1/orgs/${id}${p}`;

  /** A signed inbound call; `o` bends one part of it. */
  function signed(body: unknown, o: { secret?: string; id?: string; ts?: number; orgId?: string; signature?: string; contentType?: string } = {}) {
    const raw = typeof body === 'string' ? body : JSON.stringify(body);
    const id = o.id ?? `msg_${++msg}`;
    const ts = o.ts ?? Math.floor(clock.now().getTime() / 1000);
    return fetch(org('/signals', o.orgId), {
      method: 'POST',
      headers: {
        'content-type': o.contentType ?? 'application/json',
        'webhook-id': id,
        'webhook-timestamp': String(ts),
        'webhook-signature': o.signature ?? signatureOf(o.secret ?? secret, id, ts, raw),
      },
      body: raw,
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));
  }
  const list = async (q = '', c = cookie, id = orgId) => send(`${org('/signals', id)}${q}`, 'GET', { cookie: c });
  const signalsOf = async (q = '') => (await list(q)).body.signals as any[];

  async function member(role: 'viewer' | 'editor') {
    const user = await createUser(t, 'free');
    const c = await loginCookie(t, user);
    const inv = await send(org('/invitations'), 'POST', s(), { email: user.email, role });
    const token = inv.body.invitation.link.split('/').pop();
    assert.equal((await send(`${t.url}/api/v1/invitations/${token}/accept`, 'POST', s(c))).status, 200);
    assert.equal((await send(org('/switch'), 'POST', s(c))).status, 200);
    return { user, cookie: c };
  }

  before(async () => {
    t = await startApp({ clock, env: { DELIVER: 'off' } });
    owner = await createUser(t, 'pro');
    cookie = await loginCookie(t, owner);
    orgId = (await send(`${t.url}/api/v1/orgs`, 'POST', s(), { name: 'Early team' })).body.organisation.id;
    assert.equal((await send(org('/switch'), 'POST', s())).status, 200);
    const made = await send(org('/signal-secret'), 'POST', s());
    assert.equal(made.status, 201, JSON.stringify(made.body));
    secret = made.body.secret;
    viewer = await member('viewer');
    editor = await member('editor');
    const u = await createUser(t, 'pro');
    const c = await loginCookie(t, u);
    const otherOrg = (await send(`${t.url}/api/v1/orgs`, 'POST', s(c), { name: 'Other team' })).body.organisation.id;
    assert.equal((await send(`${t.url}/api/v1/orgs/${otherOrg}/switch`, 'POST', s(c))).status, 200);
    const otherSecret = (await send(`${t.url}/api/v1/orgs/${otherOrg}/signal-secret`, 'POST', s(c))).body.secret;
    other = { user: u, cookie: c, orgId: otherOrg, secret: otherSecret };
  });
  after(async () => {
    await t?.close();
  });

  test('the signing secret: shown once, masked after, sealed at rest, admins only', async () => {
    assert.match(secret, /^whsec_/);
    const status = await send(org('/signal-secret'), 'GET', { cookie });
    assert.equal(status.status, 200);
    assert.equal(status.body.configured, true);
    assert.equal(status.body.lastFour, `****${secret.slice(-4)}`);
    assert.ok(!JSON.stringify(status.body).includes(secret.slice(6, 20)));
    const row = await t.store.db.selectFrom('ew_inbound_secrets').selectAll().where('org_id', '=', orgId).executeTakeFirstOrThrow();
    assert.ok(!row.secret.includes(secret.slice(6)), 'sealed at rest');
    assert.equal((await send(org('/signal-secret'), 'GET', { cookie: editor.cookie })).status, 403);
    assert.equal((await send(org('/signal-secret'), 'POST', s(editor.cookie))).status, 403);
    // An API key cannot make it: a web session is needed.
    assert.equal((await send(org('/signal-secret'), 'POST', owner.headers)).status, 403);
  });

  test('signed calls: good, bad signature, old timestamp, replay, another organisation', async () => {
    const body = { vendor: 'github', severity: 'minor', summary: 'API 5xx at 3%' };
    const good = await signed(body, { id: 'msg_fixed' });
    assert.equal(good.status, 202, JSON.stringify(good.body));
    assert.equal(good.body.observation.source, 'inbound');
    assert.equal(good.body.observation.strength, 0.4);
    assert.equal(good.body.signal, null, 'one minor sample opens nothing');
    // The same message again: a replay.
    const again = await fetch(org('/signals'), {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'webhook-id': 'msg_fixed',
        'webhook-timestamp': String(Math.floor(clock.now().getTime() / 1000)),
        'webhook-signature': signatureOf(secret, 'msg_fixed', Math.floor(clock.now().getTime() / 1000), JSON.stringify(body)),
      },
      body: JSON.stringify(body),
    });
    assert.equal(again.status, 409);
    assert.equal(((await again.json()) as any).error, 'conflict');
    // Bad signature, another secret, a bent body, no headers.
    assert.equal((await signed(body, { signature: 'v1,AAAA' })).status, 401);
    assert.equal((await signed(body, { secret: other.secret })).status, 401);
    const ts = Math.floor(clock.now().getTime() / 1000);
    const bent = await fetch(org('/signals'), {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'webhook-id': 'msg_bent',
        'webhook-timestamp': String(ts),
        'webhook-signature': signatureOf(secret, 'msg_bent', ts, JSON.stringify(body)),
      },
      body: JSON.stringify({ ...body, severity: 'critical' }),
    });
    assert.equal(bent.status, 401);
    const bare = await fetch(org('/signals'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    assert.equal(bare.status, 401);
    assert.equal(((await bare.json()) as any).error, 'unauthorized');
    // Older than the tolerance, or from the future.
    assert.equal((await signed(body, { ts: ts - 301 })).status, 401);
    assert.equal((await signed(body, { ts: ts + 301 })).status, 401);
    assert.equal((await signed(body, { ts: ts - 290 })).status, 202);
    // Our secret on the other organisation's path, and an organisation that does not exist: 401 alike.
    assert.equal((await signed(body, { orgId: other.orgId })).status, 401);
    assert.equal((await signed(body, { orgId: 'org_does_not_exist' })).status, 401);
    // Nothing reached the other organisation.
    assert.deepEqual((await list('', other.cookie, other.orgId)).body.signals, []);
    const theirs = await t.store.db.selectFrom('ew_observations').select('id').where('org_id', '=', other.orgId).execute();
    assert.equal(theirs.length, 0);
  });

  test('hostile bodies: control characters, huge, unknown fields, wrong types, unknown vendor', async () => {
    const ok = { vendor: 'github', severity: 'minor', summary: 'x' };
    for (const [body, status] of [
      [{ ...ok, summary: 'line\u0000break' }, 400],
      [{ ...ok, components: ['API\u001b[31m'] }, 400],
      [{ ...ok, summary: 'x'.repeat(501) }, 400],
      [{ ...ok, components: Array.from({ length: 21 }, (_, i) => `c${i}`) }, 400],
      [{ ...ok, orgId: other.orgId }, 400],
      [{ ...ok, strength: 1 }, 400],
      [{ ...ok, severity: 'apocalyptic' }, 400],
      [{ ...ok, vendor: 42 }, 400],
      [{ ...ok, vendor: '../etc' }, 400],
      [{ ...ok, vendor: 'no-such-vendor' }, 404],
      ['{"vendor":', 400],
      ['{"__proto__":{"admin":true},"vendor":"github","severity":"minor","summary":"x"}', 400],
    ] as const) {
      const r = await signed(body);
      assert.equal(r.status, status, `${JSON.stringify(body).slice(0, 80)}: ${r.status} ${JSON.stringify(r.body)}`);
      assert.equal(typeof r.body.error, 'string');
    }
    const huge = await signed({ ...ok, summary: 'x'.repeat(20_000) });
    assert.equal(huge.status, 413);
    const text = await signed(JSON.stringify(ok), { contentType: 'text/plain' });
    assert.equal(text.status, 415);
  });

  test('two independent sources open a signal; it lists with evidence and transitions; members of others see nothing', async () => {
    clock.advance(20 * 60_000);
    const first = await signed({ vendor: 'stripe', severity: 'major', summary: 'payments 502', components: ['API'], externalId: 'alert-1' });
    assert.equal(first.body.signal, null);
    const report = await send(org('/reports'), 'POST', s(viewer.cookie), { vendor: 'stripe', summary: 'checkout failing', regions: ['eu'] });
    assert.equal(report.status, 201, JSON.stringify(report.body));
    assert.equal(report.body.signal.state, 'suspected');
    assert.equal(report.body.signal.vendor, 'stripe');
    // 1 − (0.3 × 0.5)
    assert.equal(report.body.signal.confidence, 0.85);
    const [sig] = await signalsOf('?vendor=stripe');
    assert.equal(sig.id, report.body.signal.id);
    assert.deepEqual(sig.evidence.map((e: any) => e.source).sort(), ['inbound', 'report']);
    assert.equal(sig.evidence.find((e: any) => e.source === 'inbound').externalId, 'alert-1');
    assert.deepEqual(sig.components, ['API']);
    assert.deepEqual(sig.regions, ['eu']);
    assert.equal(sig.transitions.length, 1);
    assert.deepEqual([sig.transitions[0].from, sig.transitions[0].to, sig.transitions[0].actor], [null, 'suspected', 'system']);
    assert.match(sig.transitions[0].reason, /inbound and report agree/);
    // A third observation joins it rather than opening another.
    const more = await signed({ vendor: 'stripe', severity: 'critical', summary: 'still failing' });
    assert.equal(more.body.signal.id, sig.id);
    assert.equal((await signalsOf('?vendor=stripe')).length, 1);
    assert.equal((await signalsOf('?vendor=stripe'))[0].evidence.length, 3);
    // Filters.
    assert.equal((await signalsOf('?state=dismissed')).length, 0);
    assert.equal((await list('?state=bogus')).status, 400);
    // Another organisation's member: 404 on our list, their own list empty; anonymous: 401.
    assert.equal((await list('', other.cookie)).status, 404);
    assert.deepEqual((await list('', other.cookie, other.orgId)).body.signals, []);
    assert.equal((await send(org('/signals'), 'GET', {})).status, 401);
    assert.equal((await send(org(`/signals/${sig.id}/dismiss`, other.orgId), 'POST', s(other.cookie), {})).status, 404);
  });

  test('reports: any member, one per vendor every 5 minutes, hostile bodies refused', async () => {
    clock.advance(60 * 60_000);
    const r1 = await send(org('/reports'), 'POST', s(editor.cookie), { vendor: 'cloudflare' });
    assert.equal(r1.status, 201);
    assert.equal(r1.body.signal, null);
    const r2 = await send(org('/reports'), 'POST', s(editor.cookie), { vendor: 'cloudflare' });
    assert.equal(r2.status, 429);
    assert.equal(r2.body.error, 'rate_limit_exceeded');
    assert.ok(Number(r2.headers.get('retry-after')) > 0);
    // Another vendor is fine; the same vendor after 5 minutes too.
    assert.equal((await send(org('/reports'), 'POST', s(editor.cookie), { vendor: 'github' })).status, 201);
    clock.advance(5 * 60_000);
    assert.equal((await send(org('/reports'), 'POST', s(editor.cookie), { vendor: 'cloudflare' })).status, 201);
    for (const [body, status] of [
      [{ vendor: 'cloudflare', summary: 'a\u0007b' }, 400],
      [{ vendor: 'cloudflare', userId: owner.id }, 400],
      [{ vendor: 'nope-nope' }, 404],
      [{}, 400],
    ] as const) {
      const r = await send(org('/reports'), 'POST', s(viewer.cookie), body);
      assert.equal(r.status, status, `${JSON.stringify(body)}: ${r.status}`);
    }
    // Another organisation's id: 404, nothing written there.
    assert.equal((await send(org('/reports', other.orgId), 'POST', s(viewer.cookie), { vendor: 'github' })).status, 404);
    // Three different members reporting one vendor open a signal.
    const vendor = 'datadog';
    for (const c of [viewer.cookie, editor.cookie]) {
      const r = await send(org('/reports'), 'POST', s(c), { vendor });
      assert.equal(r.status, 201, JSON.stringify(r.body));
      assert.equal(r.body.signal, null);
    }
    const third = await send(org('/reports'), 'POST', s(), { vendor });
    assert.equal(third.body.signal?.state, 'suspected');
  });

  test('dismiss: editors only; a dismissed alarm does not reopen from its own evidence', async () => {
    const [sig] = await signalsOf('?vendor=datadog&state=suspected');
    assert.ok(sig);
    assert.equal((await send(org(`/signals/${sig.id}/dismiss`), 'POST', s(viewer.cookie), {})).status, 403);
    const r = await send(org(`/signals/${sig.id}/dismiss`), 'POST', s(editor.cookie), { reason: 'our own VPN' });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.signal.state, 'dismissed');
    const last = r.body.signal.transitions.at(-1);
    assert.deepEqual([last.from, last.to, last.actor, last.reason], ['suspected', 'dismissed', `user:${editor.user.id}`, 'our own VPN']);
    assert.equal((await send(org(`/signals/${sig.id}/dismiss`), 'POST', s(editor.cookie), {})).status, 409);
    assert.equal((await send(org('/signals/sig_unknown/dismiss'), 'POST', s(editor.cookie), {})).status, 404);
    // One more report right after: the three before it are spent.
    clock.advance(6 * 60_000);
    const again = await send(org('/reports'), 'POST', s(viewer.cookie), { vendor: 'datadog' });
    assert.equal(again.status, 201);
    assert.equal(again.body.signal, null);
  });

  test('a new incident of the vendor confirms; the sweep clears quiet ones with the clock stepped', async () => {
    clock.advance(60 * 60_000);
    // Two signals: one about GitHub's Actions, one about Fastly.
    await signed({ vendor: 'github', severity: 'major', summary: 'actions queue', components: ['Actions'] });
    const gh = await send(org('/reports'), 'POST', s(viewer.cookie), { vendor: 'github', components: ['Actions'] });
    assert.equal(gh.body.signal?.state, 'suspected', JSON.stringify(gh.body));
    await signed({ vendor: 'fastly', severity: 'major', summary: 'edge errors' });
    const fa = await send(org('/reports'), 'POST', s(viewer.cookie), { vendor: 'fastly' });
    assert.equal(fa.body.signal?.state, 'suspected');
    // An incident about another component does not confirm; one about Actions does.
    const at = clock.now().toISOString();
    await emit(t, 'incident.created', { ...incident('github', { components: ['Pages'] }), startedAt: at }, at);
    assert.equal((await t.app.earlyWarning.runOnce()).confirmed, 0);
    await emit(t, 'incident.created', { ...incident('github', { components: ['actions'], id: 'gh-actions-1' }), startedAt: at }, at);
    assert.equal((await t.app.earlyWarning.runOnce()).confirmed, 1);
    const [confirmed] = await signalsOf('?vendor=github&state=confirmed');
    assert.equal(confirmed.id, gh.body.signal.id);
    assert.equal(confirmed.incidentId, 'gh-actions-1');
    assert.deepEqual([confirmed.transitions.at(-1).to, confirmed.transitions.at(-1).actor], ['confirmed', 'ingest']);
    // Nothing observed for 29 minutes: still suspected; at 30 minutes: cleared. The confirmed one stays.
    clock.advance(29 * 60_000);
    assert.equal((await t.app.earlyWarning.runOnce()).cleared, 0);
    clock.advance(60_000);
    assert.equal((await t.app.earlyWarning.runOnce()).cleared, 1);
    const [cleared] = await signalsOf('?vendor=fastly');
    assert.equal(cleared.state, 'cleared');
    assert.equal(cleared.transitions.at(-1).actor, 'system');
    assert.equal((await signalsOf('?vendor=github'))[0].state, 'confirmed');
    // The vendor's own status is untouched by any of it.
    const status = await send(`${t.api}/status/fastly`, 'GET', { cookie });
    assert.ok(!JSON.stringify(status.body).includes('suspected'));
  });

  test("MCP: report_vendor_problem and list_signals act for the caller's organisation only", async () => {
    clock.advance(60 * 60_000);
    // An organisation key of the team, with the viewer role.
    const key = await send(org('/keys'), 'POST', s(), { name: 'assistant', role: 'viewer' });
    assert.equal(key.status, 201, JSON.stringify(key.body));
    const c = await connect(`${t.url}/mcp`, { token: key.body.secret });
    const o = await connect(`${t.url}/mcp`, { token: other.user.key });
    try {
      const r = await c.client.callTool({ name: 'report_vendor_problem', arguments: { vendor: 'GitLab', summary: 'pushes hang', components: ['Git'] } });
      assert.equal(r.isError, undefined, textOf(r));
      assert.equal((r.structuredContent as any).vendor, 'gitlab');
      assert.equal((r.structuredContent as any).signal, null);
      assert.match(textOf(r), /Reported GitLab/);
      // The same again within 5 minutes: a tool error, not a crash.
      const again = await c.client.callTool({ name: 'report_vendor_problem', arguments: { vendor: 'gitlab' } });
      assert.equal(again.isError, true);
      const bad = await c.client.callTool({ name: 'report_vendor_problem', arguments: { vendor: 'gitlab', summary: 'a\u0000b' } });
      assert.equal(bad.isError, true);
      // With an inbound call about GitLab, the report's signal opens; the assistant lists it as suspected.
      assert.ok((await signed({ vendor: 'gitlab', severity: 'major', summary: 'git push 500' })).body.signal);
      const listed = await c.client.callTool({ name: 'list_signals', arguments: { vendor: 'gitlab', state: 'suspected' } });
      assert.equal(listed.isError, undefined, textOf(listed));
      assert.equal((listed.structuredContent as any).count, 1);
      assert.match(textOf(listed), /gitlab: suspected \(not confirmed by the vendor\)/);
      // The other organisation's member sees none of it.
      const theirs = await o.client.callTool({ name: 'list_signals', arguments: {} });
      assert.equal(theirs.isError, undefined, textOf(theirs));
      assert.equal((theirs.structuredContent as any).count, 0);
      assert.ok(!textOf(theirs).includes('gitlab'));
    } finally {
      await c.close();
      await o.close();
    }
    // Anonymous callers: sign-in required.
    const anon = await connect(`${t.url}/mcp`);
    try {
      const r = await anon.client.callTool({ name: 'list_signals', arguments: {} }).catch((err: Error) => ({ isError: true, text: String(err) }));
      assert.equal((r as any).isError, true);
    } finally {
      await anon.close();
    }
  });

  test("stream: an early_warning event reaches the owning organisation's member, not another organisation's nor anonymous readers", async () => {
    clock.advance(60 * 60_000);
    const mine = openStream(`${t.api}/incidents/stream`, { cookie: viewer.cookie });
    const theirs = openStream(`${t.api}/incidents/stream`, { cookie: other.cookie });
    const anonymous = openStream(`${t.api}/incidents/stream`);

    try {
      // The team is on the free plan: one open stream at a time for its members.
      for (const c of [mine, theirs, anonymous]) await c.waitFor(1);
      await signed({ vendor: 'openai', severity: 'major', summary: 'completions 503' });
      // The other organisation has a signal of its own meanwhile: it reaches them, never us.
      await signed({ vendor: 'openai', severity: 'major', summary: 'theirs' }, { orgId: other.orgId, secret: other.secret });
      await send(org('/reports', other.orgId), 'POST', s(other.cookie), { vendor: 'openai' });
      const opened = await send(org('/reports'), 'POST', s(editor.cookie), { vendor: 'openai' });
      assert.equal(opened.body.signal?.state, 'suspected');
      const ev = await mine.waitForType('early_warning');
      assert.equal(ev.id, mine.received[0]!.id, 'no id: line: the resume point stays where the snapshot put it');
      assert.equal(ev.data.type, 'early_warning');
      assert.equal(ev.data.change, 'opened');
      assert.equal(ev.data.signal.id, opened.body.signal.id);
      assert.equal(ev.data.signal.state, 'suspected');
      const theirEv = await theirs.waitForType('early_warning');
      assert.notEqual(theirEv.data.signal.id, opened.body.signal.id);
      // Dismissal is told too.
      const from = mine.received.length;
      assert.equal((await send(org(`/signals/${opened.body.signal.id}/dismiss`), 'POST', s(editor.cookie), {})).status, 200);
      const dismissed = await mine.waitForType('early_warning', from);
      assert.equal(dismissed.data.change, 'dismissed');
      await new Promise((r) => setTimeout(r, 200));
      assert.deepEqual(
        theirs.received.filter((e) => e.type === 'early_warning').map((e) => e.data.signal.id),
        [theirEv.data.signal.id],
      );
      assert.equal(anonymous.received.filter((e) => e.type === 'early_warning').length, 0);
    } finally {
      for (const c of [mine, theirs, anonymous]) c.close();
    }
    // A stream filtered by vendor gets the signals of those vendors only.
    await new Promise((r) => setTimeout(r, 100));
    const filtered = openStream(`${t.api}/incidents/stream?vendor=github`, { cookie });
    try {
      await filtered.waitFor(1);
      await signed({ vendor: 'anthropic', severity: 'major', summary: 'x' });
      assert.ok((await send(org('/reports'), 'POST', s(editor.cookie), { vendor: 'anthropic' })).body.signal);
      clock.advance(31 * 60_000);
      await t.app.earlyWarning.runOnce();
      await signed({ vendor: 'github', severity: 'major', summary: 'y' });
      assert.ok((await send(org('/reports'), 'POST', s(editor.cookie), { vendor: 'github' })).body.signal);
      const ev = await filtered.waitForType('early_warning');
      assert.equal(ev.data.signal.vendor, 'github');
      assert.deepEqual(
        filtered.received.filter((e) => e.type === 'early_warning').map((e) => e.data.signal.vendor),
        ['github'],
      );
    } finally {
      filtered.close();
    }
  });

  test('vendor page: a "Suspected" marker for the organisation\'s signed-in members only, apart from the vendor\'s status', async () => {
    const [open] = await signalsOf('?vendor=github&state=suspected');
    assert.ok(open, 'a suspected signal about GitHub from the stream test');
    const page = async (headers: Record<string, string>) => {
      const r = await fetch(`${t.url}/vendors/github`, { headers });
      assert.equal(r.status, 200);
      return r.text();
    };
    const mine = await page({ cookie: viewer.cookie });
    assert.match(mine, /data-early-warning="suspected"/);
    assert.match(mine, /<strong>Suspected<\/strong>: your team&#39;s own signals|<strong>Suspected<\/strong>: your team's own signals/);
    // The vendor's own banner is untouched: the same as a visitor's.
    const banner = (html: string) => /<section class="status-banner[^"]*"/.exec(html)?.[0];
    const visitor = await page({});
    assert.equal(banner(mine), banner(visitor));
    assert.doesNotMatch(visitor, /data-early-warning/);
    assert.doesNotMatch(await page({ cookie: other.cookie }), /data-early-warning/);
    // Dismissed: the marker goes.
    assert.equal((await send(org(`/signals/${open.id}/dismiss`), 'POST', s(editor.cookie), {})).status, 200);
    assert.doesNotMatch(await page({ cookie: viewer.cookie }), /data-early-warning/);
  });

  test('an incident committed and announced on the bus (as ingestion does) confirms without a tick of the timer', async () => {
    clock.advance(60 * 60_000);
    await signed({ vendor: 'twilio', severity: 'major', summary: 'SMS delayed', components: ['SMS'] });
    const opened = await send(org('/reports'), 'POST', s(viewer.cookie), { vendor: 'twilio' });
    assert.equal(opened.body.signal?.state, 'suspected');
    await commitEvents(t, [
      { vendor: 'twilio', id: 'sms-delays', type: 'incident.created', over: { startedAt: clock.now().toISOString(), components: ['SMS'] } },
    ]);
    await waitFor(async () => (await signalsOf('?vendor=twilio'))[0]?.state === 'confirmed', { message: 'the signal confirmed by the announced incident' });
    const [sig] = await signalsOf('?vendor=twilio');
    assert.equal(sig.id, opened.body.signal.id);
    assert.match(sig.incidentId, /sms-delays/);
  });

  test('the sweep forgets observations that became evidence of nothing after 24 hours, and keeps evidence', async () => {
    const loose = async () =>
      (await t.store.db.selectFrom('ew_observations').select('id').where('org_id', '=', orgId).where('signal_id', 'is', null).execute()).length;
    const evidence = async () =>
      (await t.store.db.selectFrom('ew_observations').select('id').where('org_id', '=', orgId).where('signal_id', 'is not', null).execute()).length;
    // A fresh one that opens nothing, beside older loose ones and the evidence of earlier signals.
    assert.equal((await signed({ vendor: 'dropbox', severity: 'minor', summary: 'slow sync' })).body.signal, null);
    const before = { loose: await loose(), evidence: await evidence() };
    assert.ok(before.loose > 1 && before.evidence > 0);
    clock.advance(23 * 3_600_000);
    await t.app.earlyWarning.runOnce();
    assert.equal(await loose(), 1, 'the older loose ones are gone, the one younger than 24 h stays');
    clock.advance(2 * 3_600_000);
    await t.app.earlyWarning.runOnce();
    assert.equal(await loose(), 0);
    assert.equal(await evidence(), before.evidence);
  });
});
