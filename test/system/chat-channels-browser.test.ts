import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { login, userWithKey } from '../helpers/access.ts';
import { getJson, startApp, type TestApp } from '../helpers/app.ts';
import { addCookieHeader, launchBrowser, newPage } from '../helpers/browser.ts';
import { googleChatReply, opsgenieReply, slackAppEnv, slackWorkspace, teamsWorkflowReply } from '../helpers/chat-fakes.ts';
import { type HttpReceiver, startReceiver } from '../helpers/receivers.ts';
import { waitFor } from '../helpers/wait.ts';

// The account page sets up every chat and paging channel in a real browser:
// Teams, Google Chat and Opsgenie fields (secrets never shown back), test sends,
// and "Add to Slack" through a fake Slack authorize page that sends the browser
// back with a code, as Slack does; then disconnecting.

const OPSGENIE_KEY = '3b241101-e2bb-4255-8caf-4136c566a962';
const SLACK = { clientId: '42.42', clientSecret: 'browser-client-secret', code: 'browser-code', botToken: 'xoxb-42-42-BrowserBotToken' };

let t: TestApp;
let browser: Browser;
let teams: HttpReceiver;
let chat: HttpReceiver;
let ops: HttpReceiver;
let slack: HttpReceiver;
let callback = '';
const workspace = slackWorkspace({
  ...SLACK,
  redirectUri: () => callback,
  team: { id: 'T0BROWSER', name: 'Browser Team' },
  installer: 'U0BROWSE1',
  channels: ['C0BROWSER'],
});

before(async () => {
  teams = await startReceiver(teamsWorkflowReply);
  chat = await startReceiver(googleChatReply({ key: 'k1', token: 't1' }));
  ops = await startReceiver(opsgenieReply({ apiKey: OPSGENIE_KEY }).reply);
  // The fake Slack also serves the authorize page: it "approves" at once and sends the browser back.
  slack = await startReceiver((req) => {
    if (req.path.startsWith('/oauth/v2/authorize')) {
      const q = new URL(req.path, 'http://x').searchParams;
      return { status: 302, headers: { location: `${q.get('redirect_uri')}?code=${SLACK.code}&state=${encodeURIComponent(q.get('state')!)}` } };
    }
    return workspace.reply(req);
  });
  t = await startApp({
    env: {
      DELIVER: 'off',
      OUTBOUND_ALLOW_PRIVATE: '127.0.0.1',
      OPSGENIE_API_URL: ops.url,
      ...slackAppEnv(slack.url, SLACK),
    },
  });
  callback = `${t.url}/api/v1/infrastructure/slack/oauth/callback`;
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await t?.close();
  await Promise.all([teams, chat, ops, slack].map((r) => r?.close()));
});

test('Teams, Google Chat, Opsgenie and Slack set up from the account page', async () => {
  const u = await userWithKey(t, 'pro');
  const cookieHeader = await login(t, u.email, u.password);
  const { page, context, problems } = await newPage(browser, { baseURL: t.url });
  await addCookieHeader(context, cookieHeader, t.url);
  const prefs = async () => (await getJson(`${t.api}/notification-preferences`, { headers: { 'x-api-key': u.secret } })).body.preferences;
  const teamsUrl = `${teams.url}/workflows/abc/triggers/manual/paths/invoke?api-version=1&sig=BrowserSig`;
  const chatUrl = `${chat.url}/v1/spaces/AAA/messages?key=k1&token=t1`;

  await page.goto('/account#notifications');
  await page.getByLabel('Post alerts to a Teams channel').check();
  await page.getByLabel('Teams workflow address').fill(teamsUrl);
  await page.getByLabel('Post alerts to a Google Chat space').check();
  await page.getByLabel('Google Chat space address').fill(chatUrl);
  await page.getByLabel('Open Opsgenie alerts for incidents').check();
  await page.getByLabel('API integration key').fill(OPSGENIE_KEY);
  await page.getByLabel('Region').selectOption('eu');
  await page.getByRole('button', { name: 'Save notification settings' }).click();
  await page.locator('[data-preferences-status]', { hasText: 'Saved' }).waitFor();
  let p = await prefs();
  assert.equal(p.teams.enabled, true);
  assert.equal(p.teams.webhook_url, `****${teamsUrl.slice(-4)}`);
  assert.equal(p.google_chat.enabled, true);
  assert.equal(p.opsgenie.region, 'eu');
  assert.equal(p.opsgenie.api_key, `****${OPSGENIE_KEY.slice(-4)}`);
  // Secrets are never put back into the page; saving again keeps them.
  await page.reload();
  assert.equal(await page.getByLabel('API integration key').inputValue(), '');
  assert.ok(!(await page.content()).includes(OPSGENIE_KEY));
  await page.getByRole('button', { name: 'Save notification settings' }).click();
  await page.locator('[data-preferences-status]', { hasText: 'Saved' }).waitFor();
  assert.equal((await prefs()).opsgenie.api_key, `****${OPSGENIE_KEY.slice(-4)}`);

  for (const [label, receiver] of [
    ['Send test Teams card', teams],
    ['Send test Google Chat message', chat],
    ['Send test Opsgenie alert', ops],
  ] as const) {
    const before = receiver.requests.length;
    await page.getByRole('button', { name: label }).click();
    await waitFor(() => receiver.requests.length !== before, { message: label, timeoutMs: 5_000 }).catch(() => {});
    assert.equal(receiver.requests.length, before + 1, label);
  }

  // Add to Slack: to the (fake) Slack authorize page and back, connected.
  await page.getByRole('link', { name: 'Add to Slack' }).click();
  await page.waitForURL(/\/account\?slack=connected/);
  await page.locator('[data-slack-status]', { hasText: 'Slack is connected' }).waitFor();
  assert.match(await page.locator('[data-slack-connected]').innerText(), /Browser Team/);
  await page.getByLabel('Send alerts to Slack').check();
  await page.getByLabel('Channel id').fill('C0BROWSER');
  await page.getByRole('button', { name: 'Save notification settings' }).click();
  await page.locator('[data-preferences-status]', { hasText: 'Saved' }).waitFor();
  p = await prefs();
  assert.deepEqual([p.slack.enabled, p.slack.channel, p.slack_connection.team], [true, 'C0BROWSER', 'Browser Team']);
  await page.getByRole('button', { name: 'Send test Slack message' }).click();
  // The result first says "Sending…"; wait for the answer itself.
  await page.locator('[data-test-result="slack"]', { hasText: /delivered/ }).waitFor();
  assert.equal(workspace.state.messages.at(-1)?.channel, 'C0BROWSER');

  await page.getByRole('button', { name: 'Disconnect Slack' }).click();
  await page.locator('[data-slack-status]', { hasText: 'disconnected' }).waitFor();
  assert.equal((await prefs()).slack_connection.connected, false);
  assert.ok(workspace.state.revoked.has(SLACK.botToken));
  assert.deepEqual(problems, []);
  await context.close();
});

