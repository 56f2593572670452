import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type net from 'node:net';
import { Writable } from 'node:stream';
import { test } from 'node:test';
import { signatureOf } from '../../src/domain/early-warning-signing.ts';
import { keyIdOf, secretBox } from '../../src/infra/secret-box.ts';
import { createProbeRunner, type ProbeRunner } from '../../src/probes/index.ts';
import { getJson, startApp, TestClock, type TestApp } from '../helpers/app.ts';
import { pagerDutyReply, startReceiver } from '../helpers/receivers.ts';
import { createUser, loginCookie, send } from '../helpers/users.ts';

// docs/security.md "Channel secrets": secrets stored in clear before encryption
// at rest are sealed at start-up, and after SECRETS_KEY is rotated (old key in
// SECRETS_KEY_PREVIOUS) every value is read and rewritten with the new key.

const ROUTING_KEY = 'R0tat10nKeyF0rPagerDutyTest00042';

test('clear secrets are sealed at start-up; a rotated key re-seals everything and alerts still go out', async () => {
  const k1 = randomBytes(32).toString('hex');
  const k2 = randomBytes(32).toString('hex');
  const pd = await startReceiver(pagerDutyReply);
  const env = { DELIVER: 'off', PAGERDUTY_EVENTS_URL: `${pd.url}/v2/enqueue` };
  const a = await startApp({ env: { ...env, SECRETS_KEY: k1 } });
  let b: Awaited<ReturnType<typeof startApp>> | null = null;
  try {
    const u = await createUser(a);
    const h = u.headers;
    assert.equal((await send(`${a.api}/notification-preferences`, 'PUT', h, { pagerduty: { enabled: true, routing_key: ROUTING_KEY } })).status, 200);
    const row = () => a.store.db.selectFrom('notification_preferences').selectAll().where('org_id', '=', u.id).executeTakeFirstOrThrow();
    assert.match(String((await row()).pagerduty_routing_key), new RegExp(`^sb1:${keyIdOf(Buffer.from(k1, 'hex'))}:`));

    // A row as written before encryption at rest: the key in clear.
    await a.store.db.updateTable('notification_preferences').set({ pagerduty_routing_key: ROUTING_KEY }).where('org_id', '=', u.id).execute();

    // Next start: new key, old key still accepted for reading.
    b = await startApp({ shareStoreWith: a, env: { ...env, SECRETS_KEY: k2, SECRETS_KEY_PREVIOUS: k1 } });
    const after = await row();
    assert.match(String(after.pagerduty_routing_key), new RegExp(`^sb1:${keyIdOf(Buffer.from(k2, 'hex'))}:`));
    assert.ok(!String(after.pagerduty_routing_key).includes(ROUTING_KEY));
    const got = await getJson(`${b.api}/notification-preferences`, { headers: h });
    assert.equal(got.body.preferences.pagerduty.routing_key, `****${ROUTING_KEY.slice(-4)}`);
    const sentTest = await send(`${b.api}/notification-preferences/test`, 'POST', h, { channel: 'pagerduty' });
    assert.equal(sentTest.body.delivered, true, JSON.stringify(sentTest.body));
    assert.equal(JSON.parse(pd.requests.at(-1)!.body).routing_key, ROUTING_KEY);
  } finally {
    await b?.close();
    await a.close();
    await pd.close();
  }
});

