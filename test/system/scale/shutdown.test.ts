// @store-independent: always PostgreSQL and Redis (test/system/scale/instances.ts); runs in one CI leg only (docs/testing.md, "Tiers").
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { EventSource } from 'eventsource';
import pg from 'pg';
import { loadConfig } from '../../../src/infra/config.ts';
import { systemClock } from '../../../src/domain/clock.ts';
import { createRepositories, createServices, type Repositories, type Services } from '../../../src/services/index.ts';
import { openStore, type Store } from '../../../src/store/db.ts';
import { ownerViewer, uniqueEmail } from '../../helpers/access.ts';
import { incident } from '../../helpers/alerts.ts';
import { getJson } from '../../helpers/app.ts';
import { startFleet, type TestFleet } from '../../helpers/fleet.ts';
import { type HttpReceiver, startReceiver } from '../../helpers/receivers.ts';
import { send } from '../../helpers/users.ts';
import { waitFor } from '../../helpers/wait.ts';
import { DATABASE_URL, type Deployment, deployment, type Instance, problems, startInstance } from './instances.ts';

// Graceful shutdown of a real server process (SIGTERM): stream clients get a
// final `shutdown` event, a poll in flight gives its lease back, a delivery whose
// receiver answers within the grace period is finished and recorded, one whose
// receiver never answers is interrupted and left due at once, and the process
// exits 0 within SHUTDOWN_TIMEOUT_SECONDS. A second instance (deliver role only)
// then sends the interrupted delivery right away, not after its 31 s lease. A
// shutdown that cannot finish in time (its writes blocked) exits 1 at the bound.

const SHUTDOWN_SECONDS = 6;

