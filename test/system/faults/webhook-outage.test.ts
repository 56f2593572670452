import assert from 'node:assert/strict';
import http from 'node:http';
import type { Socket } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { getJson, startApp, TestClock, type TestApp } from '../../helpers/app.ts';
import { emit, incident, webhookUser } from '../../helpers/alerts.ts';
import { freePort } from '../../helpers/throwaway-pg.ts';
import type { TestUser } from '../../helpers/users.ts';
import { waitFor } from '../../helpers/wait.ts';

// A webhook receiver that is down for a while: first nothing listens on its port
// (connection refused), then it answers 503, then it is back. The delivery worker runs
// in the background as in production (DELIVER on); a test clock moves time over the
// Standard Webhooks retry schedule (5 s, then 5 min) instead of waiting. Every delivery
// stays pending with its backoff while the receiver is down and is acknowledged exactly
// once when it returns. Per-status retry rules are in test/integration/alerts/retries.test.ts, kill -9
// of a delivering process in test/system/alerts/crash-recovery.test.ts.

const USERS = 5;
const EVENTS = 4;
const TOTAL = USERS * EVENTS;

describe('webhook receiver down for a while', () => {
  const clock = new TestClock(new Date());
  let t: TestApp;
  let port: number;
  let server: http.Server | null = null;
  const sockets = new Set<Socket>();
  let answer = 503;
  const received: { id: string; path: string; status: number; body: string; headers: http.IncomingHttpHeaders }[] = [];
  const users: { user: TestUser; secret: string }[] = [];

  async function listen() {
    server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({
          id: String(req.headers['webhook-id']),
          path: req.url ?? '',
          status: answer,
          body: Buffer.concat(chunks).toString('utf8'),
          headers: req.headers,
        });
        res.writeHead(answer, { 'content-type': 'text/plain' });
        res.end(answer === 503 ? 'down for maintenance' : 'ok');
      });
    });
    server.on('connection', (s) => {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
    });
    await new Promise<void>((r) => server!.listen(port, '127.0.0.1', r));
  }

  before(async () => {
    port = await freePort();
    t = await startApp({ clock, env: { DELIVER: 'on', OUTBOUND_ALLOW_PRIVATE: '127.0.0.1', DELIVERY_TIMEOUT_MS: '2000' } });
    for (let i = 0; i < USERS; i++) users.push(await webhookUser(t, ['github'], `http://127.0.0.1:${port}/u${i}`));
  });
  after(async () => {
    await t?.close();
    for (const s of sockets) s.destroy();
    if (server) await new Promise((r) => server!.close(r));
  });

  const deliveries = async () => {
    const all = [];
    for (const { user } of users) all.push(...(await getJson(`${t.api}/notification-deliveries`, { headers: user.headers })).body.items);
    return all;
  };
  const everyDelivery = (what: string, ok: (d: any) => boolean) =>
    waitFor(
      async () => {
        const ds = await deliveries();
        return ds.length === TOTAL && ds.every(ok);
      },
      { message: what, timeoutMs: 20_000, retryErrors: true },
    );
  const wait = (d: any) => Date.parse(d.nextAttemptAt) - clock.now().getTime();

  test('connection refused: every delivery pending, retried in 5 s (±10 %)', async () => {
    for (let i = 0; i < EVENTS; i++) await emit(t, 'incident.created', incident('github'));
    // The attempt is counted when it is claimed and its outcome written after the send:
    // wait for both (a loaded machine shows the gap; docs/testing.md, "Tiers").
    await everyDelivery('a first attempt of every delivery, its outcome written', (d) => d.attempts === 1 && d.lastError !== null);
    for (const d of await deliveries()) {
      assert.equal(d.status, 'pending');
      assert.equal(d.lastStatusCode, null);
      assert.match(d.lastError, /ECONNREFUSED|refused/i);
      assert.ok(wait(d) >= 4_500 && wait(d) <= 5_500, `retry in ${wait(d)} ms`);
    }
    // Not due yet: the background worker leaves them alone.
    clock.advance(3_000);
    await new Promise((r) => setTimeout(r, 1_500));
    assert.ok((await deliveries()).every((d) => d.attempts === 1));
  });

  test('the receiver answers 503: still pending, next retry 5 min (±10 %) later', async () => {
    await listen();
    answer = 503;
    clock.advance(3_000);
    await everyDelivery('a second attempt (503) of every delivery', (d) => d.attempts === 2 && d.lastStatusCode === 503);
    for (const d of await deliveries()) {
      assert.equal(d.status, 'pending');
      assert.ok(wait(d) >= 270_000 && wait(d) <= 330_000, `retry in ${wait(d)} ms`);
    }
    assert.equal(received.length, TOTAL);
  });

  test('the receiver is back: each delivery arrives, acknowledged exactly once', async (ctx) => {
    answer = 200;
    clock.advance(240_000);
    await new Promise((r) => setTimeout(r, 1_500));
    assert.equal(received.length, TOTAL, 'nothing is sent before its retry time');
    clock.advance(100_000);
    const ms = await everyDelivery('every delivery succeeded', (d) => d.status === 'succeeded');
    // A day later nothing more is sent.
    clock.advance(86_400_000);
    await new Promise((r) => setTimeout(r, 1_500));

    const ds = await deliveries();
    assert.ok(
      ds.every((d) => d.attempts === 3),
      JSON.stringify(ds.map((d) => d.attempts)),
    );
    const acked = received.filter((r) => r.status === 200);
    assert.equal(acked.length, TOTAL, 'one acknowledged request per delivery');
    assert.equal(new Set(acked.map((r) => r.id)).size, TOTAL, 'no delivery acknowledged twice');
    assert.deepEqual(new Set(acked.map((r) => r.id)), new Set(ds.map((d) => d.id)));
    // The retries carry the same id as the refused attempts: receivers can deduplicate.
    assert.deepEqual(new Set(received.filter((r) => r.status === 503).map((r) => r.id)), new Set(acked.map((r) => r.id)));
    // Every acknowledged body is signed with the secret of the user whose URL it reached.
    for (const r of acked) new Webhook(users[Number(r.path.slice(2))]!.secret).verify(r.body, r.headers as Record<string, string>);
    ctx.diagnostic(`webhook outage: ${TOTAL} deliveries, 3 attempts each, all delivered ${ms} ms after their retry fell due`);
  });
});