// Private probes' credentials and telemetry connectors' tokens are sealed outside the
// preferences row: the start-up pass re-seals them too, so once SECRETS_KEY_PREVIOUS is
// dropped the probe still authenticates and the connector still reads; a value left on a
// key the instance no longer has is unreadable for its own row only (no request sent).
test('a rotation re-seals private probes and telemetry connectors; after the old key is dropped both still authenticate', async () => {
  const k1 = randomBytes(32).toString('hex');
  const k2 = randomBytes(32).toString('hex');
  const CREDENTIAL = 'Bearer probe-credential-rotation-0042';
  const TOKEN = 'prom-rotation-token-0042';
  const probeAuth: (string | undefined)[] = [];
  const promAuth: (string | undefined)[] = [];
  const listen = async (srv: http.Server) => {
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
    return (srv.address() as net.AddressInfo).port;
  };
  const target = http.createServer((req, res) => {
    probeAuth.push(req.headers.authorization);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{}');
  });
  // Prometheus' HTTP API (instant query, vector answer), behind a proxy that checks the bearer token.
  const prometheus = http.createServer((req, res) => {
    promAuth.push(req.headers.authorization);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ status: 'success', data: { resultType: 'vector', result: [{ metric: {}, value: [Date.now() / 1000, '0.01'] }] } }));
  });
  const targetPort = await listen(target);
  const promPort = await listen(prometheus);
  const clock = new TestClock(new Date('2026-11-29T12:00:00Z'));
  const env = { DELIVER: 'off', OUTBOUND_ALLOW_PRIVATE: 'localhost,127.0.0.1' };
  const apps: TestApp[] = [];
  const runners: ProbeRunner[] = [];
  const start = async (keys: Record<string, string>) => {
    const made = await startApp({ clock, ...(apps[0] ? { shareStoreWith: apps[0] } : {}), env: { ...env, ...keys } });
    apps.push(made);
    // Only the probe made here runs: the catalog's real endpoints are out of reach in tests.
    await made.app.services.earlyWarning.probes.syncCatalog([]);
    return made;
  };
  const probeRound = (t: TestApp) => {
    const r = createProbeRunner({
      probes: t.app.services.earlyWarning.probes,
      allowList: ['localhost'],
      concurrency: 2,
      hostConcurrency: 2,
      timeoutMs: 2000,
      tickMs: 60_000,
      now: () => clock.now().getTime(),
      log: t.app.log,
      owner: `rotation-${runners.length}`,
    });
    runners.push(r);
    return r.runOnce();
  };
  const sealedWith = (key: string) => new RegExp(`^sb1:${keyIdOf(Buffer.from(key, 'hex'))}:`);
  try {
    const a = await start({ SECRETS_KEY: k1 });
    const owner = await createUser(a, 'pro');
    const cookie = await loginCookie(a, owner);
    const s = { cookie, origin: a.url };
    const orgId = (await send(`${a.url}/api/v1/orgs`, 'POST', s, { name: 'Rotation team' })).body.organisation.id;
    assert.equal((await send(`${a.url}/api/v1/orgs/${orgId}/switch`, 'POST', s)).status, 200);
    const probe = await send(`${a.url}/api/v1/orgs/${orgId}/probes`, 'POST', s, {
      vendor: 'github',
      kind: 'http',
      target: `http://localhost:${targetPort}/user`,
      expect: [200],
      intervalSeconds: 30,
      credential: { name: 'Authorization', value: CREDENTIAL },
    });
    assert.equal(probe.status, 201, JSON.stringify(probe.body));
    const connector = (name: string) => ({
      name,
      baseUrl: `http://127.0.0.1:${promPort}`,
      token: TOKEN,
      queries: [{ vendor: 'stripe', query: 'max(vendor_error_ratio)', threshold: 0.2, durationSeconds: 60 }],
    });
    const made = await send(`${a.url}/api/v1/orgs/${orgId}/telemetry-connectors`, 'POST', s, connector('prod'));
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const probeId: string = probe.body.probe.id;
    const connectorId: string = made.body.connector.id;
    const stored = async () => ({
      credential: (await a.store.db.selectFrom('probes').select('credential_value').where('id', '=', probeId).executeTakeFirstOrThrow()).credential_value,
      token: (await a.store.db.selectFrom('telemetry_connectors').select('token').where('id', '=', connectorId).executeTakeFirstOrThrow()).token,
    });
    assert.match(String((await stored()).credential), sealedWith(k1));
    assert.match(String((await stored()).token), sealedWith(k1));

    // Rotation: new key, old key still accepted for reading; the start-up pass re-seals.
    await start({ SECRETS_KEY: k2, SECRETS_KEY_PREVIOUS: k1 });
    const after = await stored();
    assert.match(String(after.credential), sealedWith(k2));
    assert.match(String(after.token), sealedWith(k2));
    assert.ok(!String(after.credential).includes('probe-credential') && !String(after.token).includes(TOKEN));

    // The old key dropped: the values are read with the new one alone.
    const c = await start({ SECRETS_KEY: k2 });
    clock.advance(3_600_000);
    assert.equal((await probeRound(c)).measured, 1);
    assert.deepEqual(probeAuth, [CREDENTIAL], 'the probe sends its credential');
    const got = (await send(`${c.url}/api/v1/orgs/${orgId}/probes/${probeId}`, 'GET', { cookie })).body.probe;
    assert.equal(got.state, 'ok', JSON.stringify(got));
    assert.equal((await c.app.telemetryRunner.runOnce()).evaluated, 1);
    assert.deepEqual(promAuth, [`Bearer ${TOKEN}`], 'the connector sends its token');
    const read = (await send(`${c.url}/api/v1/orgs/${orgId}/telemetry-connectors/${connectorId}`, 'GET', { cookie })).body.connector;
    assert.equal(read.health, 'ok', JSON.stringify(read));

    // A token only the dropped key opens: that connector alone is unhealthy, no request goes out for it.
    const stale = await send(`${c.url}/api/v1/orgs/${orgId}/telemetry-connectors`, 'POST', { cookie, origin: c.url }, connector('stale'));
    assert.equal(stale.status, 201, JSON.stringify(stale.body));
    await c.store.db
      .updateTable('telemetry_connectors')
      .set({ token: secretBox(Buffer.from(k1, 'hex')).seal(TOKEN) })
      .where('id', '=', stale.body.connector.id)
      .execute();
    promAuth.length = 0;
    clock.advance(3_600_000);
    assert.equal((await c.app.telemetryRunner.runOnce()).evaluated, 2);
    assert.deepEqual(promAuth, [`Bearer ${TOKEN}`], 'only the readable connector queried');
    const unreadable = (await send(`${c.url}/api/v1/orgs/${orgId}/telemetry-connectors/${stale.body.connector.id}`, 'GET', { cookie })).body.connector;
    assert.equal(unreadable.health, 'unhealthy');
    assert.match(unreadable.lastError, /token unreadable/);
    // A start with the old value still in place: nothing to re-seal for it, and the start does not fail.
    await start({ SECRETS_KEY: k2 });
  } finally {
    for (const r of runners) await r.stop();
    for (const x of apps.reverse()) await x.close();
    target.close();
    prometheus.close();
  }
});

