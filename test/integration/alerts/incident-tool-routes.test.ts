import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { getJson, startApp, type TestApp } from '../../helpers/app.ts';
import { emit, incident } from '../../helpers/alerts.ts';
import { type HttpReceiver, startReceiver } from '../../helpers/receivers.ts';
import { createUser, loginCookie, send, type TestUser } from '../../helpers/users.ts';

// Alert routes into the incident tools teams use (docs/alerts.md "incident.io", "Datadog",
// "Mattermost", "Telegram"): each fake answers as the product documents, checks the
// credential the product checks, and every body sent is validated against the OpenAPI
// document's x-webhooks schemas. Secrets are sealed at rest and masked.

const TG_TOKEN = '123456789:AAHfiqksKZ8WmR2zSjiQ7_v4TMAKdiHm9T0';
const DD_KEY = '0123456789abcdef0123456789abcdef';
const IO_TOKEN = 'inc-io-source-secret-0123456789';

describe('alert routes: incident.io, Datadog, Mattermost, Telegram', () => {
  let t: TestApp;
  let rx: HttpReceiver;
  let owner: TestUser;
  let cookie: string;
  let orgId: string;
  const s = () => ({ cookie, origin: t.url });
  const routes = () => `${t.url}/api/v1/orgs/${orgId}/alert-routes`;
  const all = { kinds: ['created', 'updated', 'resolved'] };

  before(async () => {
    rx = await startReceiver((req) => {
      if (req.path.startsWith('/incident-io/')) {
        if (req.headers.authorization !== `Bearer ${IO_TOKEN}`) return { status: 401, body: '{"type":"authentication_error"}' };
        return { status: 202, headers: { 'content-type': 'application/json' }, body: '{"status":"success","message":"Event accepted for processing"}' };
      }
      if (req.path === '/datadog/api/v2/events') {
        if (req.headers['dd-api-key'] !== DD_KEY) return { status: 403, body: '{"errors":["Forbidden"]}' };
        return { status: 202, headers: { 'content-type': 'application/json' }, body: '{"data":{"type":"event"}}' };
      }
      if (req.path.startsWith('/hooks/')) return { status: 200, headers: { 'content-type': 'text/plain' }, body: 'ok' };
      if (req.path === `/bot${TG_TOKEN}/sendMessage`) {
        const chat = JSON.parse(req.body).chat_id;
        if (chat === -1009999)
          return {
            status: 400,
            headers: { 'content-type': 'application/json' },
            body: '{"ok":false,"error_code":400,"description":"Bad Request: chat not found"}',
          };
        return { status: 200, headers: { 'content-type': 'application/json' }, body: '{"ok":true,"result":{"message_id":1}}' };
      }
      return { status: 404 };
    });
    t = await startApp({
      env: { DELIVER: 'off', OUTBOUND_ALLOW_PRIVATE: '127.0.0.1', DATADOG_EVENTS_URL: `${rx.url}/datadog/api/v2/events`, TELEGRAM_API_URL: rx.url },
    });
    owner = await createUser(t, 'pro');
    cookie = await loginCookie(t, owner);
    orgId = (await send(`${t.url}/api/v1/orgs`, 'POST', s(), { name: 'Tools team' })).body.organisation.id;
    assert.equal((await send(`${t.url}/api/v1/orgs/${orgId}/switch`, 'POST', s())).status, 200);
  });
  after(async () => {
    await t?.close();
    await rx?.close();
  });

  test('an incident opens, updates and resolves one alert in each tool; bodies match the published schemas', async () => {
    const made = [
      await send(routes(), 'POST', s(), {
        name: 'io',
        destination: { channel: 'incident_io', url: `${rx.url}/incident-io/v2/alert_events/http/01HXYZ`, token: IO_TOKEN },
        filters: { vendors: ['github'], ...all },
      }),
      await send(routes(), 'POST', s(), {
        name: 'dd',
        destination: { channel: 'datadog', site: 'datadoghq.eu', apiKey: DD_KEY },
        filters: { vendors: ['github'], ...all },
      }),
      await send(routes(), 'POST', s(), {
        name: 'mm',
        destination: { channel: 'mattermost', url: `${rx.url}/hooks/abc123` },
        filters: { vendors: ['github'], ...all },
      }),
      await send(routes(), 'POST', s(), {
        name: 'tg',
        destination: { channel: 'telegram', botToken: TG_TOKEN, chatId: '-1001234567890' },
        filters: { vendors: ['github'], ...all },
      }),
    ];
    for (const m of made) assert.equal(m.status, 201, JSON.stringify(m.body));
    assert.deepEqual(made[0]!.body.route.destination, {
      channel: 'incident_io',
      url: `${new URL(rx.url).protocol}//${new URL(rx.url).host}/****`,
      token: `****${IO_TOKEN.slice(-4)}`,
    });
    assert.deepEqual(made[1]!.body.route.destination, { channel: 'datadog', site: 'datadoghq.eu', apiKey: `****${DD_KEY.slice(-4)}` });
    assert.deepEqual(made[3]!.body.route.destination, { channel: 'telegram', botToken: `****${TG_TOKEN.slice(-4)}`, chatId: '-1001234567890' });
    const stored = JSON.stringify(await t.store.db.selectFrom('alert_routes').selectAll().execute());
    for (const secret of [IO_TOKEN, DD_KEY, TG_TOKEN, 'abc123']) assert.ok(!stored.includes(secret), `${secret.slice(0, 6)}… sealed at rest`);

    // A service of the organisation that depends on GitHub: every tool names it.
    const svc = await send(`${t.url}/api/v1/orgs/${orgId}/services`, 'POST', s(), {
      name: 'checkout-api',
      criticality: 'critical',
      dependencies: [{ vendor: 'github' }],
    });
    assert.equal(svc.status, 201, JSON.stringify(svc.body));
    // Vendor text that tries markup and mentions.
    const inc = incident('github', { impact: 'major', title: '@channel <b>Actions</b> [click](https://evil.example) & co' });
    await emit(t, 'incident.created', inc);
    await t.app.alerts.runOnce();
    await emit(t, 'incident.resolved', inc);
    await t.app.alerts.runOnce();

    const io = rx.requests.filter((r) => r.path.startsWith('/incident-io/')).map((r) => JSON.parse(r.body));
    assert.deepEqual(
      io.map((b) => b.status),
      ['firing', 'resolved'],
    );
    assert.equal(io[0].deduplication_key, io[1].deduplication_key);
    assert.equal(io[0].deduplication_key, `github:${inc.id}`);

    const dd = rx.requests.filter((r) => r.path.startsWith('/datadog/')).map((r) => JSON.parse(r.body));
    assert.deepEqual(
      dd.map((b) => b.data.attributes.attributes.status),
      ['error', 'ok'],
    );
    assert.equal(dd[0].data.attributes.aggregation_key, dd[1].data.attributes.aggregation_key);
    assert.equal(dd[0].data.attributes.attributes.priority, '2');

    const mm = rx.requests.filter((r) => r.path.startsWith('/hooks/')).map((r) => JSON.parse(r.body));
    assert.equal(mm.length, 2);
    // No mention fires and no link is planted by the vendor's title.
    assert.ok(!/(^|[^\\])@channel/.test(mm[0].text.replace(/@\u200b/g, '')), mm[0].text);
    assert.ok(mm[0].text.includes('@\u200bchannel'));
    assert.ok(mm[0].text.includes('\\[click\\]\\(https://evil\\.example\\)'), mm[0].text);

    const tg = rx.requests.filter((r) => r.path.includes('/sendMessage')).map((r) => JSON.parse(r.body));
    assert.equal(tg.length, 2);
    assert.equal(tg[0].chat_id, -1001234567890);
    assert.equal(tg[0].parse_mode, 'HTML');
    assert.ok(tg[0].text.includes('&lt;b&gt;Actions&lt;/b&gt;'), tg[0].text);
    assert.ok(!tg[0].text.includes('<b>Actions</b>'));

    assert.match(io[0].metadata.services, /checkout-api \(critical\)/);
    assert.match(dd[0].data.attributes.message, /Services: .*checkout-api/);
    assert.ok(mm[0].attachments[0].fields.some((f: { title: string; value: string }) => f.title === 'Services' && f.value.includes('checkout')));
    assert.match(tg[0].text, /Services: .*checkout-api/);

    const doc = (await getJson(`${t.url}/openapi.json`)).body;
    const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: true, logger: false });
    addFormats.default(ajv);
    ajv.addSchema(doc, 'doc');
    const check = (schema: string, body: unknown) => {
      const v = ajv.compile({ $ref: `doc#/components/schemas/${schema}` });
      assert.ok(v(body), `${schema}: ${JSON.stringify(v.errors)}`);
    };
    for (const b of io) check('IncidentIoAlertEvent', b);
    for (const b of dd) check('DatadogEvent', b);
    for (const b of mm) check('MattermostMessage', b);
    for (const b of tg) check('TelegramSendMessage', b);
  });

  test('refusals: the reason is kept, a gone destination switches its route off, a token never reaches the log', async () => {
    const tg = await send(routes(), 'POST', s(), {
      name: 'tg lost',
      destination: { channel: 'telegram', botToken: TG_TOKEN, chatId: '-1009999' },
      filters: { vendors: ['stripe'] },
    });
    const mm = await send(routes(), 'POST', s(), {
      name: 'mm gone',
      destination: { channel: 'mattermost', url: `${rx.url}/gone/hook` },
      filters: { vendors: ['stripe'] },
    });
    const dd = await send(routes(), 'POST', s(), {
      name: 'dd wrong',
      destination: { channel: 'datadog', site: 'datadoghq.com', apiKey: 'ffffffffffffffffffffffffffffffff' },
      filters: { vendors: ['stripe'] },
    });
    for (const r of [tg, mm, dd]) assert.equal(r.status, 201, JSON.stringify(r.body));
    await emit(t, 'incident.created', incident('stripe', { impact: 'critical' }));
    await t.app.alerts.runOnce();
    const rowOf = async (id: string) => await t.store.db.selectFrom('deliveries').selectAll().where('route_id', '=', id).executeTakeFirstOrThrow();
    const tgRow = await rowOf(tg.body.route.id);
    assert.match(String(tgRow.last_error), /Telegram: HTTP 400: Bad Request: chat not found/);
    assert.ok(!String(tgRow.last_error).includes(TG_TOKEN.split(':')[1]!));
    assert.match(String((await rowOf(dd.body.route.id)).last_error), /Datadog: HTTP 403/);
    assert.match(String((await rowOf(mm.body.route.id)).last_error), /Mattermost: HTTP 404/);
    const gone = await getJson(`${routes()}/${mm.body.route.id}`, { headers: { cookie } });
    assert.equal(gone.body.route.enabled, false);
    assert.match(gone.body.route.disabledReason, /Mattermost: HTTP 404/);
  });

  test('hostile destinations are refused with the field named, never stored', async () => {
    const bad: [string, unknown][] = [
      ['telegram token', { channel: 'telegram', botToken: 'not-a-token', chatId: '-100' }],
      ['telegram chat', { channel: 'telegram', botToken: TG_TOKEN, chatId: '-100; drop' }],
      ['telegram chat control', { channel: 'telegram', botToken: TG_TOKEN, chatId: '@chan\nnel' }],
      ['datadog site', { channel: 'datadog', site: 'evil.example', apiKey: DD_KEY }],
      ['datadog key', { channel: 'datadog', site: 'datadoghq.com', apiKey: 'XYZ' }],
      ['incident.io private url', { channel: 'incident_io', url: 'https://169.254.169.254/latest', token: IO_TOKEN }],
      ['incident.io http', { channel: 'incident_io', url: 'http://api.incident.io/v2/alert_events/http/x', token: IO_TOKEN }],
      ['incident.io token', { channel: 'incident_io', url: 'https://api.incident.io/v2/alert_events/http/x', token: 'has space' }],
      ['mattermost credentials', { channel: 'mattermost', url: 'https://user:pw@chat.example.com/hooks/x' }],
      ['unknown field', { channel: 'mattermost', url: 'https://chat.example.com/hooks/x', channel_name: 'town-square' }],
    ];
    const before = (await t.store.db.selectFrom('alert_routes').select('id').execute()).length;
    for (const [why, destination] of bad) {
      const r = await send(routes(), 'POST', s(), { name: 'bad', destination });
      assert.equal(r.status, 400, `${why}: ${JSON.stringify(r.body)}`);
      assert.equal(r.body.success, false);
    }
    assert.equal((await t.store.db.selectFrom('alert_routes').select('id').execute()).length, before);
  });
});
