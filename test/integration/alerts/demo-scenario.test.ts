import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startApp, TestClock, type TestApp } from '../../helpers/app.ts';
import { emit, incident } from '../../helpers/alerts.ts';
import { slackWorkspace } from '../../helpers/chat-fakes.ts';
import { type HttpReceiver, startReceiver, startSmtp } from '../../helpers/receivers.ts';
import { createUser, send } from '../../helpers/users.ts';

// The on-call demo (docs/alerts.md "Less noise"): a user watching 10 vendors
// through 15 simulated minutes of incident updates gets one Slack thread per
// incident (the first message, replies under it, the first message edited to
// the current state) and one digest e-mail per hour, not a message per update.
// The clock is injected; each simulated minute is one dispatch and delivery.

const BOT = 'xoxb-demo-scenario-token';
const VENDORS = ['github', 'gitlab', 'atlassian', 'bitbucket', 'datadog', 'twilio', 'stripe', 'heroku', 'zoom', 'vercel'];

type Step = { minute: number; key: 'A' | 'B' | 'C'; type: 'incident.created' | 'incident.updated' | 'incident.resolved'; status: string };
const SCRIPT: Step[] = [
  { minute: 0, key: 'A', type: 'incident.created', status: 'investigating' },
  { minute: 2, key: 'A', type: 'incident.updated', status: 'identified' },
  { minute: 3, key: 'B', type: 'incident.created', status: 'investigating' },
  { minute: 4, key: 'A', type: 'incident.updated', status: 'identified' },
  { minute: 5, key: 'B', type: 'incident.updated', status: 'identified' },
  { minute: 7, key: 'B', type: 'incident.updated', status: 'monitoring' },
  { minute: 8, key: 'C', type: 'incident.created', status: 'investigating' },
  { minute: 9, key: 'A', type: 'incident.resolved', status: 'resolved' },
  { minute: 10, key: 'C', type: 'incident.updated', status: 'identified' },
  { minute: 11, key: 'B', type: 'incident.updated', status: 'monitoring' },
  { minute: 12, key: 'C', type: 'incident.updated', status: 'monitoring' },
  { minute: 14, key: 'B', type: 'incident.resolved', status: 'resolved' },
];

describe('demo: 10 vendors, 15 minutes of updates', () => {
  // 10:50 UTC: the 15 minutes span two hourly digest periods (10:00–11:00, 11:00–12:00).
  const clock = new TestClock(new Date('2026-06-01T10:50:00Z'));
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let slackApi: HttpReceiver;
  const workspace = slackWorkspace({
    clientId: 'x',
    clientSecret: 'y',
    code: 'z',
    redirectUri: () => '',
    botToken: BOT,
    team: { id: 'T1', name: 'On-call' },
    installer: 'U1ONCALL',
    channels: ['C0ONCALL'],
  });

  before(async () => {
    smtp = await startSmtp();
    slackApi = await startReceiver(workspace.reply);
    t = await startApp({
      clock,
      env: { DELIVER: 'off', SMTP_URL: smtp.url, SLACK_BOT_TOKEN: BOT, SLACK_API_URL: `${slackApi.url}/api/`, DELIVERY_TIMEOUT_MS: '3000' },
    });
  });
  after(async () => {
    await t?.close();
    await Promise.all([smtp?.close(), slackApi?.close()]);
  });

  test('one Slack thread per incident and one digest e-mail per period', async () => {
    const u = await createUser(t, 'pro');
    assert.equal((await send(`${t.api}/watchlist`, 'PUT', u.headers, { vendors: VENDORS })).status, 200);
    const put = await send(`${t.api}/notification-preferences`, 'PUT', u.headers, {
      slack: { enabled: true, channel: 'C0ONCALL' },
      email: { enabled: true, digest: 'hourly' },
      timezone: 'UTC',
      in_app: { enabled: false },
    });
    assert.equal(put.status, 200, JSON.stringify(put.body));
    await t.repos.preferences.update(u.id, clock.now(), (s) => ({
      ...s,
      slackConnection: { connected: true, team: 'On-call', connected_at: clock.now().toISOString(), user_id: 'U1ONCALL' },
    }));

    const records = {
      A: incident('github', { title: 'Actions jobs delayed', impact: 'major' }),
      B: incident('stripe', { title: 'API errors elevated', impact: 'critical' }),
      C: incident('zoom', { title: 'Meetings fail to start', impact: 'minor' }),
    };
    const start = clock.now().getTime();
    const mailsAt: number[] = [];
    for (let minute = 0; minute < 15; minute++) {
      clock.current = new Date(start + minute * 60_000);
      for (const s of SCRIPT.filter((x) => x.minute === minute)) {
        const r = records[s.key];
        const at = clock.now().toISOString();
        records[s.key] = { ...r, status: s.status, updates: [...r.updates, { status: s.status, body: `${s.status} at minute ${minute}`, createdAt: at }] };
        await emit(t, s.type, records[s.key], at);
      }
      await t.app.alerts.runOnce();
      mailsAt.push(smtp.mails.length);
    }

    // Slack: 12 changes, 3 threads.
    const msgs = workspace.state.messages.filter((m) => m.channel === 'C0ONCALL');
    assert.equal(msgs.length, SCRIPT.length);
    const parents = msgs.filter((m) => m.thread_ts === null);
    assert.equal(parents.length, 3, 'one thread per incident');
    for (const [key, r] of Object.entries(records)) {
      const parent = parents.find((p) => p.text.includes(r.title))!;
      assert.ok(parent, key);
      const replies = msgs.filter((m) => m.thread_ts === parent.ts);
      assert.equal(replies.length, SCRIPT.filter((s) => s.key === key).length - 1, `${key}: every later change is a reply`);
      const edits = workspace.state.updates.filter((e) => e.ts === parent.ts);
      assert.equal(edits.length, replies.length, `${key}: the first message is edited on every change`);
      assert.match(edits.at(-1)!.text, new RegExp(`\\(${r.status}\\)`), `${key}: shows the current status`);
    }

    // E-mail: the first period (10:00–11:00) ended at minute 10; nothing before, one then.
    assert.deepEqual(mailsAt.slice(0, 10), Array(10).fill(0));
    assert.equal(mailsAt[10], 1);
    assert.equal(mailsAt[14], 1);
    clock.current = new Date('2026-06-01T12:00:00Z');
    await t.app.alerts.runOnce();
    assert.equal(smtp.mails.length, 2, 'one digest per period, not one mail per update');
    const subjects = smtp.mails.map((m) => /^Subject: (.+)$/m.exec(m.raw.replace(/\r?\n[ \t]+/g, ' '))![1]!);
    assert.match(subjects[0]!, /Hourly digest: 8 changes to 3 records/);
    assert.match(subjects[1]!, /Hourly digest: 4 changes to 2 records/);
    for (const title of ['Actions jobs delayed', 'API errors elevated', 'Meetings fail to start']) assert.match(smtp.mails[0]!.raw, new RegExp(title));
  });
});