// A preferences row sealed with a key no instance has any more: the start-up pass leaves it
// and the service starts (it used to stop there); the warning names the organisation.
test('a preferences row on a dropped key does not stop start-up, and reads as 503 with the reason', async () => {
  const k1 = randomBytes(32).toString('hex');
  const k2 = randomBytes(32).toString('hex');
  const a = await startApp({ env: { DELIVER: 'off', SECRETS_KEY: k1 } });
  let b: Awaited<ReturnType<typeof startApp>> | null = null;
  try {
    const u = await createUser(a);
    assert.equal((await send(`${a.api}/notification-preferences`, 'PUT', u.headers, { pagerduty: { enabled: true, routing_key: ROUTING_KEY } })).status, 200);
    // A clear value in another column makes the row stale for the new key, so the pass opens it.
    await a.store.db.updateTable('notification_preferences').set({ webhook_secret: 'whsec_in_clear' }).where('org_id', '=', u.id).execute();
    const before = await a.store.db.selectFrom('notification_preferences').selectAll().where('org_id', '=', u.id).executeTakeFirstOrThrow();
    const lines: { msg?: string; orgId?: string }[] = [];
    const logStream = new Writable({
      write(chunk, _enc, done) {
        for (const l of String(chunk).split('\n')) if (l.trim()) lines.push(JSON.parse(l));
        done();
      },
    });
    b = await startApp({ shareStoreWith: a, logStream, env: { DELIVER: 'off', SECRETS_KEY: k2, LOG_LEVEL: 'warn' } });
    assert.equal((await getJson(`${b.url}/healthz`)).status, 200);
    const after = await b.store.db.selectFrom('notification_preferences').selectAll().where('org_id', '=', u.id).executeTakeFirstOrThrow();
    assert.equal(after.pagerduty_routing_key, before.pagerduty_routing_key, 'left as it was');
    assert.ok(lines.some((l) => l.msg?.startsWith('notification preferences sealed with a key') && l.orgId === u.id));
    // Its organisation's preferences say why they cannot be read or saved: 503, not a 500.
    const read = await getJson(`${b.api}/notification-preferences`, { headers: u.headers });
    assert.equal(read.status, 503);
    assert.equal(read.body.error, 'unavailable');
    assert.match(read.body.message, /SECRETS_KEY_PREVIOUS/);
    assert.equal((await send(`${b.api}/notification-preferences`, 'PUT', u.headers, { email: { enabled: false } })).status, 503);
    assert.equal(
      (await b.store.db.selectFrom('notification_preferences').selectAll().where('org_id', '=', u.id).executeTakeFirstOrThrow()).pagerduty_routing_key,
      before.pagerduty_routing_key,
      'a refused save left the sealed value as it was',
    );
  } finally {
    await b?.close();
    await a.close();
  }
});

