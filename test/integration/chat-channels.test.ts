import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { getJson, startApp, type TestApp } from '../helpers/app.ts';
import { emit, incident } from '../helpers/alerts.ts';
import { googleChatReply, opsgenieReply, slackAppEnv, slackWorkspace, teamsWorkflowReply } from '../helpers/chat-fakes.ts';
import { type HttpReceiver, startReceiver } from '../helpers/receivers.ts';
import { createUser, loginCookie, send, type TestUser } from '../helpers/users.ts';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { discordBody, standardBody } from '../../src/alerts/channels/webhook.ts';
import { pagerdutyEvent } from '../../src/alerts/channels/pagerduty.ts';

// The chat and paging channels of docs/alerts.md end to end: set up through the
// preferences API (secrets masked in every answer), a test send each, then one
// incident's life (created, updated, resolved) delivered by the dispatcher and
// worker to local fakes that speak each service's wire format.

const OPSGENIE_KEY = '0f8e2c1a-5b7d-4c3e-9a1f-2d6b8e4c7a90';
const SLACK = {
  clientId: '1234.5678',
  clientSecret: 'slack-client-secret-abc123',
  code: 'code-from-slack-1',
  botToken: 'xoxb-17653672481-19874698323-pdFZKVeTuE8sk7oOcBrzbqgy',
};

