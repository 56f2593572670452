import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { login, ownerViewer, type TestUser, userWithKey } from '../../helpers/access.ts';
import { incident } from '../../helpers/records.ts';
import { commitEvents, openStream, type StreamClient } from '../../helpers/stream.ts';
import { send } from '../../helpers/users.ts';

// Affected services on the incident stream and on boards (docs/stream.md "Affected
// services", docs/boards.md "Affected services"): a member's stream carries its own
// organisation's services on the snapshot, live events and the replay; another
// organisation's member gets its own services only, anonymous readers and organisations
// without services never get the field; a board shows them only to a member of the
// organisation that owns it.

const STREAM = '/incidents/stream';

describe('affected services: stream and boards, never across organisations', () => {
  let t: TestApp;
  let carol: TestUser; // service "ci" on github Actions
  let dave: TestUser; // service "dave-site" on stripe
  let erin: TestUser; // no services
  let boardToken = '';
  const key = (u: TestUser) => ({ 'x-api-key': u.secret });
  const open: StreamClient[] = [];
  const stream = (headers: Record<string, string> = {}, query = '') => {
    const s = openStream(`${t.api}${STREAM}${query}`, headers);
    open.push(s);
    return s;
  };
  const ofIncident = (events: { data: any }[], id: string) => events.find((e) => e.data.incident?.id === id)?.data.incident;

  before(async () => {
    t = await startApp({ env: { RATE_LIMITS: JSON.stringify({ anonymous: { perMinute: 100000, perDay: 1000000, concurrentStreams: 20 } }) } });
    carol = await userWithKey(t, 'pro', 'carol');
    dave = await userWithKey(t, 'pro', 'dave');
    erin = await userWithKey(t, 'pro', 'erin');
    await t.repos.status.replaceComponents(
      'github',
      [{ id: 'cmp-actions', name: 'Actions', status: 'partial_outage', group: null, position: 1 }],
      new Date().toISOString(),
    );
    await t.repos.incidents.upsert(incident('github', 'snap', { title: 'Actions degraded', components: ['Actions'] }), 'f');
    await t.app.services.teamServices.create(ownerViewer(carol.userId, 'pro'), carol.userId, {
      name: 'ci',
      criticality: 'critical',
      dependencies: [{ vendor: 'github', components: ['cmp-actions'] }],
    });
    await t.app.services.teamServices.create(ownerViewer(dave.userId, 'pro'), dave.userId, { name: 'dave-site', dependencies: [{ vendor: 'stripe' }] });
    assert.equal((await send(`${t.api}/watchlist`, 'PUT', key(carol), { vendors: ['github', 'stripe'] })).status, 200);
    const made = await send(`${t.url}/api/v1/boards`, 'POST', key(carol), { title: 'Carol vendors' });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    boardToken = made.body.token;
  });
  after(async () => {
    for (const s of open) s.close();
    await t?.close();
  });

  test('snapshot and live events: each organisation its own services, nobody else the field', async () => {
    const [c, d, e, anon] = [stream(key(carol)), stream(key(dave)), stream(key(erin)), stream()];
    const snaps = await Promise.all([c, d, e, anon].map((s) => s.waitFor(1)));
    assert.deepEqual(
      ofIncident(
        snaps[0]!.map((x) => ({ data: { incident: x.data.incidents[0] } })),
        'github:snap',
      )?.affectedServices?.map((s: any) => s.serviceName),
      ['ci'],
      'carol: the snapshot carries her service',
    );
    for (const [who, snap] of [
      ['erin', snaps[2]],
      ['anonymous', snaps[3]],
    ] as const) {
      assert.ok(!JSON.stringify(snap).includes('affectedServices'), `${who}: no field in the snapshot`);
    }
    assert.ok(!JSON.stringify(snaps[1]).includes('"ci"'), "dave: never carol's service");

    await commitEvents(t, [
      { vendor: 'github', id: 'live', type: 'incident.created', over: { title: 'Actions runs delayed', components: ['Actions'] } },
      { vendor: 'stripe', id: 'live', type: 'incident.created', over: { title: 'API errors' } },
    ]);
    const [cl, dl, el, al] = await Promise.all([c, d, e, anon].map((s) => s.waitFor(3)));

    const carolGithub = ofIncident(cl!, 'github:live');
    assert.equal(carolGithub.affectedServices.length, 1);
    assert.equal(carolGithub.affectedServices[0].serviceName, 'ci');
    assert.equal(carolGithub.affectedServices[0].confidence, 'high');
    assert.deepEqual(carolGithub.affectedServices[0].reasons, ["component 'Actions' listed"]);
    assert.deepEqual(ofIncident(cl!, 'stripe:live').affectedServices, [], 'carol: a stripe incident hits none of hers');

    assert.deepEqual(ofIncident(dl!, 'github:live').affectedServices, []);
    assert.deepEqual(
      ofIncident(dl!, 'stripe:live').affectedServices.map((s: any) => s.serviceName),
      ['dave-site'],
    );
    assert.ok(!JSON.stringify(dl).includes('"ci"'), "dave never sees carol's service");
    assert.ok(!JSON.stringify(cl).includes('dave-site'), "carol never sees dave's service");

    for (const [who, got] of [
      ['erin (no services)', el],
      ['anonymous', al],
    ] as const) {
      assert.equal(ofIncident(got!, 'github:live').title, 'Actions runs delayed', `${who}: the event itself arrives`);
      assert.ok(!JSON.stringify(got).includes('affectedServices'), `${who}: no field`);
      assert.ok(!JSON.stringify(got).includes('"ci"') && !JSON.stringify(got).includes('dave-site'));
    }
  });

  test("a replay after Last-Event-ID carries the reader's own services only", async () => {
    const from = await t.repos.events.latestSeq();
    await commitEvents(t, [{ vendor: 'github', id: 'missed', type: 'incident.created', over: { components: ['Actions'] } }], { publish: false });
    const c = stream(key(carol), `?lastEventId=${from}`);
    const d = stream(key(dave), `?lastEventId=${from}`);
    const anon = stream({}, `?lastEventId=${from}`);
    const [cr, dr, ar] = await Promise.all([c, d, anon].map((s) => s.waitForType('incident.created')));
    assert.equal(cr!.data.incident.id, 'github:missed');
    assert.deepEqual(
      cr!.data.incident.affectedServices.map((s: any) => s.serviceName),
      ['ci'],
    );
    assert.deepEqual(dr!.data.incident.affectedServices, []);
    assert.ok(!('affectedServices' in ar!.data.incident));
  });

  test('the public board stream never carries the field, even for the owner', async () => {
    const b = stream(key(carol));
    await b.waitFor(1);
    const board = openStream(`${t.url}/b/${boardToken}/stream`, key(carol));
    open.push(board);
    await board.waitFor(1);
    await commitEvents(t, [{ vendor: 'github', id: 'board-live', type: 'incident.created', over: { components: ['Actions'] } }]);
    const got = await board.waitForType('incident.created');
    assert.equal(got.data.incident.id, 'github:board-live');
    assert.ok(!('affectedServices' in got.data.incident));
    const own = await b.waitForType('incident.created');
    assert.equal(own.data.incident.affectedServices[0].serviceName, 'ci', 'the same event on her own stream has it');
  });

  test("a board page shows the owning organisation's services to its members only", async () => {
    const page = (headers: Record<string, string> = {}) => fetch(`${t.url}/b/${boardToken}`, { headers }).then(async (r) => ({ r, body: await r.text() }));
    const carolSession = await login(t, carol.email, carol.password);
    for (const headers of [{ cookie: carolSession }, key(carol)]) {
      const { r, body } = await page(headers);
      assert.equal(r.status, 200);
      assert.match(body, /data-our-services><span class="muted">Our services:<\/span> ci \(high: component &#39;Actions&#39; listed\)/);
      assert.equal(r.headers.getSetCookie().length, 0, 'the board sets no cookie');
      assert.match(r.headers.get('vary') ?? '', /Cookie/);
    }
    const partial = await fetch(`${t.url}/b/${boardToken}/partial`, { headers: { cookie: carolSession } }).then((r) => r.text());
    assert.match(partial, /Our services:<\/span> ci/, 'the live partial keeps them');

    const daveSession = await login(t, dave.email, dave.password);
    for (const [who, headers] of [
      ['anonymous', {}],
      ['dave (session)', { cookie: daveSession }],
      ['dave (key)', key(dave)],
      ['erin (key)', key(erin)],
    ] as const) {
      const { r, body } = await page(headers);
      assert.equal(r.status, 200, who);
      assert.match(body, /Actions degraded/, `${who}: the incident is shown`);
      assert.ok(!body.includes('data-our-services'), `${who}: no services line`);
      assert.ok(!body.includes('dave-site') && !/\bci \(/.test(body), `${who}: no service names`);
    }
  });
});
