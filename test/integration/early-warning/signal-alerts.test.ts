import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { scanSignalAlerts } from '../../../src/alerts/signal-alerts.ts';
import { emit, incident } from '../../helpers/alerts.ts';
import { startApp, TestClock, type TestApp } from '../../helpers/app.ts';
import { slackWorkspace } from '../../helpers/chat-fakes.ts';
import { type HttpReceiver, startReceiver } from '../../helpers/receivers.ts';
import { csrfTokenOf } from '../../helpers/access.ts';
import { connect, textOf } from '../../helpers/mcp.ts';
import { createUser, loginCookie, send } from '../../helpers/users.ts';

// Early-warning alerts (docs/alerts.md "Early warning") over the real store, the real
// dispatcher and worker and local fakes of Slack and of webhook receivers: the kind is opt-in
// per route (a route with the default kinds gets nothing), a suspected signal sends one alert
// marked as our suspicion, its transitions are updates, the vendor incident that confirms it
// continues in the same Slack and Google Chat thread, every route gets each transition once
// however often the scan runs, the alert names the services the signal may hit, and hostile
// input (kinds, evidence text) is refused or escaped.

const BOT = 'xoxb-early-warning-bot';

describe('early-warning alerts', () => {
  const clock = new TestClock(new Date('2026-11-29T12:00:00Z'));
  let t: TestApp;
  let hook: HttpReceiver;
  let slackApi: HttpReceiver;
  let cookie: string;
  let orgId: string;
  const workspace = slackWorkspace({
    clientId: 'x',
    clientSecret: 'y',
    code: 'z',
    redirectUri: () => '',
    botToken: BOT,
    team: { id: 'T1', name: 'SRE' },
    installer: 'U1SRE',
    channels: ['C0EARLY1'],
  });
  const s = () => ({ cookie, origin: t.url });
  const routes = `/api/v1/orgs/`;
  const createRoute = (body: unknown) => send(`${t.url}${routes}${orgId}/alert-routes`, 'POST', s(), body);
  const ew = () => t.app.services.earlyWarning.signals;
  const bodiesAt = (path: string) => hook.requests.filter((r) => r.path.split('?')[0] === path).map((r) => JSON.parse(r.body));
  const withKinds = (...extra: string[]) => ['created', 'status_changed', 'resolved', ...extra];

  /** Opens a signal by agreement of an inbound call and a member's report. */
  async function open(vendor: string, o: { components?: string[]; summary?: string; regions?: string[] } = {}) {
    await ew().observe(orgId, {
      source: 'inbound',
      vendor,
      components: o.components,
      regions: o.regions,
      strength: 0.7,
      summary: o.summary ?? `${vendor} 5xx ratio 23%`,
      actor: 'msg_1',
    });
    const r = await ew().observe(orgId, { source: 'report', vendor, strength: 0.5, summary: 'checkout failing for us', actor: 'user:u1' });
    assert.equal(r.signal?.state, 'suspected', JSON.stringify(r));
    return r.signal!.id;
  }

  before(async () => {
    hook = await startReceiver(() => ({ status: 204 }));
    slackApi = await startReceiver(workspace.reply);
    t = await startApp({
      clock,
      env: {
        DELIVER: 'off',
        OUTBOUND_ALLOW_PRIVATE: '127.0.0.1',
        SLACK_BOT_TOKEN: BOT,
        SLACK_API_URL: `${slackApi.url}/api/`,
        PAGERDUTY_EVENTS_URL: `${hook.url}/pd`,
      },
    });
    const owner = await createUser(t, 'pro');
    cookie = await loginCookie(t, owner);
    orgId = (await send(`${t.url}/api/v1/orgs`, 'POST', s(), { name: 'Early alerts' })).body.organisation.id;
    assert.equal((await send(`${t.url}/api/v1/orgs/${orgId}/switch`, 'POST', s())).status, 200);
    // The organisation follows github and stripe through its own watchlist, aws through a service.
    assert.equal((await send(`${t.api}/watchlist`, 'PUT', s(), { vendors: ['github', 'stripe', 'amazon-web-services'] })).status, 200);
    const svc = await send(`${t.url}/api/v1/orgs/${orgId}/services`, 'POST', s(), {
      name: 'checkout-api',
      criticality: 'critical',
      dependencies: [{ vendor: 'amazon-web-services', regions: ['us-east-1'] }],
    });
    assert.equal(svc.status, 201, JSON.stringify(svc.body));
    await t.repos.preferences.update(orgId, clock.now(), (p) => ({
      ...p,
      slackConnection: { connected: true, team: 'SRE', connected_at: clock.now().toISOString(), user_id: 'U1SRE' },
    }));
  });
  after(async () => {
    await t?.close();
    await Promise.all([hook?.close(), slackApi?.close()]);
  });

  test('attack list: route kinds are checked; early_warning is off unless listed', async () => {
    for (const kinds of [['early_warning', 'bogus'], [], 'early_warning', ['early_warning\u0007'], ['EARLY_WARNING'], [1], Array(10).fill('early_warning')]) {
      const r = await createRoute({
        name: `bad ${JSON.stringify(kinds)}`.slice(0, 80),
        destination: { channel: 'webhook', url: `${hook.url}/bad` },
        filters: { kinds },
      });
      assert.equal(r.status, 400, `${JSON.stringify(kinds)}: ${JSON.stringify(r.body)}`);
    }
    const plain = await createRoute({ name: 'plain', destination: { channel: 'webhook', url: `${hook.url}/plain` } });
    assert.equal(plain.status, 201, JSON.stringify(plain.body));
    assert.ok(!plain.body.route.filters.kinds.includes('early_warning'), 'default kinds leave early warning off');
  });

  test('web: the route form offers early warning unticked, and a route made there takes it', async () => {
    const page = await fetch(`${t.url}/team/routes`, { headers: { cookie } });
    assert.equal(page.status, 200);
    const html = await page.text();
    assert.match(html, /<input type="checkbox" name="kinds" value="early_warning"> Early warning/);
    assert.match(html, /value="created" checked/);
    const form = new URLSearchParams({ _csrf: csrfTokenOf(cookie), name: 'web early', channel: 'webhook', target: `${hook.url}/web`, minImpact: 'none' });
    form.append('kinds', 'early_warning');
    form.append('kinds', 'bogus');
    const posted = await fetch(`${t.url}/team/routes`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie, origin: t.url, 'content-type': 'application/x-www-form-urlencoded' },
      body: form,
    });
    assert.ok(posted.status < 400, `${posted.status}`);
    const made = (await send(`${t.url}${routes}${orgId}/alert-routes`, 'GET', { cookie })).body.routes.find((r: any) => r.name === 'web early');
    assert.deepEqual(made.filters.kinds, ['early_warning'], 'an unknown kind from the form is dropped');
    assert.equal((await send(`${t.url}${routes}${orgId}/alert-routes/${made.id}`, 'DELETE', s())).status, 200);
  });

  test('a suspected signal alerts once, marked as ours; the confirming incident continues in the same thread', async () => {
    const made = [
      await createRoute({ name: 'slack early', destination: { channel: 'slack', conversation: 'C0EARLY1' }, filters: { kinds: withKinds('early_warning') } }),
      await createRoute({ name: 'webhook early only', destination: { channel: 'webhook', url: `${hook.url}/ew` }, filters: { kinds: ['early_warning'] } }),
      await createRoute({
        name: 'chat early',
        destination: { channel: 'google_chat', url: `${hook.url}/chat` },
        filters: { kinds: withKinds('early_warning') },
      }),
    ];
    for (const m of made) assert.equal(m.status, 201, JSON.stringify(m.body));
    clock.advance(60_000);
    hook.requests.length = 0;

    const signalId = await open('github', { components: ['Actions'], summary: 'actions queue 40 min <!channel> *now* <https://evil.example|click>' });
    await t.app.alerts.runOnce();
    // Once more, and a second scan as another instance would: nothing new.
    await t.app.alerts.runOnce();
    assert.equal(
      await scanSignalAlerts(
        {
          earlyWarning: t.repos.earlyWarning,
          routes: t.repos.alertRoutes,
          watchlist: t.repos.watchlist,
          deliveries: t.repos.deliveries,
          available: { email: false, slack: true },
        },
        clock.now(),
      ),
      0,
    );

    assert.equal(bodiesAt('/plain').length, 0, 'a route with the default kinds gets no early warning');
    const [ewBody, ...moreEw] = bodiesAt('/ew');
    assert.equal(moreEw.length, 0, 'one alert per route and transition');
    assert.equal(ewBody.type, 'early_warning.suspected');
    assert.equal(ewBody.data.kind, 'early_warning');
    assert.equal(ewBody.data.id, signalId);
    assert.equal(ewBody.data.status, 'suspected');
    assert.equal(ewBody.data.impact, 'unknown');
    assert.match(ewBody.data.title, /our early warning, not the vendor's status/);
    assert.equal(ewBody.data.confidence, 0.85);
    assert.deepEqual(ewBody.data.evidence.map((e: any) => e.source).sort(), ['inbound', 'report']);
    assert.match(ewBody.data.updates[0].body, /status page says nothing of it yet/);

    const top = workspace.state.messages.filter((m) => m.channel === 'C0EARLY1');
    assert.equal(top.length, 1);
    assert.equal(top[0]!.thread_ts, null);
    assert.match(top[0]!.text, /Suspected problem \(early warning\)/);
    // Evidence text is the team's input: shown as plain text, never as mrkdwn that could ping or link.
    const mrkdwn = JSON.stringify(
      (top[0]!.blocks as any[]).flatMap((b) => [b.text, ...(b.fields ?? []), ...(b.elements ?? [])]).filter((x) => x?.type === 'mrkdwn'),
    );
    assert.ok(!mrkdwn.includes('<!channel>') && !mrkdwn.includes('<https://evil') && !top[0]!.text.includes('<!channel>'), mrkdwn);
    assert.ok(JSON.stringify(top[0]!.blocks).includes('<!channel>'), 'the evidence is shown (as plain text)');
    const [chat] = bodiesAt('/chat');
    assert.equal(chat.thread.threadKey, `github:${signalId}`);

    // The vendor posts a matching incident: the alert runtime confirms first, so the incident's
    // own alerts already post in the signal's thread, followed by the confirmation update.
    clock.advance(5 * 60_000);
    const at = clock.now().toISOString();
    const inc = { ...incident('github', { components: ['Actions'], id: 'github-confirming-1', title: 'Actions delayed' }), startedAt: at };
    await emit(t, 'incident.created', inc, at);
    await t.app.alerts.runOnce();
    clock.advance(60_000);
    const upd = clock.now().toISOString();
    await emit(
      t,
      'incident.updated',
      { ...inc, status: 'identified', updates: [{ status: 'identified', body: 'Fix deploying', createdAt: upd }, ...inc.updates] },
      upd,
    );
    await t.app.alerts.runOnce();
    const listed = (await send(`${t.url}/api/v1/orgs/${orgId}/signals?vendor=github`, 'GET', { cookie })).body.signals;
    assert.equal(listed[0].state, 'confirmed');
    assert.equal(listed[0].incidentId, 'github-confirming-1');

    const all = workspace.state.messages.filter((m) => m.channel === 'C0EARLY1');
    assert.equal(all.filter((m) => m.thread_ts === null).length, 1, 'one thread from the suspicion to the incident');
    const replies = all.filter((m) => m.thread_ts === top[0]!.ts);
    assert.equal(replies.length, 3, JSON.stringify(all.map((m) => [m.thread_ts, m.text])));
    assert.ok(replies.some((m) => /confirmed by the vendor/.test(m.text)));
    assert.ok(replies.some((m) => /Actions delayed/.test(m.text)));
    const chats = bodiesAt('/chat');
    assert.equal(chats.length, 4);
    assert.ok(
      chats.every((c) => c.thread.threadKey === `github:${signalId}`),
      JSON.stringify(chats.map((c) => c.thread)),
    );
    const confirmed = bodiesAt('/ew').find((b) => b.type === 'early_warning.confirmed');
    assert.equal(confirmed.data.incidentId, 'github-confirming-1');
    assert.equal(confirmed.data.transition.from, 'suspected');
    assert.equal(bodiesAt('/ew').length, 2, 'the route taking early warning only gets no incident alerts');
  });

  test('dismissal and clearing are updates; the alert and the lists name the services a signal may hit', async () => {
    clock.advance(60 * 60_000);
    hook.requests.length = 0;
    const aws = await open('amazon-web-services', { summary: 'S3 PUT errors in us-east-1' });
    const stripe = await open('stripe');
    await t.app.alerts.runOnce();
    const opened = bodiesAt('/ew');
    assert.deepEqual(
      opened.map((b) => b.type),
      ['early_warning.suspected', 'early_warning.suspected'],
    );
    const awsBody = opened.find((b) => b.data.id === aws);
    assert.equal(awsBody.affectedServices.length, 1);
    assert.equal(awsBody.affectedServices[0].serviceName, 'checkout-api');
    assert.equal(awsBody.affectedServices[0].confidence, 'medium');
    assert.deepEqual(awsBody.affectedServices[0].reasons, ['us-east-1 named in the evidence']);
    assert.match(awsBody.affects, /affects checkout-api \(critical\) via .*us-east-1/);
    assert.deepEqual(opened.find((b) => b.data.id === stripe).affectedServices, [], 'an organisation with services: an empty list when none is hit');

    // The REST list carries the same.
    const listed = (await send(`${t.url}/api/v1/orgs/${orgId}/signals?vendor=amazon-web-services`, 'GET', { cookie })).body.signals;
    assert.equal(listed[0].affectedServices[0].serviceName, 'checkout-api');
    assert.deepEqual(listed[0].affectedServices[0].reasons, ['us-east-1 named in the evidence']);
    // And the MCP tool, for an organisation key of the team.
    const key = await send(`${t.url}/api/v1/orgs/${orgId}/keys`, 'POST', s(), { name: 'assistant', role: 'viewer' });
    assert.equal(key.status, 201, JSON.stringify(key.body));
    const c = await connect(`${t.url}/mcp`, { token: key.body.secret });
    try {
      const r = await c.client.callTool({ name: 'list_signals', arguments: { vendor: 'amazon-web-services' } });
      assert.equal(r.isError, undefined, textOf(r));
      assert.equal((r.structuredContent as any).signals[0].affectedServices[0].serviceName, 'checkout-api');
      assert.match(textOf(r), /may hit checkout-api \(critical, via .*us-east-1\)/);
    } finally {
      await c.close();
    }

    const dismissed = await send(`${t.url}/api/v1/orgs/${orgId}/signals/${stripe}/dismiss`, 'POST', s(), { reason: 'our proxy' });
    assert.equal(dismissed.status, 200);
    clock.advance(31 * 60_000);
    await t.app.earlyWarning.runOnce();
    await t.app.alerts.runOnce();
    const later = bodiesAt('/ew').slice(2);
    assert.deepEqual(
      later.map((b) => [b.type, b.data.id]).sort(),
      [
        ['early_warning.cleared', aws],
        ['early_warning.dismissed', stripe],
      ].sort(),
    );
    assert.match(later.find((b) => b.data.id === stripe).data.updates[0].body, /our proxy/i);

    // A route made after a signal opened is not sent that signal's later transitions alone.
    const late = await createRoute({ name: 'late', destination: { channel: 'webhook', url: `${hook.url}/late` }, filters: { kinds: ['early_warning'] } });
    assert.equal(late.status, 201);
    clock.advance(10_000);
    await t.app.alerts.runOnce();
    assert.equal(bodiesAt('/late').length, 0);

    // The scan reads every page of the lookback in (time, id) order, not only the first page.
    const from = new Date(clock.now().getTime() - 24 * 3_600_000).toISOString();
    const all = await t.repos.earlyWarning.transitionsSince(from, 1000);
    assert.ok(all.length >= 6, `${all.length}`);
    const paged: string[] = [];
    let after: { at: string; id: string } | null = null;
    for (;;) {
      const page = await t.repos.earlyWarning.transitionsSince(from, 2, after);
      paged.push(...page.map((p) => p.transition.id));
      if (page.length < 2) break;
      after = { at: page[1]!.transition.at, id: page[1]!.transition.id };
    }
    assert.deepEqual(
      paged,
      all.map((p) => p.transition.id),
    );
  });

  test('a vendor that posts after the signal cleared confirms it late: webhooks hear it, a paging route does not reopen', async () => {
    const made = [
      await createRoute({
        name: 'fastly hook',
        destination: { channel: 'webhook', url: `${hook.url}/fastly` },
        filters: { kinds: ['early_warning'], vendors: ['fastly'] },
      }),
      await createRoute({
        name: 'fastly pager',
        destination: { channel: 'pagerduty', routingKey: 'R'.repeat(32) },
        filters: { kinds: ['early_warning'], vendors: ['fastly'] },
      }),
    ];
    for (const m of made) assert.equal(m.status, 201, JSON.stringify(m.body));
    clock.advance(60_000);
    const id = await open('fastly', { summary: 'edge 503s' });
    await t.app.alerts.runOnce();
    // Nothing observed for the quiet period: cleared, and the page resolved.
    clock.advance(31 * 60_000);
    assert.equal((await t.app.earlyWarning.runOnce()).cleared, 1);
    await t.app.alerts.runOnce();
    const pd = () => bodiesAt('/pd').filter((b) => b.dedup_key?.includes(id));
    assert.deepEqual(
      pd().map((b) => b.event_action),
      ['trigger', 'resolve'],
    );

    // 40 minutes later the vendor posts an incident that began while we saw the problem.
    clock.advance(40 * 60_000);
    const at = clock.now().toISOString();
    const startedAt = new Date(clock.now().getTime() - 60 * 60_000).toISOString();
    await emit(t, 'incident.created', { ...incident('fastly', { id: 'fastly-late-1', title: 'Edge errors' }), startedAt }, at);
    await t.app.alerts.runOnce();
    const [signal] = (await send(`${t.url}/api/v1/orgs/${orgId}/signals?vendor=fastly`, 'GET', { cookie })).body.signals;
    assert.equal(signal.id, id);
    assert.equal(signal.state, 'confirmed');
    assert.equal(signal.incidentId, 'fastly-late-1');
    assert.deepEqual(
      signal.transitions.map((x: any) => x.to),
      ['suspected', 'cleared', 'confirmed'],
    );
    assert.match(signal.transitions.at(-1).reason, /after the signal had cleared/);
    assert.deepEqual(
      bodiesAt('/fastly').map((b) => b.type),
      ['early_warning.suspected', 'early_warning.cleared', 'early_warning.confirmed'],
    );
    assert.deepEqual(
      pd().map((b) => b.event_action),
      ['trigger', 'resolve'],
      'the late confirmation does not trigger the resolved page again',
    );
  });

  test('two instances over one store: each route gets the alert once', async () => {
    const second = await startApp({
      clock,
      shareStoreWith: t,
      env: { DELIVER: 'off', OUTBOUND_ALLOW_PRIVATE: '127.0.0.1', SLACK_BOT_TOKEN: BOT, SLACK_API_URL: `${slackApi.url}/api/` },
    });
    try {
      clock.advance(60 * 60_000);
      hook.requests.length = 0;
      const id = await open('github', { summary: 'both instances see it' });
      await Promise.all([t.app.alerts.runOnce(), second.app.alerts.runOnce()]);
      clock.advance(10_000);
      await Promise.all([second.app.alerts.runOnce(), t.app.alerts.runOnce()]);
      const got = bodiesAt('/ew').filter((b) => b.data.id === id);
      assert.deepEqual(
        got.map((b) => b.type),
        ['early_warning.suspected'],
      );
      const rows = await t.store.db.selectFrom('deliveries').select('route_id').where('entity_id', '=', id).execute();
      assert.equal(rows.length, new Set(rows.map((r) => r.route_id)).size, 'one row per route');
    } finally {
      await second.close();
    }
  });
});