describe('Teams, Google Chat, Opsgenie, Slack (app and incoming webhook)', () => {
  let t: TestApp;
  let teams: HttpReceiver;
  let chat: HttpReceiver;
  let ops: HttpReceiver;
  let slackHook: HttpReceiver;
  let slackApi: HttpReceiver;
  let u: TestUser;
  const opsgenie = opsgenieReply({ apiKey: OPSGENIE_KEY });
  let callback = '';
  const workspace = slackWorkspace({
    ...SLACK,
    redirectUri: () => callback,
    team: { id: 'T9TK3CUKW', name: 'Softball Team' },
    installer: 'U1234INST',
    channels: ['C0ALERTS1'],
  });
  let teamsUrl = '';
  let chatUrl = '';

  before(async () => {
    teams = await startReceiver(teamsWorkflowReply);
    chat = await startReceiver(googleChatReply({ key: 'AIzaSyChatKey', token: 'chat-token-secret-42' }));
    ops = await startReceiver(opsgenie.reply);
    slackHook = await startReceiver(() => ({ status: 200, body: 'ok', headers: { 'content-type': 'text/html' } }));
    slackApi = await startReceiver(workspace.reply);
    t = await startApp({
      env: {
        DELIVER: 'off',
        OUTBOUND_ALLOW_PRIVATE: '127.0.0.1',
        OPSGENIE_API_URL: ops.url,
        ...slackAppEnv(slackApi.url, SLACK),
        DELIVERY_TIMEOUT_MS: '3000',
      },
    });
    callback = `${t.url}/api/v1/infrastructure/slack/oauth/callback`;
    teamsUrl = `${teams.url}/workflows/0a1b2c3d4e5f60718293a4b5c6d7e8f9/triggers/manual/paths/invoke?api-version=2016-06-01&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig=SiGnAtUrE123`;
    chatUrl = `${chat.url}/v1/spaces/AAAAspace/messages?key=AIzaSyChatKey&token=chat-token-secret-42`;
    u = await createUser(t, 'pro');
    assert.equal((await send(`${t.api}/watchlist/github`, 'POST', u.headers)).status, 200);
  });
  after(async () => {
    await t?.close();
    await Promise.all([teams, chat, ops, slackHook, slackApi].map((r) => r?.close()));
  });

  test('set up: secrets are masked in every answer, a masked value sent back changes nothing', async () => {
    const put = await send(`${t.api}/notification-preferences`, 'PUT', u.headers, {
      teams: { enabled: true, webhook_url: teamsUrl },
      google_chat: { enabled: true, webhook_url: chatUrl },
      opsgenie: { enabled: true, api_key: OPSGENIE_KEY, region: 'eu' },
      webhook: { enabled: true, url: `${slackHook.url}/services/T000/B000/XXXX`, format: 'slack' },
      in_app: { enabled: false },
    });
    assert.equal(put.status, 200, JSON.stringify(put.body));
    const p = put.body.preferences;
    assert.equal(p.teams.webhook_url, `****${teamsUrl.slice(-4)}`);
    assert.equal(p.google_chat.webhook_url, `****${chatUrl.slice(-4)}`);
    assert.equal(p.opsgenie.api_key, `****${OPSGENIE_KEY.slice(-4)}`);
    assert.equal(p.opsgenie.region, 'eu');
    assert.equal(p.webhook.format, 'slack');
    const text = JSON.stringify(put.body);
    for (const secret of [teamsUrl, chatUrl, OPSGENIE_KEY, 'SiGnAtUrE123', 'chat-token-secret-42']) assert.ok(!text.includes(secret), secret);
    const got = await getJson(`${t.api}/notification-preferences`, { headers: u.headers });
    // The webhook's signing secret was shown once in the PUT; masked from then on.
    assert.deepEqual(got.body.preferences, { ...p, webhook: { ...p.webhook, secret: got.body.preferences.webhook.secret } });
    // The GET body sent back as it is: still the same secrets.
    assert.equal((await send(`${t.api}/notification-preferences`, 'PUT', u.headers, got.body.preferences)).status, 200);
    const s = await t.repos.preferences.get(u.id);
    assert.deepEqual(
      [s.channelSecrets.teamsWebhookUrl, s.channelSecrets.googleChatWebhookUrl, s.channelSecrets.opsgenieApiKey],
      [teamsUrl, chatUrl, OPSGENIE_KEY],
    );
  });

  test('bad targets are refused at save time with the field named', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ teams: { webhook_url: 'https://contoso.webhook.office.com/webhookb2/abc@def/IncomingWebhook/123/456' } }, 'teams.webhook_url'],
      [{ google_chat: { webhook_url: 'https://10.0.0.5/v1/spaces/A/messages' } }, 'google_chat.webhook_url'],
      [{ opsgenie: { api_key: 'not-a-key' } }, 'opsgenie.api_key'],
      [{ opsgenie: { region: 'apac' } }, 'opsgenie.region'],
      [{ slack: { channel: '#general' } }, 'slack.channel'],
      [{ opsgenie: { api_key: '****zzzz' } }, 'opsgenie.api_key'],
    ];
    for (const [body, field] of cases) {
      const r = await send(`${t.api}/notification-preferences`, 'PUT', u.headers, body);
      assert.equal(r.status, 400, `${field}: ${JSON.stringify(r.body)}`);
      assert.match(JSON.stringify(r.body), new RegExp(field.replace('.', '\\.')));
    }
  });

  test('test sends: each fake receives its wire format', async () => {
    for (const channel of ['teams', 'google_chat', 'opsgenie', 'webhook']) {
      const r = await send(`${t.api}/notification-preferences/test`, 'POST', u.headers, { channel });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.equal(r.body.delivered, true, `${channel}: ${JSON.stringify(r.body)}`);
    }
    const card = JSON.parse(teams.requests[0]!.body);
    assert.equal(card.type, 'message');
    assert.equal(card.attachments[0].contentType, 'application/vnd.microsoft.card.adaptive');
    assert.equal(card.attachments[0].content.version, '1.4');
    assert.match(JSON.stringify(card.attachments[0].content.body), /\[Test\] Vendor Status: Test alert/);

    const msg = JSON.parse(chat.requests[0]!.body);
    assert.match(chat.requests[0]!.path, /messageReplyOption=REPLY_MESSAGE_FALLBACK_TO_NEW_THREAD/);
    assert.match(chat.requests[0]!.path, /key=AIzaSyChatKey&token=chat-token-secret-42/);
    assert.ok(msg.cardsV2[0].card.sections[0].widgets.length >= 2);
    assert.ok(msg.thread.threadKey);

    assert.equal(ops.requests[0]!.path, '/v2/alerts');
    assert.equal(ops.requests[0]!.headers.authorization, `GenieKey ${OPSGENIE_KEY}`);

    const hook = JSON.parse(slackHook.requests[0]!.body);
    assert.equal(hook.blocks[0].type, 'header');
    assert.match(hook.text, /Test alert/);
    assert.equal(hook.unfurl_links, false);
    assert.equal(slackHook.requests[0]!.headers['webhook-signature'], undefined, 'Slack webhooks are not signed');
  });

  test("one incident's life: Opsgenie create, note, close by alias; Google Chat in one thread; Teams a card each", async () => {
    const teamsBefore = teams.requests.length;
    const chatBefore = chat.requests.length;
    const inc = incident('github', { impact: 'critical', title: 'Git operations failing' });
    await emit(t, 'incident.created', inc);
    await t.app.alerts.runOnce();
    await emit(t, 'incident.updated', {
      ...inc,
      status: 'monitoring',
      updates: [{ status: 'monitoring', body: 'Fix is rolling out', createdAt: new Date().toISOString() }],
    });
    await t.app.alerts.runOnce();
    await emit(t, 'incident.resolved', { ...inc, status: 'resolved' });
    await t.app.alerts.runOnce();

    const alias = `github:${inc.id}`;
    const alert = opsgenie.alerts.get(alias);
    assert.ok(alert, 'created with alias = the incident');
    assert.equal(alert.priority, 'P1');
    assert.deepEqual(alert.notes, ['[monitoring] Fix is rolling out']);
    assert.equal(alert.status, 'closed');
    const paths = ops.requests.slice(-3).map((r) => r.path);
    assert.deepEqual(paths, [
      '/v2/alerts',
      `/v2/alerts/${encodeURIComponent(alias)}/notes?identifierType=alias`,
      `/v2/alerts/${encodeURIComponent(alias)}/close?identifierType=alias`,
    ]);

    const chats = chat.requests.slice(chatBefore).map((r) => JSON.parse(r.body));
    assert.equal(chats.length, 3);
    assert.deepEqual(new Set(chats.map((m) => m.thread.threadKey)), new Set([alias]));
    assert.equal(teams.requests.length - teamsBefore, 3);

    const log = await getJson(`${t.api}/notification-deliveries?limit=50`, { headers: u.headers });
    const real = log.body.items.filter((d: any) => !d.test);
    assert.ok(real.length >= 12 && real.every((d: any) => d.status === 'succeeded'), JSON.stringify(real.map((d: any) => [d.channel, d.status, d.lastError])));
  });

  test('a deleted Teams workflow (404) switches the channel off', async () => {
    teams.reply = () => ({ status: 404, body: JSON.stringify({ error: { code: 'WorkflowNotFound', message: 'The workflow was not found.' } }) });
    try {
      await emit(t, 'incident.created', incident('github', { title: 'Gone' }));
      await t.app.alerts.runOnce();
      const p = await getJson(`${t.api}/notification-preferences`, { headers: u.headers });
      assert.equal(p.body.preferences.teams.enabled, false);
    } finally {
      teams.reply = teamsWorkflowReply;
    }
  });

  test('Slack app: install, DM test, channel with threads per incident, uninstall', async () => {
    const cookie = await loginCookie(t, u);
    const before = await send(`${t.api}/notification-preferences/test`, 'POST', u.headers, { channel: 'slack' });
    assert.equal(before.status, 409, 'not connected yet');
    const api = await getJson(`${t.api}/slack/install`, { headers: u.headers });
    assert.equal(api.status, 200);
    assert.match(api.body.authorizeUrl, /oauth\/v2\/authorize\?client_id=/);
    const start = await fetch(`${t.api}/slack/install`, { headers: { cookie, accept: 'text/html,application/xhtml+xml' }, redirect: 'manual' });
    assert.equal(start.status, 302);
    const to = new URL(start.headers.get('location')!);
    assert.equal(`${to.origin}${to.pathname}`, `${slackApi.url}/oauth/v2/authorize`);
    assert.equal(to.searchParams.get('client_id'), SLACK.clientId);
    assert.equal(to.searchParams.get('redirect_uri'), callback);
    assert.match(to.searchParams.get('scope')!, /chat:write/);
    const state = to.searchParams.get('state')!;

    // Someone else's session cannot complete it.
    const other = await createUser(t, 'pro');
    const forged = await fetch(`${callback}?code=${SLACK.code}&state=${state}`, { headers: { cookie: await loginCookie(t, other) }, redirect: 'manual' });
    assert.equal(forged.status, 400);

    const back = await fetch(`${callback}?code=${SLACK.code}&state=${state}`, { headers: { cookie }, redirect: 'manual' });
    assert.equal(back.status, 302, await back.clone().text());
    assert.equal(back.headers.get('location'), '/account?slack=connected#notifications');
    const p = (await getJson(`${t.api}/notification-preferences`, { headers: u.headers })).body.preferences;
    assert.equal(p.slack_connection.connected, true);
    assert.equal(p.slack_connection.team, 'Softball Team');
    assert.equal(p.slack_connection.user_id, 'U1234INST');
    assert.ok(!JSON.stringify(p).includes(SLACK.botToken));

    const dm = await send(`${t.api}/notification-preferences/test`, 'POST', u.headers, { channel: 'slack' });
    assert.equal(dm.body.delivered, true, JSON.stringify(dm.body));
    assert.equal(workspace.state.messages.at(-1)!.channel, 'D1234INST');

    assert.equal((await send(`${t.api}/notification-preferences`, 'PUT', u.headers, { slack: { enabled: true, channel: 'C0ALERTS1' } })).status, 200);
    const inc = incident('github', { title: 'Webhooks delayed' });
    await emit(t, 'incident.created', inc);
    await t.app.alerts.runOnce();
    await emit(t, 'incident.resolved', { ...inc, status: 'resolved' });
    await t.app.alerts.runOnce();
    const inChannel = workspace.state.messages.filter((m) => m.channel === 'C0ALERTS1');
    assert.equal(inChannel.length, 2);
    assert.equal(inChannel[0]!.thread_ts, null);
    assert.equal(inChannel[1]!.thread_ts, inChannel[0]!.ts, 'the resolution replies in the thread');
    assert.equal(workspace.state.updates.at(-1)!.ts, inChannel[0]!.ts, 'the first message is updated');
    assert.match(workspace.state.updates.at(-1)!.text, /resolved/i);

    // The app removed on Slack's side: the token stops working, Slack alerts are switched off.
    workspace.state.revoked.add(SLACK.botToken);
    await emit(t, 'incident.created', incident('github', { title: 'After removal' }));
    await t.app.alerts.runOnce();
    assert.equal((await getJson(`${t.api}/notification-preferences`, { headers: u.headers })).body.preferences.slack.enabled, false);
    workspace.state.revoked.delete(SLACK.botToken);

    const del = await send(`${t.api}/notification-preferences/slack`, 'DELETE', u.headers);
    assert.equal(del.status, 200, JSON.stringify(del.body));
    assert.equal(del.body.preferences.slack_connection.connected, false);
    assert.equal(del.body.preferences.slack.enabled, false);
    assert.ok(workspace.state.revoked.has(SLACK.botToken), 'token revoked at Slack');
    assert.equal((await t.repos.preferences.get(u.id)).channelSecrets.slackBotToken, null);
  });

  test('every body sent matches its schema in the OpenAPI document (x-webhooks)', async () => {
    const doc = (await getJson(`${t.url}/openapi.json`)).body;
    for (const [name, op] of Object.entries<any>(doc['x-webhooks'])) {
      const ref: string = op.post.requestBody.content['application/json'].schema.$ref;
      assert.ok(doc.components.schemas[ref.split('/').pop()!], `${name}: ${ref} is a component`);
    }
    const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: true, logger: false });
    addFormats.default(ajv);
    ajv.addSchema(doc, 'doc');
    const check = (schema: string, body: unknown) => {
      const v = ajv.compile({ $ref: `doc#/components/schemas/${schema}` });
      assert.ok(v(body), `${schema}: ${JSON.stringify(v.errors)}\n${JSON.stringify(body).slice(0, 500)}`);
    };
    const parsed = (r: HttpReceiver) => r.requests.filter((q) => q.body).map((q) => JSON.parse(q.body));
    for (const b of parsed(teams)) check('TeamsMessage', b);
    for (const b of parsed(chat)) check('GoogleChatMessage', b);
    for (const b of parsed(slackHook)) check('SlackMessage', b);
    for (const q of ops.requests) check(q.path === '/v2/alerts' ? 'OpsgenieCreateAlert' : 'OpsgenieNote', JSON.parse(q.body));
    // The Slack app's chat.postMessage arguments (form-encoded, blocks as JSON).
    const m = workspace.state.messages[0]!;
    check('SlackMessage', { text: m.text, blocks: m.blocks, channel: m.channel, unfurl_links: false, unfurl_media: false });
    const rows = await t.repos.deliveries.listForOrg(u.id, { channels: ['teams'], limit: 5 });
    assert.ok(rows.length > 0);
    for (const d of rows.filter((r) => !r.isTest)) {
      check('StandardWebhookBody', JSON.parse(standardBody(d)));
      check('DiscordMessage', JSON.parse(discordBody(d)));
      check('PagerDutyEvent', pagerdutyEvent(d, 'R0UT1NGKEYR0UT1NGKEYR0UT1NGKEY12'));
    }
  });
});