// The other sealed values a request opens: an organisation's single sign-on client secret and
// its early-warning signing secret. On a key the instance does not have, each is a 503 naming
// the way out (the sender of a signal retries), never a 500.
test('an SSO client secret and a signal signing secret on a dropped key answer 503 with the reason', async () => {
  const k1 = randomBytes(32).toString('hex');
  const k2 = randomBytes(32).toString('hex');
  const a = await startApp({ env: { DELIVER: 'off', SECRETS_KEY: k1 } });
  let b: Awaited<ReturnType<typeof startApp>> | null = null;
  try {
    const owner = await createUser(a, 'pro');
    const cookie = await loginCookie(a, owner);
    const s = (url: string) => ({ cookie, origin: url });
    const orgId = (await send(`${a.url}/api/v1/orgs`, 'POST', s(a.url), { name: 'Sealed team' })).body.organisation.id;
    const made = await send(`${a.url}/api/v1/orgs/${orgId}/signal-secret`, 'POST', s(a.url));
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const now = new Date().toISOString();
    await a.store.db
      .insertInto('sso_connections')
      .values({
        org_id: orgId,
        issuer: 'https://idp.example.com',
        client_id: 'vis',
        client_secret: secretBox(Buffer.from(k1, 'hex')).seal('idp client secret'),
        default_role: 'viewer',
        sso_required: 0,
        enabled: 1,
        created_at: now,
        updated_at: now,
      })
      .execute();
    b = await startApp({ shareStoreWith: a, env: { DELIVER: 'off', SECRETS_KEY: k2 } });

    const sso = await getJson(`${b.url}/api/v1/orgs/${orgId}/sso`, { headers: s(b.url) });
    assert.equal(sso.status, 503, JSON.stringify(sso.body));
    assert.equal(sso.body.error, 'unavailable');
    assert.match(sso.body.message, /single sign-on client secret .*SECRETS_KEY_PREVIOUS/);

    const raw = JSON.stringify({ vendor: 'github', severity: 'major', summary: 'our 5xx' });
    const ts = Math.floor(Date.now() / 1000);
    const signal = await fetch(`${b.url}/api/v1/orgs/${orgId}/signals`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'webhook-id': 'msg_1',
        'webhook-timestamp': String(ts),
        'webhook-signature': signatureOf(made.body.secret, 'msg_1', ts, raw),
      },
      body: raw,
    });
    const body = await signal.json();
    assert.equal(signal.status, 503, JSON.stringify(body));
    assert.match(body.message, /early-warning signing secret .*SECRETS_KEY_PREVIOUS/);
  } finally {
    await b?.close();
    await a.close();
  }
});
