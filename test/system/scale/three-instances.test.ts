// @store-independent: always PostgreSQL and Redis (test/system/scale/instances.ts); runs in one CI leg only (docs/testing.md, "Tiers").
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { loadConfig } from '../../../src/infra/config.ts';
import { systemClock } from '../../../src/domain/clock.ts';
import { createRepositories, createServices, type Repositories, type Services } from '../../../src/services/index.ts';
import { openStore, type Store } from '../../../src/store/db.ts';
import { ownerViewer, uniqueEmail } from '../../helpers/access.ts';
import { incident } from '../../helpers/alerts.ts';
import { getJson } from '../../helpers/app.ts';
import { startFleet, type TestFleet } from '../../helpers/fleet.ts';
import { type HttpReceiver, startReceiver } from '../../helpers/receivers.ts';
import { openStream, type StreamClient } from '../../helpers/stream.ts';
import { send } from '../../helpers/users.ts';
import { sleep, waitFor } from '../../helpers/wait.ts';
import { cli, type Deployment, deployment, type Instance, problems, startInstance } from './instances.ts';

// Scale-out, end to end: three server processes on different ports share one
// PostgreSQL schema and one Redis prefix, as N instances behind a load balancer
// do. Limits are shared, events fan out to every instance's streams once, a burst
// of webhook deliveries is sent exactly once with all three sending, and a killed
// poller's source is taken over by another instance when its lease runs out.
// Always PostgreSQL + Redis (DATABASE_URL / REDIS_URL, else the local ones).

const LEASE_SECONDS = 5;
const POLL_SECONDS = 2;
const USERS = 30;
const EVENTS = 8;

