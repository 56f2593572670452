import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { getJson, startApp, TestClock, type TestApp } from '../../helpers/app.ts';
import { emit, incident } from '../../helpers/alerts.ts';
import { slackWorkspace } from '../../helpers/chat-fakes.ts';
import { type HttpReceiver, pagerDutyReply, type ReceivedMail, startReceiver, startSmtp } from '../../helpers/receivers.ts';
import { createUser, send, type TestUser } from '../../helpers/users.ts';

// E-mail threading and digests, quiet hours, per-channel rules with per-vendor
// components, and maintenance reminders (docs/alerts.md), on one app with an
// injected clock; digests and reminders also with a second instance on the same
// store, as after a restart or with several instances.

const ROUTING_KEY = 'R0UT1NGKEYR0UT1NGKEYR0UT1NGKEY12';
const BOT = 'xoxb-quiet-hours-bot-token';
/** A header of a received message, folded lines joined. */
const header = (m: ReceivedMail, name: string) =>
  new RegExp(`^${name}: *(.+)$`, 'mi').exec(m.raw.split(/\r?\n\r?\n/)[0]!.replace(/\r?\n[ \t]+/g, ' '))?.[1]?.trim() ?? null;
const mailsTo = (mails: ReceivedMail[], to: string) => mails.filter((m) => m.to.includes(to));

