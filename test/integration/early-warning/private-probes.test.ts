import assert from 'node:assert/strict';
import http from 'node:http';
import type net from 'node:net';
import { PassThrough } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { createProbeRunner, type ProbeRunner } from '../../../src/probes/index.ts';
import { startApp, TestClock, type TestApp } from '../../helpers/app.ts';
import { createUser, loginCookie, send } from '../../helpers/users.ts';

// Private probes of an organisation (docs/early-warning.md "Private probes") over the real
// store and real sockets: the credential is sealed at rest, answered only as a name and last
// four, never audited or logged, sent only to the probe's own origin; the runner measures
// private probes with the catalog's, their observations reach only their organisation, a
// refused credential is its own state and opens no signal; hostile input is 4xx.

const ALLOW = ['localhost'];
const SECRET = 'Bearer sk_live_private-probe-secret-0123456789';

describe('private probes', () => {
  const clock = new TestClock(new Date('2026-11-29T12:00:00Z'));
  const lines: string[] = [];
  let t: TestApp;
  let cookie: string;
  let viewerCookie: string;
  let orgId: string;
  let otherOrg: string;
  let otherCookie: string;
  let status = 200;
  const seen: { path: string; auth: string | undefined; key: string | undefined }[] = [];
  let redirectedHits = 0;
  let redirectedAuth: (string | undefined)[] = [];
  const servers: net.Server[] = [];
  let port = 0;
  let redirectedPort = 0;
  const runners: ProbeRunner[] = [];
  const s = (c = cookie) => ({ cookie: c, origin: t.url });
  const base = () => `${t.url}/api/v1/orgs/${orgId}/probes`;

  const listen = async (srv: http.Server) => {
    servers.push(srv);
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
    return (srv.address() as net.AddressInfo).port;
  };
  const runner = (owner: string, concurrency = 4) => {
    const r = createProbeRunner({
      probes: t.app.services.earlyWarning.probes,
      allowList: ALLOW,
      concurrency,
      hostConcurrency: 2,
      timeoutMs: 800,
      tickMs: 60_000,
      now: () => clock.now().getTime(),
      log: t.app.log,
      owner,
    });
    runners.push(r);
    return r;
  };
  const create = (body: unknown, c = cookie, org = orgId) => send(`${t.url}/api/v1/orgs/${org}/probes`, 'POST', s(c), body);
  const good = () => ({
    vendor: 'github',
    kind: 'http',
    target: `http://localhost:${port}/user`,
    expect: [200],
    intervalSeconds: 30,
    credential: { name: 'Authorization', value: SECRET },
  });

  before(async () => {
    port = await listen(
      http.createServer((req, res) => {
        seen.push({ path: req.url ?? '', auth: req.headers.authorization, key: req.headers['x-api-key'] as string | undefined });
        if (req.url?.startsWith('/redirect')) {
          res.writeHead(302, { location: `http://localhost:${redirectedPort}/elsewhere` });
          return res.end();
        }
        res.writeHead(req.url?.startsWith('/revoked') ? 401 : status, { 'content-type': 'application/json' });
        res.end('{}');
      }),
    );
    redirectedPort = await listen(
      http.createServer((req, res) => {
        redirectedHits++;
        redirectedAuth.push(req.headers.authorization);
        res.end('elsewhere');
      }),
    );
    const logStream = new PassThrough();
    logStream.on('data', (chunk) => lines.push(String(chunk)));
    t = await startApp({ clock, logStream, env: { LOG_LEVEL: 'trace', DELIVER: 'off', OUTBOUND_ALLOW_PRIVATE: ALLOW.join(',') } });
    // Only the probes made here run: the catalog's real endpoints are out of reach in tests.
    await t.app.services.earlyWarning.probes.syncCatalog([]);
    const owner = await createUser(t, 'pro');
    cookie = await loginCookie(t, owner);
    orgId = (await send(`${t.url}/api/v1/orgs`, 'POST', s(), { name: 'Private probe team' })).body.organisation.id;
    assert.equal((await send(`${t.url}/api/v1/orgs/${orgId}/switch`, 'POST', s())).status, 200);
    const viewer = await createUser(t, 'free');
    viewerCookie = await loginCookie(t, viewer);
    const inv = await send(`${t.url}/api/v1/orgs/${orgId}/invitations`, 'POST', s(), { email: viewer.email, role: 'viewer' });
    assert.equal((await send(`${t.url}/api/v1/invitations/${inv.body.invitation.link.split('/').pop()}/accept`, 'POST', s(viewerCookie))).status, 200);
    assert.equal((await send(`${t.url}/api/v1/orgs/${orgId}/switch`, 'POST', s(viewerCookie))).status, 200);
    // Another organisation that follows github: a private probe's observations must never reach it.
    const u = await createUser(t, 'pro');
    otherCookie = await loginCookie(t, u);
    otherOrg = (await send(`${t.url}/api/v1/orgs`, 'POST', s(otherCookie), { name: 'Elsewhere' })).body.organisation.id;
    assert.equal((await send(`${t.url}/api/v1/orgs/${otherOrg}/switch`, 'POST', s(otherCookie))).status, 200);
    const svc = await send(`${t.url}/api/v1/orgs/${otherOrg}/services`, 'POST', s(otherCookie), { name: 'billing', dependencies: [{ vendor: 'github' }] });
    assert.equal(svc.status, 201, JSON.stringify(svc.body));
  });
  after(async () => {
    for (const r of runners) await r.stop();
    await t?.close();
    for (const srv of servers) srv.close();
  });

  test('an editor creates one; the credential is sealed at rest, answered and audited as its name and last four only', async () => {
    const r = await create(good());
    assert.equal(r.status, 201, JSON.stringify(r.body));
    const p = r.body.probe;
    assert.deepEqual(p.credential, { name: 'authorization', lastFour: '6789' });
    assert.equal(p.state, 'unknown');
    assert.equal(p.samples, 0);
    assert.equal(p.intervalSeconds, 30);
    assert.ok(!JSON.stringify(r.body).includes('private-probe-secret'));
    const row = await t.store.db.selectFrom('probes').selectAll().where('id', '=', p.id).executeTakeFirstOrThrow();
    assert.equal(row.org_id, orgId);
    assert.ok(row.credential_value && !row.credential_value.includes('private-probe-secret'), 'sealed at rest');
    const listed = await send(base(), 'GET', { cookie: viewerCookie });
    assert.equal(listed.status, 200);
    assert.equal(listed.body.probes.length, 1);
    assert.ok(!JSON.stringify(listed.body).includes('private-probe-secret'));
    const audit = await send(`${t.url}/api/v1/orgs/${orgId}/audit?limit=50`, 'GET', { cookie });
    const entry = audit.body.entries.find((e: any) => e.action === 'private_probe.created');
    assert.ok(entry, JSON.stringify(audit.body.entries.map((e: any) => e.action)));
    assert.ok(!JSON.stringify(audit.body).includes('private-probe-secret'));
    // Not an instance-wide probe: the catalog's list (the `probes` CLI) does not show it.
    assert.equal((await t.app.services.earlyWarning.probes.health()).length, 0);
    const del = await send(`${base()}/${p.id}`, 'DELETE', s());
    assert.equal(del.status, 200);
    assert.equal((await send(base(), 'GET', { cookie })).body.probes.length, 0);
  });

  test('viewers may read but not write (403); another organisation answers 404 for its ids and paths', async () => {
    const made = (await create(good())).body.probe;
    assert.equal((await create(good(), viewerCookie)).status, 403);
    assert.equal((await send(`${base()}/${made.id}`, 'PUT', s(viewerCookie), { intervalSeconds: 60 })).status, 403);
    assert.equal((await send(`${base()}/${made.id}`, 'DELETE', s(viewerCookie))).status, 403);
    assert.equal((await send(`${base()}/${made.id}`, 'GET', { cookie: viewerCookie })).status, 200);
    // The other organisation: its own path with our id, and our path.
    const theirs = `${t.url}/api/v1/orgs/${otherOrg}/probes/${made.id}`;
    for (const [m, body] of [['GET'], ['PUT', { intervalSeconds: 60 }], ['DELETE']] as const)
      assert.equal((await send(theirs, m, s(otherCookie), body)).status, 404, m);
    assert.equal((await send(base(), 'GET', { cookie: otherCookie })).status, 404);
    assert.equal((await send(`${base()}/${made.id}`, 'GET', { cookie: otherCookie })).status, 404);
    assert.equal((await create(good(), otherCookie)).status, 404);
    assert.equal((await send(`${base()}/${made.id}`, 'GET', { cookie })).body.probe.id, made.id, 'still there, unchanged');
    await send(`${base()}/${made.id}`, 'DELETE', s());
  });

  test('attack list: header injection, refused header names, private targets, huge values, bad kinds are 4xx and store nothing', async () => {
    const g = good();
    const cases: [string, unknown, number][] = [
      ['CR LF in the value', { ...g, credential: { name: 'authorization', value: 'Bearer x\r\nX-Evil: 1' } }, 400],
      ['LF in the value', { ...g, credential: { name: 'authorization', value: 'Bearer x\nHost: evil' } }, 400],
      ['NUL in the value', { ...g, credential: { name: 'authorization', value: 'Bearer x\u0000y' } }, 400],
      ['CR in the name', { ...g, credential: { name: 'x-api-key\r\nhost', value: 'k' } }, 400],
      ['Host', { ...g, credential: { name: 'Host', value: 'evil.example.com' } }, 400],
      ['Cookie', { ...g, credential: { name: 'Cookie', value: 'session=1' } }, 400],
      ['Connection', { ...g, credential: { name: 'connection', value: 'close' } }, 400],
      ['Transfer-Encoding', { ...g, credential: { name: 'transfer-encoding', value: 'chunked' } }, 400],
      ['Proxy-Authorization', { ...g, credential: { name: 'proxy-authorization', value: 'Basic eA==' } }, 400],
      ['X-Forwarded-For', { ...g, credential: { name: 'x-forwarded-for', value: '10.0.0.1' } }, 400],
      ['a name off the allow-list', { ...g, credential: { name: 'user-agent', value: 'me' } }, 400],
      ['a value with edge spaces', { ...g, credential: { name: 'x-api-key', value: ' key ' } }, 400],
      ['a huge value', { ...g, credential: { name: 'x-api-key', value: 'k'.repeat(5000) } }, 400],
      ['a huge name', { ...g, credential: { name: `x-${'a'.repeat(100)}`, value: 'k' } }, 400],
      ['a huge target', { ...g, target: `https://api.github.com/${'a'.repeat(3000)}` }, 400],
      ['a loopback address', { ...g, target: 'https://127.0.0.1/user' }, 400],
      ['a private address', { ...g, target: 'https://10.0.0.5/user' }, 400],
      ['cloud metadata', { ...g, target: 'http://169.254.169.254/latest/meta-data/' }, 400],
      ['a local name', { ...g, target: 'https://metadata/computeMetadata' }, 400],
      ['plain http to a public host', { ...g, target: 'http://api.github.com/user' }, 400],
      ['credentials in the URL', { ...g, target: 'https://me:pw@api.github.com/user' }, 400],
      ["a host outside the vendor's hostnames", { ...g, target: 'https://api.example.com/user' }, 400],
      ['a credential on a tcp probe', { ...g, kind: 'tcp', target: 'api.github.com:443', expect: undefined }, 400],
      ['statuses on a tcp probe', { vendor: 'github', kind: 'tcp', target: 'api.github.com:443', expect: [200] }, 400],
      ['an address literal for tcp', { vendor: 'github', kind: 'tls', target: '10.0.0.5:443' }, 400],
      ['an interval below the floor', { ...g, intervalSeconds: 5 }, 400],
      ['an interval above the ceiling', { ...g, intervalSeconds: 3600 }, 400],
      ['an impossible status', { ...g, expect: [42] }, 400],
      ['an unknown field', { ...g, orgId: otherOrg }, 400],
      ['an unknown kind', { ...g, kind: 'icmp' }, 400],
      ['an unknown vendor', { ...g, vendor: 'no-such-vendor' }, 404],
    ];
    for (const [name, body, expected] of cases) {
      const r = await create(body);
      assert.equal(r.status, expected, `${name}: ${r.status} ${JSON.stringify(r.body)}`);
      assert.equal(r.body.success, false, name);
      assert.equal(typeof r.body.error, 'string', name);
    }
    const huge = await send(base(), 'POST', s(), JSON.stringify({ ...g, credential: { name: 'x-api-key', value: 'k'.repeat(2_000_000) } }));
    assert.ok(huge.status === 400 || huge.status === 413, `a 2 MB body: ${huge.status}`);
    assert.equal((await send(base(), 'GET', { cookie })).body.probes.length, 0, 'nothing was stored');
    // Accepted: a vendor host, an x- key header, a tls probe without a credential.
    assert.equal(
      (await create({ vendor: 'github', kind: 'http', target: 'https://api.github.com/user', credential: { name: 'X-Api-Key', value: 'abc' } })).status,
      201,
    );
    assert.equal((await create({ vendor: 'github', kind: 'tls', target: 'api.github.com:443' })).status, 201);
    const mine = (await send(base(), 'GET', { cookie })).body.probes as any[];
    assert.deepEqual(mine.find((p) => p.kind === 'http').credential, { name: 'x-api-key', lastFour: '' }, 'a short value shows no characters');
    // Changing a tls probe to carry a credential, or injecting one by a change, is refused too.
    const tlsId = mine.find((p) => p.kind === 'tls').id;
    assert.equal((await send(`${base()}/${tlsId}`, 'PUT', s(), { credential: { name: 'authorization', value: 'x' } })).status, 400);
    assert.equal((await send(`${base()}/${tlsId}`, 'PUT', s(), { target: 'localhost:1\r\n' })).status, 400);
    assert.equal((await send(`${base()}/${tlsId}`, 'PUT', s(), {})).status, 400);
    for (const p of mine) await send(`${base()}/${p.id}`, 'DELETE', s());
  });

  test('at most 50 per organisation (409), counted per organisation', async () => {
    for (let i = 0; i < 50; i++) assert.equal((await create({ vendor: 'github', kind: 'tls', target: `api.github.com:${1000 + i}` })).status, 201);
    const over = await create({ vendor: 'github', kind: 'tls', target: 'api.github.com:2000' });
    assert.equal(over.status, 409, JSON.stringify(over.body));
    assert.equal((await create({ vendor: 'github', kind: 'tls', target: 'api.github.com:2000' }, otherCookie, otherOrg)).status, 201);
    for (const p of (await send(base(), 'GET', { cookie })).body.probes as any[]) await send(`${base()}/${p.id}`, 'DELETE', s());
    for (const p of (await send(`${t.url}/api/v1/orgs/${otherOrg}/probes`, 'GET', { cookie: otherCookie })).body.probes as any[])
      await send(`${t.url}/api/v1/orgs/${otherOrg}/probes/${p.id}`, 'DELETE', s(otherCookie));
  });

  test('the runner sends the credential to the probe origin only; failures reach only the owning organisation', async () => {
    const made = (await create(good())).body.probe;
    const r = runner('private-a');
    status = 200;
    seen.length = 0;
    const first = await r.runOnce();
    assert.equal(first.measured, 1);
    assert.deepEqual(seen, [{ path: '/user', auth: SECRET, key: undefined }], 'the credential went with the check');
    let p = (await send(`${base()}/${made.id}`, 'GET', { cookie })).body.probe;
    assert.equal(p.state, 'ok');
    assert.equal(p.samples, 1);
    // Not due within its interval: 30 s, only ever lengthened.
    clock.advance(29_000);
    assert.equal((await r.runOnce()).measured, 0);
    clock.advance(32_000);
    assert.equal((await r.runOnce()).measured, 1);

    status = 503;
    let observations = 0;
    for (let i = 0; i < 7; i++) {
      clock.advance(61_000);
      observations += (await r.runOnce()).observations;
    }
    assert.equal(observations, 6, 'the second failure on: one observation each, for the owner alone');
    p = (await send(`${base()}/${made.id}`, 'GET', { cookie })).body.probe;
    assert.equal(p.state, 'anomalous');
    const mine = (await send(`${t.url}/api/v1/orgs/${orgId}/signals`, 'GET', { cookie })).body.signals as any[];
    assert.equal(mine.length, 1);
    assert.ok(
      mine[0].evidence.every((e: any) => e.source === 'probe' && e.summary.includes(`localhost:${port}/user`)),
      JSON.stringify(mine[0].evidence),
    );
    const theirs = (await send(`${t.url}/api/v1/orgs/${otherOrg}/signals`, 'GET', { cookie: otherCookie })).body.signals as any[];
    assert.equal(theirs.length, 0, 'another organisation following github observes nothing of it');
    // Recovered once at most one of the last eight checks failed.
    status = 200;
    for (let i = 0; i < 7; i++) {
      clock.advance(61_000);
      await r.runOnce();
    }
    assert.equal((await send(`${base()}/${made.id}`, 'GET', { cookie })).body.probe.state, 'ok');
    await send(`${t.url}/api/v1/orgs/${orgId}/signals/${mine[0].id}/dismiss`, 'POST', s(), {});
    await send(`${base()}/${made.id}`, 'DELETE', s());
  });

  test('a refused credential is its own state, observes nothing and opens no signal', async () => {
    const before = (await send(`${t.url}/api/v1/orgs/${orgId}/signals`, 'GET', { cookie })).body.signals.length;
    const made = (await create({ ...good(), target: `http://localhost:${port}/revoked` })).body.probe;
    const r = runner('private-b');
    let observations = 0;
    for (let i = 0; i < 8; i++) {
      observations += (await r.runOnce()).observations;
      clock.advance(61_000);
    }
    const p = (await send(`${base()}/${made.id}`, 'GET', { cookie })).body.probe;
    assert.equal(p.state, 'credential_rejected');
    assert.equal(p.reason, 'status 401');
    assert.equal(p.samples, 8);
    assert.equal(observations, 0);
    assert.equal((await send(`${t.url}/api/v1/orgs/${orgId}/signals`, 'GET', { cookie })).body.signals.length, before);
    // The team's page shows the state and the credential's name and last four, never its value.
    const page = await fetch(`${t.url}/team/probes`, { headers: { cookie: viewerCookie } });
    assert.equal(page.status, 200);
    const text = await page.text();
    assert.match(text, new RegExp(`data-probe="${made.id}" data-probe-state="credential_rejected"`));
    assert.match(text, /Credential rejected/);
    assert.match(text, /<code>authorization<\/code> …6789/);
    assert.ok(!text.includes('private-probe-secret'));
    const elsewhere = await (await fetch(`${t.url}/team/probes`, { headers: { cookie: otherCookie } })).text();
    assert.ok(!elsewhere.includes(made.id), "another organisation's page does not list it");
    assert.equal((await fetch(`${t.url}/team/probes`, { redirect: 'manual' })).status, 303);
    // A replaced key that is accepted shows at once (the change makes it due) and is ok again.
    const changed = await send(`${base()}/${made.id}`, 'PUT', s(), {
      target: `http://localhost:${port}/user`,
      credential: { name: 'authorization', value: `${SECRET}-new` },
    });
    assert.equal(changed.status, 200, JSON.stringify(changed.body));
    assert.equal(changed.body.probe.state, 'unknown', 'a new target starts afresh');
    await r.runOnce();
    assert.equal((await send(`${base()}/${made.id}`, 'GET', { cookie })).body.probe.state, 'ok');
    assert.equal(seen[seen.length - 1]!.auth, `${SECRET}-new`);
    // `credential: null` removes it: nothing is kept, nothing is sent.
    const removed = await send(`${base()}/${made.id}`, 'PUT', s(), { credential: null });
    assert.equal(removed.body.probe.credential, null);
    const row = await t.store.db
      .selectFrom('probes')
      .select(['credential_name', 'credential_value', 'credential_last_four'])
      .where('id', '=', made.id)
      .executeTakeFirstOrThrow();
    assert.deepEqual(row, { credential_name: null, credential_value: null, credential_last_four: null });
    await r.runOnce();
    assert.equal(seen[seen.length - 1]!.auth, undefined);
    await send(`${base()}/${made.id}`, 'DELETE', s());
  });

  test('a redirect to another origin is not followed: the credential never leaves the probe origin', async () => {
    const made = (await create({ ...good(), target: `http://localhost:${port}/redirect` })).body.probe;
    redirectedHits = 0;
    redirectedAuth = [];
    await runner('private-c').runOnce();
    assert.equal(redirectedHits, 0);
    assert.deepEqual(redirectedAuth, []);
    const p = (await send(`${base()}/${made.id}`, 'GET', { cookie })).body.probe;
    assert.equal(p.samples, 1);
    assert.equal(p.errorRate, 1, 'a 302 is not one of the expected statuses');
    assert.equal((await t.repos.probes.get(made.id))!.samples[0]!.reason, 'status 302');
    await send(`${base()}/${made.id}`, 'DELETE', s());
  });

  test('the outbound guard refuses a private address at run time; private probes share the round bounds with catalog probes', async () => {
    // As if the operator's allow-list had changed since the probe was saved.
    await t.repos.privateProbes.create({
      id: 'prp_private_address',
      orgId,
      vendor: 'github',
      spec: { kind: 'http', url: `http://127.0.0.1:${port}/inside`, expect: [200] },
      target: `http://127.0.0.1:${port}/inside`,
      intervalSeconds: 30,
      credential: { name: 'authorization', value: SECRET },
      now: clock.now().toISOString(),
    });
    await t.app.services.earlyWarning.probes.syncCatalog([
      {
        slug: 'gitlab',
        probes: [
          { kind: 'http', url: `http://localhost:${port}/c1`, expect: [200] },
          { kind: 'http', url: `http://localhost:${port}/c2`, expect: [200] },
        ],
      } as any,
    ]);
    seen.length = 0;
    clock.advance(3_600_000);
    // Concurrency 1: a round claims twice that, private and catalog probes alike.
    const r = runner('private-d', 1);
    assert.equal((await r.runOnce()).measured, 2);
    assert.equal((await r.runOnce()).measured, 1);
    assert.ok(!seen.some((x) => x.path === '/inside'), 'nothing reached the private address');
    assert.equal((await t.repos.probes.get('prp_private_address'))!.samples[0]!.reason, 'refused: not a public address');
    await t.app.services.earlyWarning.probes.syncCatalog([]);
    await send(`${base()}/prp_private_address`, 'DELETE', s());
  });

  test('a credential sealed with a key this instance lacks: no request, its own state, and the round goes on', async () => {
    const unreadable = (await create(good())).body.probe;
    const fine = (await create({ ...good(), target: `http://localhost:${port}/fine`, credential: null })).body.probe;
    await t.store.db
      .updateTable('probes')
      .set({ credential_value: 'sb1:00000000:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' })
      .where('id', '=', unreadable.id)
      .execute();
    seen.length = 0;
    clock.advance(3_600_000);
    const round = await runner('private-e').runOnce();
    assert.equal(round.measured, 2);
    assert.deepEqual(
      seen.map((x) => x.path),
      ['/fine'],
      'no request without its credential',
    );
    const p = (await send(`${base()}/${unreadable.id}`, 'GET', { cookie })).body.probe;
    assert.equal(p.state, 'credential_rejected');
    assert.match(p.reason, /credential unreadable/);
    assert.equal((await send(`${base()}/${fine.id}`, 'GET', { cookie })).body.probe.state, 'ok');
    for (const x of [unreadable, fine]) await send(`${base()}/${x.id}`, 'DELETE', s());
  });

  test('deleting an organisation deletes its private probes and their credentials', async () => {
    const u = await createUser(t, 'pro');
    const c = await loginCookie(t, u);
    const gone = (await send(`${t.url}/api/v1/orgs`, 'POST', s(c), { name: 'Short-lived' })).body.organisation.id;
    assert.equal((await send(`${t.url}/api/v1/orgs/${gone}/switch`, 'POST', s(c))).status, 200);
    const made = await create(good(), c, gone);
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const del = await send(`${t.url}/api/v1/orgs/${gone}`, 'DELETE', s(c));
    assert.equal(del.status, 200, JSON.stringify(del.body));
    assert.equal(await t.repos.probes.get(made.body.probe.id), null);
  });

  test('the credential never reaches a log line, even at trace level', () => {
    const log = lines.join('');
    assert.ok(log.includes('incoming request'), 'the log was captured');
    assert.ok(!log.includes('private-probe-secret'), 'a log line carries the credential');
  });
});
