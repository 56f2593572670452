import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { startApp, TestClock, type TestApp } from '../../helpers/app.ts';
import { emit, incident } from '../../helpers/alerts.ts';
import { type HttpReceiver, startReceiver } from '../../helpers/receivers.ts';
import { createUser, loginCookie, send, type TestUser } from '../../helpers/users.ts';

// Alert routes of a team (docs/alert-routes.md): many destinations per channel, each with
// its own filters (vendors, a named watchlist, the organisation's watchlist, kinds,
// minimum impact, components, quiet hours); the notification preferences keep working
// beside them; destinations masked and audited; a route deleted or gone stops its alerts;
// bad input is a 4xx and never reaches another organisation's routes.

describe('alert routes', () => {
  const clock = new TestClock(new Date('2026-11-29T12:00:00Z'));
  let t: TestApp;
  let hook: HttpReceiver;
  let owner: TestUser;
  let cookie: string;
  let orgId: string;
  const s = () => ({ cookie, origin: t.url });
  const routes = (p = '') => `${t.url}/api/v1/orgs/${orgId}/alert-routes${p}`;
  const paths = () => hook.requests.map((r) => r.path).sort();
  const create = (body: unknown) => send(routes(), 'POST', s(), body);

  before(async () => {
    hook = await startReceiver((req) => (req.path.startsWith('/gone') ? { status: 410 } : { status: 204 }));
    t = await startApp({ clock, env: { DELIVER: 'off', OUTBOUND_ALLOW_PRIVATE: '127.0.0.1' } });
    owner = await createUser(t, 'pro');
    cookie = await loginCookie(t, owner);
    orgId = (await send(`${t.url}/api/v1/orgs`, 'POST', s(), { name: 'Routing team' })).body.organisation.id;
    assert.equal((await send(`${t.url}/api/v1/orgs/${orgId}/switch`, 'POST', s())).status, 200);
    assert.equal((await send(`${t.api}/watchlist`, 'PUT', s(), { vendors: ['github', 'cloudflare'] })).status, 200);
  });
  after(async () => {
    await t?.close();
    await hook?.close();
  });

  test('each route takes what its filters let through, beside the preferences', async () => {
    const payments = await send(`${t.url}/api/v1/orgs/${orgId}/watchlists`, 'POST', s(), { name: 'payments', vendors: ['stripe'] });
    assert.equal(payments.status, 201);
    // The preferences' webhook: the organisation's watchlist, as before routes existed.
    assert.equal(
      (await send(`${t.api}/notification-preferences`, 'PUT', s(), { webhook: { enabled: true, url: `${hook.url}/prefs` }, in_app: { enabled: false } }))
        .status,
      200,
    );
    const made = [
      await create({
        name: 'github majors',
        destination: { channel: 'webhook', url: `${hook.url}/github-majors` },
        filters: { vendors: ['github'], minImpact: 'major' },
      }),
      await create({
        name: 'payments openings',
        destination: { channel: 'webhook', url: `${hook.url}/payments` },
        filters: { watchlistId: payments.body.watchlist.id, kinds: ['created'] },
      }),
      await create({ name: 'everything watched', destination: { channel: 'webhook', url: `${hook.url}/watched`, format: 'slack' } }),
      await create({
        name: 'actions only',
        destination: { channel: 'webhook', url: `${hook.url}/actions` },
        filters: { vendors: ['github'], components: ['Actions'] },
      }),
      await create({ name: 'off', enabled: false, destination: { channel: 'webhook', url: `${hook.url}/off` }, filters: { vendors: ['github'] } }),
    ];
    for (const m of made) assert.equal(m.status, 201, JSON.stringify(m.body));
    const secret = made[0]!.body.route.destination.secret as string;
    assert.match(secret, /^whsec_/);

    hook.requests.length = 0;
    await emit(t, 'incident.created', incident('github', { impact: 'minor', components: ['Pages'] }));
    await emit(t, 'incident.created', incident('github', { impact: 'critical', components: ['actions'] }));
    await emit(t, 'incident.created', incident('stripe', { impact: 'minor' }));
    const resolved = incident('stripe', { impact: 'minor' });
    await emit(t, 'incident.resolved', resolved);
    await t.app.alerts.runOnce();
    assert.deepEqual(paths(), [
      '/actions', // critical github on Actions
      '/github-majors', // critical github only
      '/payments', // stripe opening; its resolve is not a kind the route takes
      '/prefs',
      '/prefs', // github twice (watchlist), stripe not on it
      '/watched',
      '/watched', // the organisation's watchlist: github twice
    ]);
    // A route's webhook is signed with the route's own secret.
    const req = hook.requests.find((r) => r.path === '/github-majors')!;
    const id = req.headers['webhook-id'] as string;
    const expected = createHmac('sha256', Buffer.from(secret.slice(6), 'base64'))
      .update(`${id}.${req.headers['webhook-timestamp']}.${req.body}`)
      .digest('base64');
    assert.equal(req.headers['webhook-signature'], `v1,${expected}`);
    // A re-dispatch adds nothing: one row per event and route.
    await t.app.alerts.runOnce();
    assert.equal(hook.requests.length, 7);
    // Rows of routes show in the delivery log of the organisation.
    const log = await send(`${t.api}/notification-deliveries?limit=50`, 'GET', s());
    assert.equal(log.status, 200);
    assert.ok(log.body.items.length >= 7);
  });

  test('destinations are masked in answers and in the audit log; the secret is shown once', async () => {
    const made = await create({ name: 'pager', destination: { channel: 'pagerduty', routingKey: `${'R'.repeat(28)}abcd` } });
    assert.equal(made.status, 201);
    assert.equal(made.body.route.destination.routingKey, '****abcd');
    const list = await send(routes(), 'GET', s());
    const text = JSON.stringify(list.body);
    assert.ok(!text.includes('R'.repeat(28)));
    assert.ok(!text.includes('/github-majors'), 'URL paths are not shown');
    assert.ok(!/whsec_[A-Za-z0-9+/=]{20,}/.test(text), 'no secret in a list');
    const audit = JSON.stringify((await send(`${t.url}/api/v1/orgs/${orgId}/audit?limit=50`, 'GET', s())).body);
    assert.ok(audit.includes('route.created'));
    assert.ok(!audit.includes('R'.repeat(28)) && !audit.includes('/github-majors') && !/whsec_[A-Za-z0-9+/=]{20,}/.test(audit));
    const rotated = await send(routes(`/${list.body.routes.find((r: any) => r.name === 'github majors').id}`), 'PUT', s(), { rotateSecret: true });
    assert.equal(rotated.status, 200);
    assert.match(rotated.body.route.destination.secret, /^whsec_/);
  });

  test('quiet hours hold chat rows until they end; paging is never held', async () => {
    const quiet = { start: '11:00', end: '13:00', timezone: 'UTC' };
    assert.equal(
      (
        await create({
          name: 'teams quiet',
          destination: { channel: 'teams', url: `${hook.url}/teams-quiet` },
          filters: { vendors: ['cloudflare'], quietHours: quiet },
        })
      ).status,
      201,
    );
    assert.equal(
      (
        await create({
          name: 'hook quiet',
          destination: { channel: 'webhook', url: `${hook.url}/hook-quiet` },
          filters: { vendors: ['cloudflare'], quietHours: quiet },
        })
      ).status,
      201,
    );
    hook.requests.length = 0;
    await emit(t, 'incident.created', incident('cloudflare'));
    await t.app.alerts.runOnce();
    const got = paths();
    assert.ok(got.includes('/hook-quiet') && !got.includes('/teams-quiet'), got.join(' '));
    clock.advance(61 * 60_000);
    await t.app.alerts.runOnce();
    assert.ok(paths().includes('/teams-quiet'), 'sent when the quiet hours ended');
    clock.advance(-61 * 60_000);
  });

  test('a deleted route cancels its pending rows; a gone destination switches the route off', async () => {
    const doomed = await create({
      name: 'doomed',
      destination: { channel: 'teams', url: `${hook.url}/doomed` },
      filters: { vendors: ['gitlab'], quietHours: { start: '11:00', end: '13:00', timezone: 'UTC' } },
    });
    const gone = await create({ name: 'gone', destination: { channel: 'webhook', url: `${hook.url}/gone` }, filters: { vendors: ['gitlab'] } });
    await emit(t, 'incident.created', incident('gitlab'));
    await t.app.alerts.runOnce();
    assert.equal((await send(routes(`/${doomed.body.route.id}`), 'DELETE', s())).status, 200);
    clock.advance(61 * 60_000);
    await t.app.alerts.runOnce();
    clock.advance(-61 * 60_000);
    assert.ok(!paths().includes('/doomed'));
    const after = await send(routes(`/${gone.body.route.id}`), 'GET', s());
    assert.equal(after.body.route.enabled, false);
    assert.match(after.body.route.disabledReason, /410/);
    // Switching it on again clears the reason.
    const on = await send(routes(`/${gone.body.route.id}`), 'PUT', s(), { enabled: true });
    assert.equal(on.body.route.disabledReason, null);
  });

  test('a test alert goes through the route', async () => {
    const r = await create({ name: 'tested', enabled: false, destination: { channel: 'webhook', url: `${hook.url}/tested` } });
    const res = await send(routes(`/${r.body.route.id}/test`), 'POST', s());
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.delivered, true);
    assert.ok(hook.requests.some((q) => q.path === '/tested'));
  });

  test('hostile input: 4xx with the error body, nothing written', async () => {
    const before = (await send(routes(), 'GET', s())).body.routes.length;
    const cases: [string, unknown][] = [
      ['unknown field', { name: 'x', destination: { channel: 'pagerduty', routingKey: 'a'.repeat(32) }, extra: 1 }],
      ['unknown channel', { name: 'x', destination: { channel: 'sms', to: '+1' } }],
      ['control characters in the name', { name: 'a\u0000b', destination: { channel: 'pagerduty', routingKey: 'a'.repeat(32) } }],
      ['loopback URL not allowed', { name: 'x', destination: { channel: 'webhook', url: 'https://localhost/x' } }],
      ['metadata address', { name: 'x', destination: { channel: 'webhook', url: 'http://169.254.169.254/latest' } }],
      ['private v6', { name: 'x', destination: { channel: 'webhook', url: 'https://[fd00::1]/x' } }],
      ['credentials in URL', { name: 'x', destination: { channel: 'google_chat', url: 'https://u:p@chat.googleapis.com/x' } }],
      ['overlong URL', { name: 'x', destination: { channel: 'webhook', url: `https://example.com/${'a'.repeat(3000)}` } }],
      ['retired Teams connector', { name: 'x', destination: { channel: 'teams', url: 'https://acme.webhook.office.com/webhookb2/x' } }],
      ['bad routing key', { name: 'x', destination: { channel: 'pagerduty', routingKey: 'short' } }],
      ['bad Opsgenie key', { name: 'x', destination: { channel: 'opsgenie', apiKey: 'nope', region: 'us' } }],
      ['bad Slack channel', { name: 'x', destination: { channel: 'slack', conversation: 'general' } }],
      ['stranger e-mail', { name: 'x', destination: { channel: 'email', to: ['stranger@example.com'] } }],
      ['too many addresses', { name: 'x', destination: { channel: 'email', to: Array.from({ length: 21 }, (_, i) => `a${i}@example.com`) } }],
      [
        'vendors and a watchlist',
        { name: 'x', destination: { channel: 'pagerduty', routingKey: 'a'.repeat(32) }, filters: { vendors: ['github'], watchlistId: 'abc' } },
      ],
      ['foreign watchlist', { name: 'x', destination: { channel: 'pagerduty', routingKey: 'a'.repeat(32) }, filters: { watchlistId: 'not-ours' } }],
      ['unknown vendor', { name: 'x', destination: { channel: 'pagerduty', routingKey: 'a'.repeat(32) }, filters: { vendors: ['no-such-vendor'] } }],
      ['bad kinds', { name: 'x', destination: { channel: 'pagerduty', routingKey: 'a'.repeat(32) }, filters: { kinds: ['exploded'] } }],
      ['empty kinds', { name: 'x', destination: { channel: 'pagerduty', routingKey: 'a'.repeat(32) }, filters: { kinds: [] } }],
      [
        'bad quiet hours',
        {
          name: 'x',
          destination: { channel: 'pagerduty', routingKey: 'a'.repeat(32) },
          filters: { quietHours: { start: '25:00', end: '07:00', timezone: 'Mars/Olympus' } },
        },
      ],
      ['wrong types', { name: 42, destination: 'webhook' }],
      ['array body', []],
      ['a duplicate name', { name: 'github majors', destination: { channel: 'pagerduty', routingKey: 'a'.repeat(32) } }],
    ];
    for (const [why, body] of cases) {
      const r = await create(body);
      assert.ok(r.status >= 400 && r.status < 500, `${why}: ${r.status} ${JSON.stringify(r.body)}`);
      assert.equal(r.body.success, false, why);
      assert.equal(typeof r.body.error, 'string', why);
    }
    const huge = await fetch(routes(), {
      method: 'POST',
      headers: { ...s(), 'content-type': 'application/json' },
      body: `{"name":"x","destination":{"channel":"email","to":["${'a'.repeat(3_000_000)}"]}}`,
    });
    assert.equal(huge.status, 413);
    assert.equal((await send(routes(), 'GET', s())).body.routes.length, before);
    assert.equal((await send(routes('/rte_nonexistent'), 'PUT', s(), { enabled: false })).status, 404);
    assert.equal((await send(routes('/rte_nonexistent'), 'PUT', s(), {})).status, 400);
  });

  test("another organisation's route is out of reach, even by its id", async () => {
    const mine = (await send(routes(), 'GET', s())).body.routes[0];
    const other = await createUser(t, 'pro');
    const otherCookie = await loginCookie(t, other);
    const o = { cookie: otherCookie, origin: t.url };
    const theirs = (await send(`${t.url}/api/v1/orgs`, 'POST', o, { name: 'Other team' })).body.organisation.id;
    for (const [method, suffix, body] of [
      ['GET', '', undefined],
      ['PUT', '', { enabled: false }],
      ['DELETE', '', undefined],
      ['POST', '/test', undefined],
    ] as const) {
      const r = await send(`${t.url}/api/v1/orgs/${theirs}/alert-routes/${mine.id}${suffix}`, method, o, body);
      assert.equal(r.status, 404, `${method} ${suffix}`);
    }
    assert.equal((await send(routes(`/${mine.id}`), 'GET', s())).body.route.enabled, mine.enabled);
  });

  test('an organisation holds at most 50 routes', async () => {
    const have = (await send(routes(), 'GET', s())).body.routes.length;
    for (let i = have; i < 50; i++)
      assert.equal((await create({ name: `r${i}`, destination: { channel: 'pagerduty', routingKey: 'a'.repeat(32) } })).status, 201);
    const over = await create({ name: 'one too many', destination: { channel: 'pagerduty', routingKey: 'a'.repeat(32) } });
    assert.ok(over.status >= 400 && over.status < 500);
    assert.equal(over.body.limit, 50);
  });
});
