import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { getJson, TestClock, type TestApp } from '../../helpers/app.ts';
import { startFleet, startIngestApp, type TestFleet } from '../../helpers/fleet.ts';
import { type HttpReceiver, pagerDutyReply, slackReply, startReceiver, startSmtp } from '../../helpers/receivers.ts';
import { createUser, send, type TestUser } from '../../helpers/users.ts';

// Every channel end to end: the simulated fleet changes, ingestion writes the
// event, the dispatcher and the worker deliver it to local receivers that speak
// each channel's wire format (signatures verified with the standardwebhooks package).

const ROUTING_KEY = 'R0UT1NGKEYR0UT1NGKEYR0UT1NGKEY12';
const SLACK_TOKEN = 'xoxb-test-token';

describe('alert channels end to end', () => {
  const clock = new TestClock(new Date());
  let fleet: TestFleet;
  let t: TestApp;
  let hook: HttpReceiver;
  let pd: HttpReceiver;
  let slack: HttpReceiver;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let u: TestUser;
  let secret: string;
  let feedPath: string;
  const members: Record<string, string> = {};

  const round = async () => {
    clock.advance(61_000);
    const report = await t.app.ingest.scheduler.runRound({ force: true });
    assert.deepEqual(
      report.outcomes.filter((o) => o.status === 'failed'),
      [],
    );
  };
  const deliver = () => t.app.alerts.runOnce();

  before(async () => {
    hook = await startReceiver();
    pd = await startReceiver(pagerDutyReply);
    slack = await startReceiver(slackReply({ token: SLACK_TOKEN, members }));
    smtp = await startSmtp();
    fleet = await startFleet(['github', 'openai'], { clock });
    t = await startIngestApp(fleet, {
      clock,
      env: {
        DELIVER: 'off',
        OUTBOUND_ALLOW_PRIVATE: '127.0.0.1',
        PAGERDUTY_EVENTS_URL: `${pd.url}/v2/enqueue`,
        SLACK_BOT_TOKEN: SLACK_TOKEN,
        SLACK_API_URL: `${slack.url}/api/`,
        SMTP_URL: smtp.url,
        DELIVERY_TIMEOUT_MS: '2000',
      },
    });
    await round();
    u = await createUser(t, 'pro');
    members[u.email] = 'U0123ABCD';
    assert.equal((await send(`${t.api}/watchlist/github`, 'POST', u.headers)).status, 200);
    const put = await send(`${t.api}/notification-preferences`, 'PUT', u.headers, {
      webhook: { enabled: true, url: `${hook.url}/hook` },
      pagerduty: { enabled: true, routing_key: ROUTING_KEY },
      slack: { enabled: true },
      email: { enabled: true },
      rss: { enabled: true },
    });
    assert.equal(put.status, 200, JSON.stringify(put.body));
    secret = put.body.preferences.webhook.secret;
    feedPath = put.body.preferences.rss.feed_url;
    assert.match(secret, /^whsec_/);
    await t.repos.preferences.update(u.id, clock.now(), (s) => ({
      ...s,
      slackConnection: { connected: true, team: 'T1', connected_at: clock.now().toISOString() },
    }));
  });
  after(async () => {
    await t?.close();
    await fleet?.close();
    await Promise.all([hook?.close(), pd?.close(), slack?.close(), smtp?.close()]);
  });

  test('a new incident reaches every channel in its wire format', async () => {
    const inc = fleet.sim.fleet.openIncident('github', { impact: 'major', title: 'Actions are slow' });
    await round();
    const { dispatched, attempted } = await deliver();
    // webhook, pagerduty, slack, email (sent) + in_app, rss (stored)
    assert.equal(dispatched, 6);
    assert.equal(attempted, 4);

    // Webhook: Standard Webhooks, verified by the reference library over the bytes received.
    assert.equal(hook.requests.length, 1);
    const req = hook.requests[0]!;
    const payload = new Webhook(secret).verify(req.body, req.headers as Record<string, string>) as any;
    assert.equal(payload.type, 'incident.created');
    assert.equal(payload.data.id, inc.id);
    assert.equal(payload.data.vendorName, 'GitHub');
    assert.equal(payload.data.impact, 'major');
    assert.ok(Date.parse(payload.timestamp));
    assert.match(String(req.headers['webhook-id']), /^dlv_[a-f0-9]{32}$/);

    // PagerDuty: trigger, dedup_key = incident id, severity from impact.
    assert.equal(pd.requests.length, 1);
    const ev = JSON.parse(pd.requests[0]!.body);
    assert.equal(ev.event_action, 'trigger');
    assert.equal(ev.dedup_key, inc.id);
    assert.equal(ev.routing_key, ROUTING_KEY);
    assert.equal(ev.payload.severity, 'error');
    assert.match(ev.payload.summary, /GitHub: Actions are slow/);

    // Slack: member looked up by e-mail, DM opened, Block Kit message posted.
    const methods = slack.requests.map((r) => r.path);
    assert.deepEqual(methods, ['/api/users.lookupByEmail', '/api/conversations.open', '/api/chat.postMessage']);
    const post = new URLSearchParams(slack.requests[2]!.body);
    assert.equal(post.get('channel'), 'DU0123ABCD');
    const blocks = JSON.parse(post.get('blocks')!);
    assert.equal(blocks[0].type, 'header');
    assert.match(post.get('text')!, /Actions are slow/);

    // E-mail: to the account address, text and HTML parts.
    assert.equal(smtp.mails.length, 1);
    assert.deepEqual(smtp.mails[0]!.to, [u.email]);
    assert.match(smtp.mails[0]!.raw, /Subject: \[New incident\] GitHub: Actions are slow/);
    assert.match(smtp.mails[0]!.raw, /text\/plain/);
    assert.match(smtp.mails[0]!.raw, /text\/html/);

    // In-app: one unread notification, then read.
    const list = await getJson(`${t.api}/notifications`, { headers: u.headers });
    assert.equal(list.status, 200);
    assert.equal(list.body.unread, 1);
    assert.equal(list.body.items[0].entityId, inc.id);
    const read = await send(`${t.api}/notifications/${list.body.items[0].id}/read`, 'POST', u.headers);
    assert.equal(read.status, 200);
    assert.equal(read.body.unread, 0);

    // Personal feeds, RSS 2.0 and Atom 1.0.
    const rss = await fetch(`${t.url}${feedPath}`);
    assert.equal(rss.status, 200);
    assert.match(rss.headers.get('content-type')!, /application\/rss\+xml/);
    const rssText = await rss.text();
    assert.match(rssText, /<rss version="2.0"/);
    assert.match(rssText, /Actions are slow/);
    const atom = await fetch(`${t.url}${feedPath.replace(/\.rss$/, '.atom')}`);
    assert.equal(atom.status, 200);
    assert.match(await atom.text(), /<feed xmlns="http:\/\/www.w3.org\/2005\/Atom"/);

    // The delivery log shows four succeeded deliveries with their attempt.
    const log = await getJson(`${t.api}/notification-deliveries`, { headers: u.headers });
    assert.equal(log.status, 200);
    assert.deepEqual(log.body.items.map((d: any) => d.channel).sort(), ['email', 'pagerduty', 'slack', 'webhook']);
    for (const d of log.body.items) {
      assert.equal(d.status, 'succeeded');
      assert.equal(d.attempts, 1);
      assert.equal(d.recentAttempts[0].outcome, 'succeeded');
    }
  });

  test('resolution resolves the PagerDuty alert with the same dedup_key', async () => {
    const [inc] = fleet.sim.fleet.vendors.get('github')!.incidents.filter((i) => i.status !== 'resolved');
    fleet.sim.fleet.resolveIncident(inc!.id);
    await round();
    await deliver();
    const last = JSON.parse(pd.requests.at(-1)!.body);
    assert.deepEqual(last, { routing_key: ROUTING_KEY, event_action: 'resolve', dedup_key: inc!.id });
    const wh = new Webhook(secret).verify(hook.requests.at(-1)!.body, hook.requests.at(-1)!.headers as Record<string, string>) as any;
    assert.equal(wh.type, 'incident.resolved');
  });

  test('maintenance alerts: scheduled goes to the webhook, not to PagerDuty', async () => {
    const pdBefore = pd.requests.length;
    const hookBefore = hook.requests.length;
    fleet.sim.fleet.scheduleMaintenance('github', { startsInMs: 3_600_000, durationMs: 3_600_000 });
    await round();
    await deliver();
    assert.equal(pd.requests.length, pdBefore);
    assert.equal(hook.requests.length, hookBefore + 1);
    const wh = new Webhook(secret).verify(hook.requests.at(-1)!.body, hook.requests.at(-1)!.headers as Record<string, string>) as any;
    assert.equal(wh.type, 'maintenance.scheduled');
  });

  test('a vendor not watched alerts nobody; a per-channel vendor list alerts that channel only', async () => {
    const before = hook.requests.length;
    fleet.sim.fleet.openIncident('openai', { impact: 'minor' });
    await round();
    assert.equal((await deliver()).dispatched, 0);
    assert.equal(hook.requests.length, before);
    const put = await send(`${t.api}/notification-preferences`, 'PUT', u.headers, { webhook: { vendors: ['openai'] } });
    assert.equal(put.status, 200);
    fleet.sim.fleet.openIncident('openai', { impact: 'minor', title: 'Second' });
    await round();
    const r = await deliver();
    assert.equal(r.dispatched, 1);
    assert.equal(hook.requests.length, before + 1);
    await send(`${t.api}/notification-preferences`, 'PUT', u.headers, { webhook: { vendors: null } });
  });

  test('test alerts report the result per channel', async () => {
    for (const channel of ['webhook', 'pagerduty', 'slack', 'email', 'in_app']) {
      const r = await send(`${t.api}/notification-preferences/test`, 'POST', u.headers, { channel });
      assert.equal(r.status, 200, `${channel}: ${JSON.stringify(r.body)}`);
      assert.equal(r.body.delivered, true, channel);
    }
    const wh = new Webhook(secret).verify(hook.requests.at(-1)!.body, hook.requests.at(-1)!.headers as Record<string, string>) as any;
    assert.equal(wh.data.test, true);
    const bad = await send(`${t.api}/notification-preferences/test`, 'POST', u.headers, { channel: 'fax' });
    assert.equal(bad.status, 400);
    const anon = await send(`${t.api}/notification-preferences/test`, 'POST', {}, { channel: 'webhook' });
    assert.equal(anon.status, 401);
  });

  test('an unknown or rotated feed token is 404', async () => {
    assert.equal((await fetch(`${t.url}/api/v1/feeds/${'x'.repeat(43)}.rss`)).status, 404);
    assert.equal((await fetch(`${t.url}/api/v1/feeds/nonsense`)).status, 404);
    const rot = await send(`${t.api}/notification-preferences/rss/rotate-token`, 'POST', u.headers);
    assert.equal(rot.status, 200);
    assert.equal((await fetch(`${t.url}${feedPath}`)).status, 404);
    assert.equal((await fetch(`${t.url}${rot.body.preferences.rss.feed_url}`)).status, 200);
  });
});