describe('three instances on one PostgreSQL schema and one Redis prefix', { timeout: 150_000 }, () => {
  let dep: Deployment;
  let fleet: TestFleet;
  let receiver: HttpReceiver;
  let instances: Instance[] = [];
  let store: Store;
  let services: Services;
  let repos: Repositories;
  let freeKey: string;
  /** Pro accounts (their own key each): stream clients, alert recipients. */
  const proUser = async (tag: string) => {
    const email = uniqueEmail(tag);
    const user = await services.accounts.createUser({ email, password: 'correct horse battery', plan: 'pro' });
    const { secret } = await services.keys.create(ownerViewer(user.id, 'pro'), `${tag} key`);
    return { id: user.id, key: secret };
  };
  const explain = (err: unknown) => {
    if (err instanceof Error) err.message += `\n--- instance warnings ---\n${problems(instances)}`;
    return err;
  };

  before(async () => {
    dep = deployment('scale');
    fleet = await startFleet(['github', 'openai'], { clock: systemClock });
    // Short polling intervals, so changes show up within seconds.
    const catalog = fleet.catalog.map((v) => ({ ...v, sources: v.sources.map((s) => ({ ...s, intervalSeconds: POLL_SECONDS })) }));
    fs.writeFileSync(fleet.catalogFile, JSON.stringify(catalog));
    receiver = await startReceiver(() => ({ status: 204, delayMs: 300 }));
    const env = {
      ...dep.env,
      RATE_LIMITS: '{}',
      CATALOG_FILE: fleet.catalogFile,
      INGEST: 'live',
      INGEST_LEASE_SECONDS: String(LEASE_SECONDS),
      INGEST_TIMEOUT_MS: '4000',
      INGEST_HOST_CONCURRENCY: '16',
      OUTBOUND_ALLOW_PRIVATE: '127.0.0.1',
      DELIVERY_CONCURRENCY: '16',
      SHUTDOWN_TIMEOUT_SECONDS: '5',
    };
    // All three start together on an empty schema (migrations under the migrator's
    // lock), while the operator CLI creates the free account of the rate-limit check.
    const email = uniqueEmail('free');
    // Each one is remembered as soon as it runs, so `after` stops it even if another fails to start.
    const started = (name: string) => startInstance(name, env).then((i) => void instances.push(i));
    const [, , , key] = await Promise.all([
      started('A'),
      started('B'),
      started('C'),
      (async () => {
        await cli(env, ['users', 'create', '--email', email, '--password', 'correct horse battery', '--plan', 'free']);
        return (await cli(env, ['keys', 'create', '--email', email])).trim().split('\n').pop()!;
      })(),
    ]);
    instances.sort((x, y) => x.name.localeCompare(y.name));
    freeKey = key;
    assert.match(freeKey, /^vis_[A-Za-z0-9]{32,}$/);
    const config = loadConfig({ ...env, LOG_LEVEL: 'silent' });
    store = openStore(config);
    services = createServices(store, config, systemClock);
    repos = createRepositories(store);
  });

  after(async () => {
    await Promise.allSettled(instances.map((i) => i.stop(8_000)));
    await store?.close();
    await receiver?.close();
    await fleet?.close();
    await dep?.cleanup();
  });

  test('a free key gets 10 requests a minute across all three together', async () => {
    try {
      // The minute window is fixed ([k*60 s, (k+1)*60 s)): start well inside one.
      const intoMinute = Date.now() % 60_000;
      if (intoMinute > 45_000) await sleep(60_000 - intoMinute + 200);
      const results: { status: number; headers: Headers; body: any; on: string }[] = [];
      for (let i = 0; i < 15; i++) {
        const inst = instances[i % 3]!;
        const r = await getJson(`${inst.api}/vendor-list`, { headers: { 'x-api-key': freeKey } });
        results.push({ ...r, on: inst.name });
      }
      assert.deepEqual(
        results.map((r) => r.status),
        [...Array(10).fill(200), ...Array(5).fill(429)],
        JSON.stringify(results.map((r) => [r.on, r.status])),
      );
      assert.deepEqual(new Set(results.slice(0, 10).map((r) => r.on)), new Set(['A', 'B', 'C']));
      assert.equal(results[9]!.headers.get('x-ratelimit-remaining'), '0');
      for (const r of results.slice(10)) {
        assert.equal(r.body.success, false);
        assert.equal(r.body.error, 'rate_limit_exceeded');
        assert.equal(r.body.limit, 10);
        assert.equal(r.body.used, 10);
        assert.equal(r.body.currentPlan, 'free');
        assert.ok(Number.isInteger(r.body.retryAfter) && r.body.retryAfter >= 1 && r.body.retryAfter <= 60);
        assert.equal(r.headers.get('retry-after'), String(r.body.retryAfter));
        assert.match(r.headers.get('ratelimit-policy') ?? '', /"minute";q=10;w=60/);
        assert.match(r.headers.get('ratelimit') ?? '', /"minute";r=0;t=\d+/);
        assert.equal(r.headers.get('x-ratelimit-limit'), '10');
      }
    } catch (err) {
      throw explain(err);
    }
  });

  test('an event ingested by one instance reaches stream clients on all three, once each and in order', async () => {
    const streams: StreamClient[] = [];
    try {
      for (const inst of instances) {
        const u = await proUser(`stream${inst.name}`);
        streams.push(openStream(`${inst.api}/incidents/stream?vendor=github`, { 'x-api-key': u.key }));
      }
      await Promise.all(streams.map((s) => s.waitFor(1, 20_000)));
      assert.deepEqual(
        streams.map((s) => s.received[0]!.type),
        ['snapshot', 'snapshot', 'snapshot'],
      );
      const start = Math.max(...streams.map((s) => Number(s.received[0]!.id)));

      // Two incidents open, then one resolves: three events from two polls (of whichever instance).
      const first = fleet.sim.fleet.openIncident('github', { impact: 'major' });
      const second = fleet.sim.fleet.openIncident('github', { impact: 'minor' });
      const logged = async (n: number) => {
        const all = (await repos.events.after(start, 1000)).filter((e) => e.vendor === 'github' && e.entityKind === 'incident');
        return all.length >= n ? all : undefined;
      };
      await waitFor(() => logged(2), { message: 'both incidents are in the event log', timeoutMs: 20_000, intervalMs: 100 });
      fleet.sim.fleet.resolveIncident(first.id);
      const log = await waitFor(() => logged(3), { message: 'the resolution is in the event log', timeoutMs: 20_000, intervalMs: 100 });
      // Each change logged once although three instances poll (the two creations in either order).
      assert.equal(log.length, 3, JSON.stringify(log.map((e) => [e.seq, e.type, e.entityId])));
      assert.deepEqual(
        log
          .slice(0, 2)
          .map((e) => `${e.type} ${e.entityId}`)
          .sort(),
        [`incident.created ${first.id}`, `incident.created ${second.id}`].sort(),
      );
      assert.deepEqual([log[2]!.type, log[2]!.entityId], ['incident.resolved', first.id]);
      const seqs = log.map((e) => e.seq);
      for (const [i, s] of streams.entries()) {
        const got = (await s.waitFor(4, 20_000)).slice(1);
        assert.deepEqual(
          got.map((r) => Number(r.id)),
          seqs,
          `stream on ${instances[i]!.name}: ${JSON.stringify(s.received.map((r) => [r.type, r.id]))}`,
        );
        assert.deepEqual(
          got.map((r) => r.type),
          log.map((e) => e.type),
        );
      }
      // Nothing arrives twice later (an echo over Redis, a second poll's copy).
      await sleep(1_500);
      assert.deepEqual(
        streams.map((s) => s.received.length),
        [4, 4, 4],
      );
    } catch (err) {
      throw explain(err);
    } finally {
      for (const s of streams) s.close();
    }
  });

  test('a burst of webhook deliveries is sent exactly once each, by all three instances', async () => {
    try {
      // Recipients: pro accounts watching openai with a webhook to the local receiver
      // (set up over HTTP, spread across the instances).
      const users = await Promise.all(Array.from({ length: USERS }, (_, i) => proUser(`hook${i}`)));
      await Promise.all(
        users.map(async (u, i) => {
          const inst = instances[i % 3]!;
          const headers = { 'x-api-key': u.key };
          const w = await send(`${inst.api}/watchlist`, 'PUT', headers, { vendors: ['openai'] });
          assert.equal(w.status, 200, JSON.stringify(w.body));
          const p = await send(`${inst.api}/notification-preferences`, 'PUT', headers, {
            webhook: { enabled: true, url: `${receiver.url}/hook/${i}` },
            in_app: { enabled: false },
          });
          assert.equal(p.status, 200, JSON.stringify(p.body));
        }),
      );

      // The burst: events committed to the log in one transaction (as one ingestion
      // poll does); every instance's dispatcher finds them, one of them creates the rows.
      const owners = new Set<string>();
      let sampling = true;
      const sampler = (async () => {
        while (sampling) {
          const rows = await store.db.selectFrom('deliveries').select('lease_owner').distinct().where('lease_owner', 'is not', null).execute();
          for (const r of rows) owners.add(r.lease_owner!);
          await sleep(40);
        }
      })();
      const events = await store.db.transaction().execute(async (trx) => {
        const out = [];
        for (let i = 0; i < EVENTS; i++) {
          const payload = incident('openai', { impact: 'major', title: `Burst ${i}` });
          out.push(
            await repos.events.append(trx, {
              type: 'incident.created',
              vendor: 'openai',
              entityKind: 'incident',
              entityId: payload.id,
              occurredAt: new Date().toISOString(),
              payload,
            } as never),
          );
        }
        return out;
      });
      const expected = USERS * EVENTS;
      const seqs = events.map((e) => e.seq);
      const counts = () => {
        const byId = new Map<string, number>();
        for (const r of receiver.requests) {
          const id = r.headers['webhook-id'];
          if (typeof id === 'string') byId.set(id, (byId.get(id) ?? 0) + 1);
        }
        return byId;
      };
      const done = async () => {
        const rows = await store.db
          .selectFrom('deliveries')
          .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
          .where('channel', '=', 'webhook')
          .where('event_seq', 'in', seqs)
          .groupBy('status')
          .execute();
        const by = Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
        return by.succeeded === expected && !by.pending ? by : undefined;
      };
      const started = Date.now();
      await waitFor(done, { message: `${expected} webhook deliveries succeeded`, timeoutMs: 45_000, intervalMs: 200 });
      const tookMs = Date.now() - started;
      // Late duplicates (a second claim of a row) would arrive after the rows are done.
      await sleep(1_500);
      sampling = false;
      await sampler;

      const rows = await store.db
        .selectFrom('deliveries')
        .select(['id', 'status', 'attempts', 'event_seq', 'org_id'])
        .where('channel', '=', 'webhook')
        .where('event_seq', 'in', seqs)
        .execute();
      assert.equal(rows.length, expected, 'one delivery row per (event, user): three dispatchers created nothing twice');
      const byId = counts();
      const missing = rows.filter((r) => !byId.has(r.id));
      const twice = [...byId].filter(([, n]) => n > 1);
      assert.deepEqual(
        missing.map((r) => r.id),
        [],
        'every delivery reached the receiver',
      );
      assert.deepEqual(twice, [], 'no delivery reached the receiver twice');
      assert.equal(receiver.requests.length, expected);
      assert.ok(
        rows.every((r) => Number(r.attempts) === 1),
        'one attempt each',
      );
      const attempts = await store.db
        .selectFrom('delivery_attempts')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where(
          'delivery_id',
          'in',
          rows.map((r) => r.id),
        )
        .executeTakeFirstOrThrow();
      assert.equal(Number(attempts.n), expected, 'one attempt record each');
      // Every instance's worker held leases during the burst (each process has one owner id).
      assert.equal(owners.size, 3, `lease owners seen: ${[...owners].join(', ')}`);
      // Each request went to its user's own path (the receiver saw the right target).
      const pathOf = new Map(users.map((u, i) => [u.id, `/hook/${i}`]));
      const byDelivery = new Map(receiver.requests.map((r) => [r.headers['webhook-id'], r.path]));
      assert.ok(rows.every((r) => byDelivery.get(r.id) === pathOf.get(r.org_id)));
      console.log(`# ${expected} deliveries sent by 3 instances in ${tookMs} ms`);
    } catch (err) {
      throw explain(err);
    }
  });

  test('killing the instance that holds a source lease hands the source to another within the lease', async () => {
    try {
      const source = fleet.catalog.find((v) => v.slug === 'openai')!.sources[0]!;
      const row = () => store.db.selectFrom('sources').selectAll().where('url', '=', source.url).executeTakeFirstOrThrow();
      // The upstream stops answering: the next poll hangs and holds the lease.
      fleet.sim.setFault(source.url, { kind: 'hang' });
      const held = await waitFor(
        async () => {
          const a = await row();
          if (!a.lease_owner) return undefined;
          await sleep(700);
          const b = await row();
          // The same lease for a while: a poll that hangs, not a quick one that is finishing.
          return b.lease_owner === a.lease_owner && b.lease_until === a.lease_until ? b : undefined;
        },
        { message: 'a poll of the hanging source holds its lease', timeoutMs: 20_000, intervalMs: 50 },
      );
      const pid = Number(held.lease_owner!.split(':').at(-2));
      const holder = instances.find((i) => i.pid === pid);
      assert.ok(holder, `lease owner ${held.lease_owner} is one of the instances (${instances.map((i) => i.pid).join(', ')})`);
      holder.child.kill('SIGKILL');
      const killedAt = Date.now();
      await holder.exit;
      fleet.sim.setFault(source.url, null);

      const leaseUntil = Date.parse(held.lease_until!);
      const taken = await waitFor(
        async () => {
          const r = await row();
          return r.last_success_at && Date.parse(r.last_success_at) > killedAt - 1000 ? r : undefined;
        },
        { message: 'another instance polls the source successfully', timeoutMs: (LEASE_SECONDS + 15) * 1000, intervalMs: 100 },
      );
      const handoverMs = Date.now() - killedAt;
      // The new poll started only once the dead instance's lease had run out...
      assert.ok(Date.parse(taken.last_success_at!) >= leaseUntil, `polled at ${taken.last_success_at}, lease until ${held.lease_until}`);
      // ...and soon after (one scheduler tick plus a loaded machine's slack).
      assert.ok(handoverMs <= LEASE_SECONDS * 1000 + 10_000, `took ${handoverMs} ms`);
      console.log(`# lease of ${LEASE_SECONDS} s held by ${holder.name}; another instance polled ${handoverMs} ms after the kill`);
      instances = instances.filter((i) => i !== holder);
    } catch (err) {
      throw explain(err);
    }
  });
});
