import assert from 'node:assert/strict';
import { createHash, createHmac } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { startApp, type TestApp, TestClock } from '../../helpers/app.ts';
import { startSmtp } from '../../helpers/receivers.ts';
import { createUser, loginCookie, send, type TestUser } from '../../helpers/users.ts';

// Notification preferences over a real listening server with real accounts.

const ORIGIN = 'https://dashboard.example.com';
const ROUTING_KEY = 'R0ABCDEF1234567890abcdef12345678';

describe('notification preferences', () => {
  let t: TestApp;
  let clock: TestClock;
  let a: TestUser;
  let b: TestUser;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  const url = (path = '') => `${t.api}/notification-preferences${path}`;
  const get = (u: TestUser) => send(url(), 'GET', u.headers);
  const put = (u: TestUser, body: unknown) => send(url(), 'PUT', u.headers, body);

  before(async () => {
    clock = new TestClock(new Date('2026-03-01T12:00:00Z'));
    // E-mail alerts can only be switched on where an SMTP server is configured.
    smtp = await startSmtp();
    t = await startApp({
      clock,
      env: {
        API_KEY_MIN_PLAN: 'free',
        WEB_ORIGINS: ORIGIN,
        OUTBOUND_ALLOW_PRIVATE: '127.0.0.1,receiver.test',
        SMTP_URL: smtp.url,
        PUBLIC_URL: 'https://status.example.com',
      },
    });
    [a, b] = await Promise.all([createUser(t, 'free'), createUser(t, 'pro')]);
  });
  after(async () => {
    await t.close();
    await smtp.close();
  });

  test('every preferences endpoint needs a key or a session: 401 otherwise', async () => {
    for (const [method, path, body] of [
      ['GET', ''],
      ['PUT', '', { in_app: { enabled: false } }],
      ['POST', '/webhook/rotate-secret'],
      ['POST', '/rss/rotate-token'],
    ] as const) {
      const r = await send(url(path), method, {}, body);
      assert.equal(r.status, 401, `${method} ${path}`);
      assert.equal(r.body.error, 'unauthorized');
    }
  });

  test('defaults: in-app on, everything else off, nothing secret set', async () => {
    const r = await get(await createUser(t, 'free'));
    assert.equal(r.status, 200);
    assert.equal(r.body.success, true);
    const p = r.body.preferences;
    assert.deepEqual(p.in_app, { enabled: true });
    assert.deepEqual(p.email, { enabled: false, address: null, digest: 'off', address_status: 'confirmed', alert_on: null });
    assert.deepEqual(p.webhook, { enabled: false, url: null, format: 'standard', vendors: null, secret: null, alert_on: null });
    assert.deepEqual(p.pagerduty, { enabled: false, routing_key: null, vendors: null, alert_on: null });
    assert.equal(p.timezone, 'UTC');
    assert.deepEqual(p.quiet_hours, { enabled: false, start: '22:00', end: '07:00' });
    assert.deepEqual(p.maintenance_reminders, { lead_times: [], started: true, completed: true });
    assert.deepEqual(p.rss, { enabled: false, feed_url: null });
    assert.deepEqual(p.slack_connection, { connected: false, team: null, connected_at: null });
    assert.deepEqual(p.muted_vendors, []);
    assert.equal(p.content_filters.min_impact, 'none');
    assert.ok(p.content_filters.event_types.includes('incident.created'));
    assert.equal(r.body.shownOnce, undefined);
  });

  test('round trip: a partial PUT merges, GET shows merged values, secrets masked', async () => {
    const u = await createUser(t, 'free');
    const first = await put(u, {
      email: { enabled: true, address: 'oncall@example.com' },
      webhook: { enabled: true, url: 'https://hooks.example.com/vendor-status', vendors: ['github', 'github', 'stripe'] },
      pagerduty: { enabled: true, routing_key: ROUTING_KEY },
      muted_vendors: ['zoom'],
    });
    assert.equal(first.status, 200);
    const secret: string = first.body.preferences.webhook.secret;
    assert.match(secret, /^whsec_[A-Za-z0-9+/]{43}=$/, 'a new webhook gets a whsec_ secret, shown in clear once');
    assert.deepEqual(first.body.shownOnce, ['webhook.secret']);
    assert.equal(first.headers.get('cache-control'), 'no-store');
    assert.equal(first.body.preferences.pagerduty.routing_key, `****${ROUTING_KEY.slice(-4)}`);

    const second = await put(u, { email: { digest: 'daily' }, content_filters: { min_impact: 'major' } });
    assert.equal(second.status, 200);
    assert.equal(second.body.shownOnce, undefined, 'an existing secret is not shown again');

    const r = await get(u);
    const p = r.body.preferences;
    assert.deepEqual(p.email, { enabled: true, address: 'oncall@example.com', digest: 'daily', address_status: 'pending', alert_on: null });
    assert.equal(p.content_filters.min_impact, 'major');
    assert.deepEqual(p.content_filters.event_types, second.body.preferences.content_filters.event_types, 'untouched keys of a merged object stay');
    assert.equal(p.webhook.enabled, true);
    assert.equal(p.webhook.url, 'https://hooks.example.com/vendor-status');
    assert.deepEqual(p.webhook.vendors, ['github', 'stripe']);
    assert.equal(p.webhook.secret, `****${secret.slice(-4)}`);
    assert.equal(p.pagerduty.routing_key, `****${ROUTING_KEY.slice(-4)}`);
    assert.deepEqual(p.muted_vendors, ['zoom']);
    const text = JSON.stringify(r.body);
    assert.ok(!text.includes(secret) && !text.includes(ROUTING_KEY), 'no secret in clear');

    // The GET body sent back as it is changes nothing (read-only and masked fields included).
    const back = await put(u, p);
    assert.equal(back.status, 200, JSON.stringify(back.body));
    assert.deepEqual((await get(u)).body, r.body);
    assert.deepEqual(await t.app.services.preferences.webhookSigningSecrets(u.id), [secret]);
    const stored = await t.repos.preferences.get(u.id);
    assert.equal(stored.pagerdutyRoutingKey, ROUTING_KEY, 'the masked value did not overwrite the key');
  });

  test('slack_connection is ignored on update', async () => {
    const u = await createUser(t, 'free');
    const r = await put(u, { slack_connection: { connected: true, team: 'x' }, slack: { enabled: true } });
    assert.equal(r.status, 200);
    assert.deepEqual(r.body.preferences.slack_connection, { connected: false, team: null, connected_at: null });
    assert.equal(r.body.preferences.slack.enabled, true);
  });

  test('unknown keys: 400 naming every one of them, nothing changed', async () => {
    const u = await createUser(t, 'free');
    const before = (await get(u)).body;
    const r = await put(u, { emali: { enabled: true }, webhook: { url: 'https://hooks.example.com/x', sekret: 'x' }, in_app: { on: true } });
    assert.equal(r.status, 400);
    assert.equal(r.body.error, 'invalid_parameter');
    for (const name of ['emali', 'webhook.sekret', 'in_app.on']) assert.ok(r.body.message.includes(`'${name}'`), r.body.message);
    assert.deepEqual(r.body.unknownFields.sort(), ['emali', 'in_app.on', 'webhook.sekret']);
    assert.deepEqual((await get(u)).body, before);
  });

  test('values are validated: 400 naming the field, nothing changed', async () => {
    const u = await createUser(t, 'free');
    await put(u, { email: { enabled: true, address: 'keep@example.com' } });
    const before = (await get(u)).body;
    const cases: [unknown, string][] = [
      [{ email: { address: 'not-an-address' } }, 'email.address'],
      [{ email: { digest: 'weekly' } }, 'email.digest'],
      [{ email: { enabled: 'true' } }, 'email.enabled'],
      [{ webhook: { url: 'http://hooks.example.com/x' } }, 'webhook.url'],
      [{ webhook: { url: 'https://10.0.0.5/x' } }, 'webhook.url'],
      [{ webhook: { url: 'https://169.254.169.254/latest' } }, 'webhook.url'],
      [{ webhook: { url: 'https://[::1]/x' } }, 'webhook.url'],
      [{ webhook: { url: 'https://localhost/x' } }, 'webhook.url'],
      [{ webhook: { url: 'not a url' } }, 'webhook.url'],
      [{ webhook: { format: 'msteams' } }, 'webhook.format'],
      [{ webhook: { enabled: true } }, 'webhook.url'],
      [{ webhook: null }, 'webhook'],
      [{ pagerduty: { routing_key: 'too-short' } }, 'pagerduty.routing_key'],
      [{ pagerduty: { enabled: true } }, 'pagerduty.routing_key'],
      [{ pagerduty: { routing_key: '****zzzz' } }, 'pagerduty.routing_key'],
      [{ muted_vendors: ['github', 'no-such-vendor'] }, 'muted_vendors'],
      [{ slack: { vendors: ['no-such-vendor'] } }, 'slack.vendors'],
      [{ muted_vendors: ['Bad Slug'] }, 'muted_vendors[0]'],
      [{ content_filters: { min_impact: 'huge' } }, 'content_filters.min_impact'],
      [{ content_filters: { event_types: ['incident.exploded'] } }, 'content_filters.event_types[0]'],
      [{ content_filters: { event_types: [] } }, 'content_filters.event_types'],
      [[], 'body'],
      ['{"broken json', 'body'],
    ];
    for (const [body, field] of cases) {
      const r = await put(u, body);
      assert.equal(r.status, 400, `${JSON.stringify(body)} -> ${r.status} ${JSON.stringify(r.body)}`);
      assert.equal(r.body.success, false);
      if (field !== 'body' || typeof body !== 'string') assert.ok(r.body.message.includes(field), `${JSON.stringify(body)}: ${r.body.message}`);
    }
    const unknownVendor = await put(u, { muted_vendors: ['github', 'no-such-vendor'] });
    assert.match(unknownVendor.body.message, /no-such-vendor/);
    assert.deepEqual((await get(u)).body, before);
  });

  test('http and private hosts are accepted only when allow-listed (OUTBOUND_ALLOW_PRIVATE)', async () => {
    const u = await createUser(t, 'free');
    assert.equal((await put(u, { webhook: { url: 'http://127.0.0.1:9000/hook' } })).status, 200);
    assert.equal((await put(u, { webhook: { url: 'https://receiver.test/hook' } })).status, 200);
    assert.equal((await put(u, { webhook: { url: 'http://127.0.0.2:9000/hook' } })).status, 400);
  });

  test('a Discord webhook URL gets the discord format', async () => {
    const u = await createUser(t, 'free');
    const r = await put(u, { webhook: { enabled: true, url: 'https://discord.com/api/webhooks/123/token' } });
    assert.equal(r.body.preferences.webhook.format, 'discord');
  });

  test('webhook secret: rotation shows the new one once, the old one signs for 24 h; removing the webhook drops it', async () => {
    const u = await createUser(t, 'free');
    const none = await send(url('/webhook/rotate-secret'), 'POST', u.headers);
    assert.equal(none.status, 409, 'nothing to rotate without a webhook');
    const created = (await put(u, { webhook: { enabled: true, url: 'https://hooks.example.com/a' } })).body.preferences.webhook.secret;

    const rotated = await send(url('/webhook/rotate-secret'), 'POST', u.headers);
    assert.equal(rotated.status, 200);
    const fresh: string = rotated.body.preferences.webhook.secret;
    assert.match(fresh, /^whsec_/);
    assert.notEqual(fresh, created);
    assert.deepEqual(rotated.body.shownOnce, ['webhook.secret']);
    assert.equal(rotated.body.preferences.webhook.previous_secret_expires_at, '2026-03-02T12:00:00.000Z');
    const afterBody = (await get(u)).body;
    const after = afterBody.preferences.webhook;
    assert.equal(after.secret, `****${fresh.slice(-4)}`);
    assert.equal((await put(u, afterBody.preferences)).status, 200, 'a GET body after a rotation round-trips too');
    assert.deepEqual((await get(u)).body, afterBody);
    assert.deepEqual(await t.app.services.preferences.webhookSigningSecrets(u.id), [fresh, created]);

    // The generated secret is a valid Standard Webhooks key.
    const body = JSON.stringify({ type: 'incident.created', timestamp: '2026-03-01T12:00:00Z', data: {} });
    const ts = Math.floor(Date.now() / 1000);
    const sig = createHmac('sha256', Buffer.from(fresh.slice('whsec_'.length), 'base64'))
      .update(`msg_1.${ts}.${body}`)
      .digest('base64');
    assert.ok(new Webhook(fresh).verify(body, { 'webhook-id': 'msg_1', 'webhook-timestamp': String(ts), 'webhook-signature': `v1,${sig}` }));

    clock.advance(24 * 3_600_000 + 1000);
    assert.deepEqual(await t.app.services.preferences.webhookSigningSecrets(u.id), [fresh]);
    assert.equal((await get(u)).body.preferences.webhook.previous_secret_expires_at, undefined);

    const removed = await put(u, { webhook: { enabled: false, url: null } });
    assert.equal(removed.body.preferences.webhook.secret, null);
    assert.deepEqual(await t.app.services.preferences.webhookSigningSecrets(u.id), []);
    const again = await put(u, { webhook: { url: 'https://hooks.example.com/b' } });
    assert.match(again.body.preferences.webhook.secret, /^whsec_/, 'a new webhook gets a new secret');
    assert.notEqual(again.body.preferences.webhook.secret, fresh);
  });

  test('RSS: the feed URL is shown once, stored only as a hash, and resolves to its owner', async () => {
    const u = await createUser(t, 'free');
    const none = await send(url('/rss/rotate-token'), 'POST', u.headers);
    assert.equal(none.status, 409);
    const on = await put(u, { rss: { enabled: true } });
    const feedUrl: string = on.body.preferences.rss.feed_url;
    const m = /^\/api\/v1\/feeds\/([A-Za-z0-9_-]{43})\.rss$/.exec(feedUrl);
    assert.ok(m, feedUrl);
    const token = m[1]!;
    assert.deepEqual(on.body.shownOnce, ['rss.feed_url']);
    assert.equal((await get(u)).body.preferences.rss.feed_url, `/api/v1/feeds/****${token.slice(-4)}.rss`);
    assert.equal(await t.app.services.preferences.userForFeedToken(token), u.id);

    const row = await t.store.db.selectFrom('notification_preferences').selectAll().where('org_id', '=', u.id).executeTakeFirstOrThrow();
    assert.equal(row.rss_token_hash, createHash('sha256').update(token).digest('hex'));
    assert.ok(!JSON.stringify(row).includes(token), 'the token itself is not stored');

    // Switching off and on keeps the URL; rotating replaces it.
    await put(u, { rss: { enabled: false } });
    const onAgain = await put(u, { rss: { enabled: true } });
    assert.equal(onAgain.body.shownOnce, undefined);
    const rotated = await send(url('/rss/rotate-token'), 'POST', u.headers);
    assert.equal(rotated.status, 200);
    const newToken = /feeds\/(.+)\.rss$/.exec(rotated.body.preferences.rss.feed_url)![1]!;
    assert.notEqual(newToken, token);
    assert.equal(await t.app.services.preferences.userForFeedToken(token), null, 'the old URL stops working');
    assert.equal(await t.app.services.preferences.userForFeedToken(newToken), u.id);
    assert.equal(await t.app.services.preferences.userForFeedToken('****'), null);
  });

  test("one user's calls never read or change another's preferences", async () => {
    const ra = await put(a, { webhook: { enabled: true, url: 'https://a.example.com/hook' }, muted_vendors: ['github'] });
    const secretA: string = ra.body.preferences.webhook.secret;
    const rb = await put(b, { email: { enabled: true, address: 'b@example.com' }, rss: { enabled: true } });
    assert.equal(rb.status, 200);
    await send(url('/webhook/rotate-secret'), 'POST', b.headers).then((r) => assert.equal(r.status, 409, "b has no webhook; a's is not b's"));
    await send(url('/rss/rotate-token'), 'POST', b.headers);
    const ga = (await get(a)).body.preferences;
    assert.equal(ga.webhook.url, 'https://a.example.com/hook');
    assert.equal(ga.webhook.secret, `****${secretA.slice(-4)}`);
    assert.deepEqual(ga.muted_vendors, ['github']);
    assert.equal(ga.email.enabled, false);
    assert.equal(ga.rss.enabled, false);
    const gb = (await get(b)).body.preferences;
    assert.equal(gb.webhook.url, null);
    assert.deepEqual(gb.muted_vendors, []);
    assert.deepEqual(await t.app.services.preferences.webhookSigningSecrets(a.id), [secretA]);
  });

  test('partial updates sent together all land', async () => {
    const u = await createUser(t, 'free');
    const patches = [
      { email: { enabled: true } },
      { email: { digest: 'hourly' } },
      { in_app: { enabled: false } },
      { slack: { enabled: true } },
      { newsletter: { enabled: true } },
      { content_filters: { min_impact: 'critical' } },
      { content_filters: { components: ['API'] } },
      { muted_vendors: ['zoom'] },
      { webhook: { url: 'https://hooks.example.com/c' } },
      { rss: { enabled: true } },
    ];
    const results = await Promise.all(patches.map((p) => put(u, p)));
    assert.ok(results.every((r) => r.status === 200));
    const p = (await get(u)).body.preferences;
    assert.deepEqual(p.email, { enabled: true, address: null, digest: 'hourly', alert_on: null, address_status: 'confirmed' });
    assert.equal(p.in_app.enabled, false);
    assert.equal(p.slack.enabled, true);
    assert.equal(p.newsletter.enabled, true);
    assert.deepEqual([p.content_filters.min_impact, p.content_filters.components], ['critical', ['API']]);
    assert.deepEqual(p.muted_vendors, ['zoom']);
    assert.equal(p.webhook.url, 'https://hooks.example.com/c');
    assert.match(p.webhook.secret, /^\*{4}/);
    assert.equal(p.rss.enabled, true);
  });

  test('a web session reads and updates with an allowed Origin', async () => {
    const u = await createUser(t, 'free');
    const cookie = await loginCookie(t, u);
    assert.equal((await send(url(), 'PUT', { cookie }, { newsletter: { enabled: true } })).status, 403, 'no Origin');
    const r = await send(url(), 'PUT', { cookie, origin: ORIGIN }, { newsletter: { enabled: true } });
    assert.equal(r.status, 200);
    assert.equal((await send(url(), 'GET', { cookie })).body.preferences.newsletter.enabled, true);
  });
});
