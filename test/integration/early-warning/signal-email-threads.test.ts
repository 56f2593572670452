import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { emit, incident } from '../../helpers/alerts.ts';
import { startApp, TestClock, type TestApp } from '../../helpers/app.ts';
import { type ReceivedMail, startSmtp } from '../../helpers/receivers.ts';
import { createUser, loginCookie, send } from '../../helpers/users.ts';

// docs/alerts.md "Early warning", threads: an early-warning alert by e-mail opens a thread
// (its Message-ID), and the signal's later updates and the alerts of the vendor incident that
// confirms it reply to it (In-Reply-To and References), as Slack and Google Chat threads do;
// through the real dispatcher, worker and a local SMTP server.

const clock = new TestClock(new Date('2026-11-29T12:00:00Z'));
let t: TestApp;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let cookie: string;
let orgId: string;
let email: string;

const header = (m: ReceivedMail, name: string) => {
  const unfolded = m.raw.split('\r\n\r\n')[0]!.replace(/\r\n[ \t]+/g, ' ');
  return new RegExp(`^${name}: *(.*)$`, 'im').exec(unfolded)?.[1]?.trim() ?? null;
};

before(async () => {
  smtp = await startSmtp();
  t = await startApp({ clock, env: { DELIVER: 'off', SMTP_URL: smtp.url, SMTP_FROM: 'alerts@vendor-status.test' } });
  const owner = await createUser(t, 'pro');
  email = owner.email;
  cookie = await loginCookie(t, owner);
  const s = { cookie, origin: t.url };
  orgId = (await send(`${t.url}/api/v1/orgs`, 'POST', s, { name: 'Mail team' })).body.organisation.id;
  assert.equal((await send(`${t.url}/api/v1/orgs/${orgId}/switch`, 'POST', s)).status, 200);
  assert.equal((await send(`${t.api}/watchlist`, 'PUT', s, { vendors: ['github'] })).status, 200);
  const route = await send(`${t.url}/api/v1/orgs/${orgId}/alert-routes`, 'POST', s, {
    name: 'mail early',
    destination: { channel: 'email', to: [email] },
    filters: { kinds: ['created', 'status_changed', 'resolved', 'early_warning'] },
  });
  assert.equal(route.status, 201, JSON.stringify(route.body));
});
after(async () => {
  await t?.close();
  await smtp?.close();
});

test('an early-warning e-mail opens a thread that the confirmation and the vendor incident reply to', async () => {
  clock.advance(60_000);
  const ew = t.app.services.earlyWarning.signals;
  await ew.observe(orgId, { source: 'inbound', vendor: 'github', strength: 0.7, summary: 'github 5xx ratio 23%', actor: 'msg_1' });
  const opened = await ew.observe(orgId, { source: 'report', vendor: 'github', strength: 0.5, summary: 'pushes failing for us', actor: 'user:u1' });
  assert.equal(opened.signal?.state, 'suspected', JSON.stringify(opened));
  await t.app.alerts.runOnce();
  assert.equal(smtp.mails.length, 1, 'one e-mail for the suspicion');
  const root = smtp.mails[0]!;
  assert.equal(header(root, 'X-Alert-Event'), 'early_warning.suspected');
  const rootId = header(root, 'Message-ID');
  assert.match(String(rootId), /^<dlv_[^@]+@alerts\.vendor-status>$/);
  assert.equal(header(root, 'In-Reply-To'), null, 'the first message starts the thread');

  // The vendor posts the matching incident: it confirms the signal, and its alerts join the thread.
  clock.advance(5 * 60_000);
  const at = clock.now().toISOString();
  const inc = { ...incident('github', { id: 'github-mail-confirming', title: 'Git operations failing' }), startedAt: at };
  await emit(t, 'incident.created', inc, at);
  await t.app.alerts.runOnce();
  clock.advance(60_000);
  const end = clock.now().toISOString();
  await emit(t, 'incident.resolved', { ...inc, status: 'resolved', resolvedAt: end } as unknown as typeof inc, end);
  await t.app.alerts.runOnce();

  const later = smtp.mails.slice(1);
  const events = later.map((m) => header(m, 'X-Alert-Event')).sort();
  assert.deepEqual(events, ['early_warning.confirmed', 'incident.created', 'incident.resolved'], JSON.stringify(events));
  for (const m of later) {
    assert.equal(header(m, 'In-Reply-To'), rootId, `${header(m, 'X-Alert-Event')} replies to the suspicion`);
    assert.equal(header(m, 'References'), rootId);
    assert.notEqual(header(m, 'Message-ID'), rootId);
    assert.deepEqual(m.to, [email]);
  }
});