test('digest, time zone, quiet hours, reminders, per-channel rules and per-vendor components set up from the account page', async () => {
  const u = await userWithKey(t, 'pro');
  const cookieHeader = await login(t, u.email, u.password);
  const { page, context, problems } = await newPage(browser, { baseURL: t.url });
  await addCookieHeader(context, cookieHeader, t.url);
  const prefs = async () => (await getJson(`${t.api}/notification-preferences`, { headers: { 'x-api-key': u.secret } })).body.preferences;

  await page.goto('/account#notifications');
  await page.getByLabel('How often').selectOption('daily');
  await page.getByLabel('Time zone', { exact: true }).fill('America/New_York');
  await page.getByLabel('Quiet hours: hold chat and e-mail alerts, then send one summary').check();
  await page.getByLabel('From', { exact: true }).fill('22:30');
  await page.getByLabel('until', { exact: true }).fill('06:45');
  await page.getByLabel('Maintenance reminders').fill('24h, 1h');
  await page.getByLabel('Alert when a maintenance window starts').uncheck();
  await page.getByLabel('Only these components').fill('github: Actions, Git Operations; stripe: API');
  const slack = page.locator('#channel-slack');
  await slack.getByText('What this channel alerts on').click();
  await slack.getByLabel('Use rules of its own').check();
  await slack.getByLabel('Resolved (and maintenance completed)').uncheck();
  await slack.getByLabel('Lowest impact').selectOption('major');
  await slack.getByLabel('Components').fill('Actions');
  await page.getByRole('button', { name: 'Save notification settings' }).click();
  await page.locator('[data-preferences-status]', { hasText: 'Saved' }).waitFor();

  const p = await prefs();
  assert.equal(p.email.digest, 'daily');
  assert.equal(p.timezone, 'America/New_York');
  assert.deepEqual(p.quiet_hours, { enabled: true, start: '22:30', end: '06:45' });
  assert.deepEqual(p.maintenance_reminders, { lead_times: ['24h', '1h'], started: false, completed: true });
  assert.deepEqual(p.content_filters.components, { github: ['Actions', 'Git Operations'], stripe: ['API'] });
  assert.deepEqual(p.slack.alert_on, { changes: ['created', 'status_changed'], min_impact: 'major', components: ['Actions'] });
  assert.equal(p.email.alert_on, null, 'channels without their own rules keep the global ones');

  // The page shows what was saved; a time zone the server does not know is named at its field.
  await page.reload();
  assert.equal(await page.getByLabel('Time zone', { exact: true }).inputValue(), 'America/New_York');
  assert.equal(await page.getByLabel('Only these components').inputValue(), 'github: Actions, Git Operations; stripe: API');
  await page.getByLabel('Time zone', { exact: true }).fill('Mars/Olympus');
  await page.getByRole('button', { name: 'Save notification settings' }).click();
  await page.locator('[data-field-error="timezone"]', { hasText: /IANA/ }).waitFor();
  assert.equal((await prefs()).timezone, 'America/New_York');
  assert.deepEqual(
    problems.filter((x) => x !== 'http 400 PUT /api/v1/infrastructure/notification-preferences'),
    [],
    'only the refused save',
  );
  await context.close();
});