describe('graceful shutdown of a server process', { timeout: 120_000 }, () => {
  let dep: Deployment;
  let fleet: TestFleet;
  let receiver: HttpReceiver;
  const instances: Instance[] = [];
  let store: Store;
  let services: Services;
  let repos: Repositories;
  let env: Record<string, string>;
  const explain = (err: unknown) => {
    if (err instanceof Error) err.message += `\n--- instance warnings ---\n${problems(instances)}`;
    return err;
  };

  before(async () => {
    dep = deployment('shut');
    fleet = await startFleet(['github'], { clock: systemClock });
    const catalog = fleet.catalog.map((v) => ({ ...v, sources: v.sources.map((s) => ({ ...s, intervalSeconds: 2 })) }));
    fs.writeFileSync(fleet.catalogFile, JSON.stringify(catalog));
    // One source never answers: its poll is in flight when the signal comes.
    fleet.sim.setFault(fleet.catalog[0]!.sources[0]!.url, { kind: 'hang' });
    receiver = await startReceiver((req) =>
      req.path === '/slow' ? { status: 204, delayMs: 2_000 } : req.path === '/hang' ? { status: 204, hang: true } : { status: 204 },
    );
    env = {
      ...dep.env,
      CATALOG_FILE: fleet.catalogFile,
      INGEST: 'live',
      INGEST_TIMEOUT_MS: '20000',
      OUTBOUND_ALLOW_PRIVATE: '127.0.0.1',
      SHUTDOWN_TIMEOUT_SECONDS: String(SHUTDOWN_SECONDS),
    };
    instances.push(await startInstance('A', env));
    const config = loadConfig({ ...env, LOG_LEVEL: 'silent' });
    store = openStore(config);
    services = createServices(store, config, systemClock);
    repos = createRepositories(store);
  });

  /** A new major GitHub incident in the event log, as a poll would write it: the deliverers pick it up. */
  const announceIncident = async () => {
    const payload = incident('github', { impact: 'major' });
    await repos.events.append(store.db, {
      type: 'incident.created',
      vendor: 'github',
      entityKind: 'incident',
      entityId: payload.id,
      occurredAt: new Date().toISOString(),
      payload,
    } as never);
  };

  after(async () => {
    await Promise.allSettled(instances.map((i) => i.stop(8_000)));
    await store?.close();
    await receiver?.close();
    await fleet?.close();
    await dep?.cleanup();
  });

  test('SIGTERM: final stream event, lease freed, deliveries finished or released, exit 0 in time; a second instance sends the rest at once', async () => {
    const a = instances[0]!;
    let es: EventSource | null = null;
    try {
      const user = async (path: string) => {
        const u = await services.accounts.createUser({ email: uniqueEmail('shut'), password: 'correct horse battery', plan: 'pro' });
        const { secret } = await services.keys.create(ownerViewer(u.id, 'pro'), 'key');
        const headers = { 'x-api-key': secret };
        assert.equal((await send(`${a.api}/watchlist`, 'PUT', headers, { vendors: ['github'] })).status, 200);
        const p = await send(`${a.api}/notification-preferences`, 'PUT', headers, {
          webhook: { enabled: true, url: `${receiver.url}${path}` },
          in_app: { enabled: false },
        });
        assert.equal(p.status, 200, JSON.stringify(p.body));
        return { id: u.id, key: secret };
      };
      const slow = await user('/slow');
      const hang = await user('/hang');

      // Two stream clients: the raw bytes, and an EventSource listening for the event.
      const raw = await fetch(`${a.api}/incidents/stream`, { headers: { 'x-api-key': slow.key } });
      assert.equal(raw.status, 200);
      const reader = raw.body!.getReader();
      let text = '';
      const rawDone = (async () => {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) return;
          text += new TextDecoder().decode(value);
        }
      })();
      const seen: { type: string; data: any; lastEventId: string }[] = [];
      es = new EventSource(`${a.api}/incidents/stream`, {
        fetch: (input, init) => fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), 'x-api-key': hang.key } }),
      });
      for (const type of ['snapshot', 'shutdown']) {
        es.addEventListener(type, (ev) => seen.push({ type, data: JSON.parse((ev as MessageEvent).data), lastEventId: (ev as MessageEvent).lastEventId }));
      }
      await waitFor(() => text.includes('event: snapshot') && seen.length === 1, {
        message: 'both streams have their snapshot',
        timeoutMs: 20_000,
        intervalMs: 100,
      });

      // One incident for both users: /slow answers after 2 s, /hang never does.
      await announceIncident();
      await waitFor(() => receiver.requests.some((r) => r.path === '/slow') && receiver.requests.some((r) => r.path === '/hang'), {
        message: 'both webhooks are being sent',
        timeoutMs: 20_000,
        intervalMs: 100,
      });
      const hanging = fleet.catalog[0]!.sources[0]!.url;
      const sourceRow = () => store.db.selectFrom('sources').selectAll().where('url', '=', hanging).executeTakeFirstOrThrow();
      await waitFor(async () => (await sourceRow()).lease_owner?.includes(`:${a.pid}:`), {
        message: 'A holds the lease of the hanging source',
        timeoutMs: 20_000,
        intervalMs: 100,
      });

      const signalled = Date.now();
      a.child.kill('SIGTERM');
      const exit = await a.exit;
      const tookMs = exit.at - signalled;
      await rawDone;
      assert.equal(exit.code, 0, `exit ${exit.code} ${exit.signal}`);
      assert.ok(tookMs < SHUTDOWN_SECONDS * 1000, `exited after ${tookMs} ms`);

      // The stream's last bytes: a shutdown event without an id (the resume point stays), then the old comment.
      const m = /\n\nevent: shutdown\nretry: (\d+)\ndata: (\{.*\})\n\n: server closing, reconnect\n\n$/.exec(text);
      assert.ok(m, `stream ended with ${JSON.stringify(text.slice(-300))}`);
      const retry = Number(m[1]);
      assert.ok(retry >= 1000 && retry < 3000, `retry ${retry}`);
      assert.deepEqual(Object.keys(JSON.parse(m[2]!)).sort(), ['occurredAt', 'reconnectAfterMs', 'type']);
      assert.equal(JSON.parse(m[2]!).type, 'shutdown');
      await waitFor(() => seen.some((e) => e.type === 'shutdown'), {
        message: 'the EventSource client saw the shutdown event',
        timeoutMs: 5_000,
        intervalMs: 100,
      });
      const ev = seen.find((e) => e.type === 'shutdown')!;
      assert.equal(ev.data.type, 'shutdown');
      // An event without `id:` keeps the connection's last event id (the EventSource spec's
      // last-event-id buffer), so the client resumes from the last event that had one.
      const streamIds = [...text.slice(0, text.lastIndexOf('event: shutdown')).matchAll(/^id: (.*)$/gm)].map((x) => x[1]);
      assert.equal(ev.lastEventId, streamIds.at(-1) ?? '', 'no id of its own');
      es.close();
      es = null;

      // The poll in flight gave its lease back.
      const src = await sourceRow();
      assert.equal(src.lease_owner, null);
      assert.equal(src.lease_until, null);

      const rows = await store.db.selectFrom('deliveries').selectAll().where('channel', '=', 'webhook').execute();
      const slowRow = rows.find((r) => r.org_id === slow.id)!;
      const hangRow = rows.find((r) => r.org_id === hang.id)!;
      // Answered within the grace period: finished, and its result written before exit.
      assert.equal(slowRow.status, 'succeeded');
      assert.equal(Number(slowRow.attempts), 1);
      // Never answered: interrupted, lease freed, due at once.
      assert.equal(hangRow.status, 'pending');
      assert.equal(hangRow.lease_owner, null);
      assert.ok(Date.parse(hangRow.next_attempt_at!) <= Date.now(), `due at ${hangRow.next_attempt_at}`);
      const attempts = await store.db.selectFrom('delivery_attempts').selectAll().where('delivery_id', '=', hangRow.id).execute();
      assert.equal(attempts.length, 1);
      assert.equal(attempts[0]!.outcome, 'retry');
      assert.match(attempts[0]!.error ?? '', /^interrupted: the sending instance shut down/);

      // A delivery-only instance picks the interrupted one up at once (its old lease would have held it 31 s).
      receiver.reply = () => ({ status: 204 });
      const startedB = Date.now();
      const b = await startInstance('B', env, ['--role', 'deliver']);
      instances.push(b);
      const done = await waitFor(
        async () => {
          const r = await store.db.selectFrom('deliveries').selectAll().where('id', '=', hangRow.id).executeTakeFirstOrThrow();
          return r.status === 'succeeded' ? r : undefined;
        },
        { message: 'the second instance sent the interrupted delivery', timeoutMs: 20_000, intervalMs: 100 },
      );
      const handoverMs = Date.now() - startedB;
      assert.equal(Number(done.attempts), 2);
      const ids = receiver.requests.map((r) => r.headers['webhook-id']);
      assert.equal(ids.filter((id) => id === slowRow.id).length, 1, 'the finished delivery was not sent again');
      // The same delivery id twice: the first request was never answered, the second was (204).
      assert.equal(ids.filter((id) => id === hangRow.id).length, 2);
      console.log(`# shutdown took ${tookMs} ms (bound ${SHUTDOWN_SECONDS} s); B started and sent the released delivery ${handoverMs} ms after its spawn`);

      // B runs without the api role: probes only.
      assert.equal((await getJson(`${b.url}/healthz`)).status, 200);
      assert.equal((await getJson(`${b.url}/readyz`)).body.status, 'ready');
      const api = await getJson(`${b.api}/vendor-list`);
      assert.equal(api.status, 404);
      assert.match(api.body.message, /serves no API \(roles: deliver\)/);
      await b.stop();
      assert.equal((await b.exit).code, 0);
    } catch (err) {
      throw explain(err);
    } finally {
      es?.close();
    }
  });

  test('a shutdown that cannot finish within SHUTDOWN_TIMEOUT_SECONDS exits 1 at the bound', async () => {
    // The delivery results cannot be written: the test holds a lock on the table.
    const locker = new pg.Client({ connectionString: DATABASE_URL });
    await locker.connect();
    try {
      receiver.reply = () => ({ status: 204, delayMs: 3_000 });
      const c = await startInstance('C', { ...env, SHUTDOWN_TIMEOUT_SECONDS: '1' }, ['--role=deliver']);
      instances.push(c);
      const before = receiver.requests.length;
      await announceIncident();
      await waitFor(() => receiver.requests.length > before, { message: 'C is sending', timeoutMs: 20_000, intervalMs: 100 });
      await locker.query('begin');
      await locker.query(`lock table "${dep.schema}".deliveries in access exclusive mode`);
      const signalled = Date.now();
      c.child.kill('SIGTERM');
      const exit = await c.exit;
      const tookMs = exit.at - signalled;
      assert.equal(exit.code, 1);
      assert.ok(tookMs >= 1000 && tookMs < 3000, `exited after ${tookMs} ms`);
      assert.ok(c.lines.some((l) => l.msg === 'shutdown did not finish within SHUTDOWN_TIMEOUT_SECONDS; exiting'));
    } catch (err) {
      throw explain(err);
    } finally {
      await locker.query('rollback').catch(() => {});
      await locker.end();
    }
  });
});
