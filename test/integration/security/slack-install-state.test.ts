import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { getJson, startApp, type TestApp } from '../../helpers/app.ts';
import { slackAppEnv, slackWorkspace } from '../../helpers/chat-fakes.ts';
import { type HttpReceiver, startReceiver } from '../../helpers/receivers.ts';
import { createUser, loginCookie, type TestUser } from '../../helpers/users.ts';

// Attacks on the "Add to Slack" callback (docs/alerts.md, "Slack"): the OAuth `state`
// was accepted several times, and an API key completed the callback. Now:
//  1. an API key (or any non-session caller) gets 403 session_required and installs nothing;
//  2. a state works once: the same state again answers 400, also after an error answer;
//  3. a state started by one web session is not completed by another session of the same account.

const SLACK = {
  clientId: '1234.5678',
  clientSecret: 'slack-client-secret-abc123',
  code: 'code-from-slack-1',
  botToken: 'xoxb-17653672481-19874698323-pdFZKVeTuE8sk7oOcBrzbqgy',
};

describe('Slack install state: single use, web session only', () => {
  let t: TestApp;
  let slackApi: HttpReceiver;
  let callback = '';
  const workspace = slackWorkspace({
    ...SLACK,
    redirectUri: () => callback,
    team: { id: 'T9TK3CUKW', name: 'Softball Team' },
    installer: 'U1234INST',
    channels: [],
  });

  before(async () => {
    slackApi = await startReceiver(workspace.reply);
    t = await startApp({ env: { DELIVER: 'off', OUTBOUND_ALLOW_PRIVATE: '127.0.0.1', ...slackAppEnv(slackApi.url, SLACK) } });
    callback = `${t.url}/api/v1/infrastructure/slack/oauth/callback`;
  });
  after(async () => {
    await t?.close();
    await slackApi?.close();
  });

  /** Starts the install as a browser does (its session cookie) and returns the state. */
  async function startInBrowser(cookie: string): Promise<string> {
    const start = await fetch(`${t.api}/slack/install`, { headers: { cookie, accept: 'text/html' }, redirect: 'manual' });
    assert.equal(start.status, 302);
    return new URL(start.headers.get('location')!).searchParams.get('state')!;
  }
  const finish = (headers: Record<string, string>, state: string, extra = `code=${SLACK.code}`) =>
    fetch(`${callback}?${extra}&state=${encodeURIComponent(state)}`, { headers, redirect: 'manual' });
  const connected = async (u: TestUser) =>
    (await getJson(`${t.api}/notification-preferences`, { headers: u.headers })).body.preferences.slack_connection.connected;

  test('an API key cannot complete the callback, even with a state it started itself', async () => {
    const u = await createUser(t, 'pro');
    const api = await getJson(`${t.api}/slack/install`, { headers: u.headers });
    assert.equal(api.status, 200);
    const state = new URL(api.body.authorizeUrl).searchParams.get('state')!;
    const r = await finish(u.headers, state);
    assert.equal(r.status, 403, await r.clone().text());
    assert.equal((await r.json()).error, 'session_required');
    assert.equal(await connected(u), false);
    // The account's browser completes what the key started.
    const ok = await finish({ cookie: await loginCookie(t, u) }, state);
    assert.equal(ok.status, 302);
    assert.equal(ok.headers.get('location'), '/account?slack=connected#notifications');
  });

  test('a state works once, whatever the first callback brought', async () => {
    const u = await createUser(t, 'pro');
    const cookie = await loginCookie(t, u);
    const state = await startInBrowser(cookie);
    const first = await finish({ cookie }, state);
    assert.equal(first.status, 302);
    assert.equal(first.headers.get('location'), '/account?slack=connected#notifications');
    for (let i = 0; i < 3; i++) {
      const again = await finish({ cookie }, state);
      assert.equal(again.status, 400, `replay ${i + 1}`);
      assert.match((await again.json()).message, /used/);
    }
    const denied = await startInBrowser(cookie);
    assert.equal((await finish({ cookie }, denied, 'error=access_denied')).headers.get('location'), '/account?slack=denied&reason=access_denied#notifications');
    assert.equal((await finish({ cookie }, denied)).status, 400, 'a state spent on an error answer is spent');
  });

  test('another session of the same account cannot complete what a browser session started', async () => {
    const u = await createUser(t, 'pro');
    const mine = await loginCookie(t, u);
    const theirs = await loginCookie(t, u);
    const state = await startInBrowser(mine);
    assert.equal((await finish({ cookie: theirs }, state)).status, 400);
    assert.equal(await connected(u), false);
    assert.equal((await finish({ cookie: mine }, state)).status, 302);
    assert.equal(await connected(u), true);
  });
});