describe('digests, threading, quiet hours, what counts, reminders', () => {
  // 10:20 UTC; in Kathmandu (UTC+5:45) 16:05, so the local hour runs 10:15–11:15 UTC.
  const clock = new TestClock(new Date('2026-06-01T10:20:00Z'));
  let t: TestApp;
  let t2: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let hook: HttpReceiver;
  let pd: HttpReceiver;
  let slackApi: HttpReceiver;
  const workspace = slackWorkspace({
    clientId: 'x',
    clientSecret: 'y',
    code: 'z',
    redirectUri: () => '',
    botToken: BOT,
    team: { id: 'T1', name: 'Team' },
    installer: 'U1INST',
    channels: ['C0QUIET1'],
  });
  // Two instances at once on PostgreSQL; SQLite runs one instance (docs/deployment.md), so
  // there the second one runs after the first, as after a restart.
  let envOf: Record<string, string> = {};
  const runBoth = async () => {
    if (process.env.DATABASE_URL) await Promise.all([t.app.alerts.runOnce(), t2.app.alerts.runOnce()]);
    else {
      await t.app.alerts.runOnce();
      await t2.app.alerts.runOnce();
    }
  };

  const user = async (vendors: string[], prefs: Record<string, unknown>): Promise<TestUser> => {
    const u = await createUser(t, 'pro');
    assert.equal((await send(`${t.api}/watchlist`, 'PUT', u.headers, { vendors })).status, 200);
    const r = await send(`${t.api}/notification-preferences`, 'PUT', u.headers, prefs);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return u;
  };

  before(async () => {
    smtp = await startSmtp();
    hook = await startReceiver();
    pd = await startReceiver(pagerDutyReply);
    slackApi = await startReceiver(workspace.reply);
    const env = {
      DELIVER: 'off',
      OUTBOUND_ALLOW_PRIVATE: '127.0.0.1',
      SMTP_URL: smtp.url,
      PAGERDUTY_EVENTS_URL: `${pd.url}/v2/enqueue`,
      SLACK_BOT_TOKEN: BOT,
      SLACK_API_URL: `${slackApi.url}/api/`,
      DELIVERY_TIMEOUT_MS: '3000',
    };
    t = await startApp({ clock, env });
    t2 = await startApp({ clock, env, shareStoreWith: t });
    envOf = env;
  });
  after(async () => {
    await t2?.close();
    await t?.close();
    await Promise.all([smtp?.close(), hook?.close(), pd?.close(), slackApi?.close()]);
  });

  test('e-mails about one incident thread: each its own Message-ID, replies point at the first', async () => {
    const u = await user(['github'], { email: { enabled: true }, in_app: { enabled: false } });
    const inc = incident('github', { title: 'Threaded mail' });
    await emit(t, 'incident.created', inc);
    await t.app.alerts.runOnce();
    await emit(t, 'incident.updated', { ...inc, status: 'identified' });
    await t.app.alerts.runOnce();
    await emit(t, 'incident.resolved', { ...inc, status: 'resolved' });
    await t.app.alerts.runOnce();
    const mails = mailsTo(smtp.mails, u.email);
    assert.equal(mails.length, 3);
    const ids = mails.map((m) => header(m, 'Message-ID'));
    assert.equal(new Set(ids).size, 3, 'a stable id per alert, none shared');
    assert.equal(header(mails[0]!, 'In-Reply-To'), null, 'the first message starts the thread');
    for (const m of mails.slice(1)) {
      assert.equal(header(m, 'In-Reply-To'), ids[0]);
      assert.equal(header(m, 'References'), ids[0]);
    }
  });

  test('hourly digest: one message at the end of the local hour, once across two instances and a restart; nothing for an hour without changes', async () => {
    const u = await user(['gitlab'], { email: { enabled: true, digest: 'hourly' }, timezone: 'Asia/Kathmandu', in_app: { enabled: false } });
    const a = incident('gitlab', { title: 'Runners slow' });
    const b = incident('gitlab', { title: 'Pages down' });
    await emit(t, 'incident.created', a);
    await runBoth();
    clock.advance(10 * 60_000);
    await emit(t, 'incident.updated', { ...a, status: 'identified' });
    await emit(t, 'incident.created', b);
    await runBoth();
    clock.advance(20 * 60_000); // 10:50 UTC, still in the period
    await emit(t, 'incident.resolved', { ...a, status: 'resolved' });
    await runBoth();
    assert.equal(mailsTo(smtp.mails, u.email).length, 0, 'nothing before the period ends');

    clock.current = new Date('2026-06-01T11:15:00Z');
    await runBoth();
    await runBoth();
    const mails = mailsTo(smtp.mails, u.email);
    assert.equal(mails.length, 1, 'exactly one digest');
    assert.match(header(mails[0]!, 'Subject')!, /Hourly digest: 4 changes to 2 records/);
    assert.match(mails[0]!.raw, /Runners slow/);
    assert.match(mails[0]!.raw, /Pages down/);

    clock.advance(3_600_000);
    await runBoth();
    assert.equal(mailsTo(smtp.mails, u.email).length, 1, 'an hour without changes sends nothing');

    await emit(t, 'incident.updated', { ...b, status: 'monitoring' });
    await t2.app.alerts.runOnce();
    // A restart of the instance that gathered it: the digest is in the store, not in memory.
    await t2.close();
    t2 = await startApp({ clock, env: envOf, shareStoreWith: t });
    clock.advance(3_600_000);
    await runBoth();
    assert.equal(mailsTo(smtp.mails, u.email).length, 2, 'the next period with a change: its own digest, after the restart');
    const rows = await getJson(`${t.api}/notification-deliveries?channel=email`, { headers: u.headers });
    assert.deepEqual(
      rows.body.items.map((i: { status: string }) => i.status),
      ['succeeded', 'succeeded'],
    );
  });

  test('quiet hours hold chat and e-mail (one summary when they end), never PagerDuty', async () => {
    clock.current = new Date('2026-06-03T21:30:00Z'); // 23:30 in Berlin
    const u = await user(['atlassian'], {
      timezone: 'Europe/Berlin',
      quiet_hours: { enabled: true, start: '22:00', end: '07:00' },
      slack: { enabled: true, channel: 'C0QUIET1' },
      pagerduty: { enabled: true, routing_key: ROUTING_KEY },
      in_app: { enabled: false },
    });
    await t.repos.preferences.update(u.id, clock.now(), (s) => ({
      ...s,
      slackConnection: { connected: true, team: 'Team', connected_at: clock.now().toISOString(), user_id: 'U1INST' },
    }));
    const before = workspace.state.messages.length;
    const pdBefore = pd.requests.length;
    for (const title of ['Wiki slow', 'Boards down', 'Login errors']) await emit(t, 'incident.created', incident('atlassian', { title }));
    await t.app.alerts.runOnce();
    clock.advance(2 * 3_600_000);
    await t.app.alerts.runOnce();
    assert.equal(pd.requests.length - pdBefore, 3, 'paging is never held');
    assert.equal(workspace.state.messages.length, before, 'Slack holds during quiet hours');

    clock.current = new Date('2026-06-04T05:00:00Z'); // 07:00 in Berlin
    await t.app.alerts.runOnce();
    const sent = workspace.state.messages.slice(before);
    assert.equal(sent.length, 1, 'one summary');
    assert.match(sent[0]!.text, /3 alerts were held during quiet hours/);
    assert.match(JSON.stringify(sent[0]!.blocks), /Wiki slow[\s\S]*Boards down[\s\S]*Login errors/);
  });

  test('per-channel rules and per-vendor components; the old list form still works', async () => {
    clock.current = new Date('2026-06-05T12:00:00Z');
    const u = await user(['github', 'datadog'], {
      webhook: { enabled: true, url: `${hook.url}/rules`, alert_on: { changes: ['created', 'resolved'], min_impact: 'major' } },
      content_filters: { components: { github: ['Actions', 'Git Operations'] } },
    });
    const got = (await getJson(`${t.api}/notification-preferences`, { headers: u.headers })).body.preferences;
    assert.deepEqual(got.content_filters.components, { github: ['Actions', 'Git Operations'] });
    assert.deepEqual(got.webhook.alert_on, { changes: ['created', 'resolved'], min_impact: 'major', components: [] });
    const hits = () => hook.requests.filter((r) => r.path === '/rules').map((r) => JSON.parse(r.body).data.title);
    const inApp = async () => (await getJson(`${t.api}/notifications?limit=50`, { headers: u.headers })).body.items.map((i: { title: string }) => i.title);

    const minor = incident('github', { title: 'Minor Actions', impact: 'minor', components: ['Actions'] });
    await emit(t, 'incident.created', minor);
    await emit(t, 'incident.updated', { ...minor, title: 'Minor Actions', impact: 'major' });
    await emit(t, 'incident.created', incident('github', { title: 'Pages outage', impact: 'critical', components: ['Pages'] }));
    await emit(t, 'incident.created', incident('datadog', { title: 'Datadog logs', impact: 'minor', components: ['Logs'] }));
    await t.app.alerts.runOnce();
    // Webhook: own rules (created/resolved, major+), no component filter.
    assert.deepEqual(hits(), ['Pages outage']);
    // In-app: the global filter, github only for its two components, datadog unfiltered.
    assert.deepEqual((await inApp()).sort(), ['Datadog logs', 'Minor Actions', 'Minor Actions']);
    const titles = (await inApp()).join('|');
    assert.match(titles, /Minor Actions/);
    assert.match(titles, /Datadog logs/);
    assert.doesNotMatch(titles, /Pages outage/);

    // The old array form is accepted and applies to every vendor.
    assert.equal((await send(`${t.api}/notification-preferences`, 'PUT', u.headers, { content_filters: { components: ['Logs'] } })).status, 200);
    await emit(t, 'incident.created', incident('datadog', { title: 'Datadog APM', impact: 'minor', components: ['APM'] }));
    await emit(t, 'incident.created', incident('datadog', { title: 'Datadog logs 2', impact: 'minor', components: ['logs'] }));
    await t.app.alerts.runOnce();
    const after = (await inApp()).join('|');
    assert.match(after, /Datadog logs 2/);
    assert.doesNotMatch(after, /Datadog APM/);

    const bad = await send(`${t.api}/notification-preferences`, 'PUT', u.headers, { content_filters: { components: { 'no-such-vendor-x': ['A'] } } });
    assert.equal(bad.status, 400, JSON.stringify(bad.body));
    const badTz = await send(`${t.api}/notification-preferences`, 'PUT', u.headers, { timezone: 'Mars/Olympus' });
    assert.equal(badTz.status, 400);
    assert.match(badTz.body.message, /timezone/);
  });

  test('maintenance reminders: each lead time once, across instances; started and completed follow the settings', async () => {
    clock.current = new Date('2026-06-10T00:00:00Z');
    const start = new Date('2026-06-11T06:00:00Z');
    const u = await user(['stripe'], {
      webhook: { enabled: true, url: `${hook.url}/reminders` },
      maintenance_reminders: { lead_times: ['24h', '1h'], started: false },
    });
    await t.repos.maintenances.upsert(
      {
        id: 'stripe-mw-1',
        vendor: 'stripe',
        title: 'Database upgrade',
        status: 'scheduled',
        sourceStatus: 'scheduled',
        impact: 'none',
        scheduledFor: start.toISOString(),
        scheduledUntil: new Date(start.getTime() + 2 * 3_600_000).toISOString(),
        startedAt: null,
        completedAt: null,
        components: ['API'],
        updates: [],
        url: null,
        source: 'test',
      },
      'fp-1',
    );
    const got = () => hook.requests.filter((r) => r.path === '/reminders').map((r) => JSON.parse(r.body));
    clock.current = new Date(start.getTime() - 25 * 3_600_000);
    await runBoth();
    assert.equal(got().length, 0);
    clock.current = new Date(start.getTime() - 24 * 3_600_000 + 60_000);
    await runBoth();
    clock.advance(60_000);
    await runBoth();
    assert.equal(got().length, 1, 'the 24 h reminder, once');
    assert.equal(got()[0].type, 'maintenance.reminder');
    assert.equal(got()[0].data.reminder.leadTime, '24h');
    assert.equal(got()[0].data.vendorName, 'Stripe', 'the record as the API serves it');
    clock.current = new Date(start.getTime() - 3_600_000);
    await runBoth();
    clock.advance(5 * 60_000);
    await runBoth();
    assert.equal(got().length, 2, 'the 1 h reminder, once');
    assert.match(got()[1].data.updates[0].body, /Starts in 1h/);
    // In the app too, once per lead time.
    const inApp = (await getJson(`${t.api}/notifications?limit=10`, { headers: u.headers })).body.items;
    assert.deepEqual(
      inApp.map((i: { type: string }) => i.type),
      ['maintenance.reminder', 'maintenance.reminder'],
    );

    const w = { ...incident('stripe', { title: 'Database upgrade', id: 'stripe-mw-1' }) };
    await emit(t, 'maintenance.started' as never, w);
    await emit(t, 'maintenance.completed' as never, { ...w, status: 'completed' });
    clock.advance(60_000);
    await t.app.alerts.runOnce();
    assert.deepEqual(
      got()
        .slice(2)
        .map((b) => b.type),
      ['maintenance.completed'],
      'started is switched off, completed on',
    );
  });
});
