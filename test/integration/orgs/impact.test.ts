import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { incident, maintenance } from '../../helpers/records.ts';
import { createUser, loginCookie, send } from '../../helpers/users.ts';

// What vendor incidents and maintenance hit of a team's services now (docs/services.md
// "Impact now"): open incidents and windows under way only, judged by the impact rules,
// with the records and reasons; members read it, nobody else does.

describe('impact now', () => {
  let t: TestApp;
  let cookie: string;
  let orgId: string;
  const s = () => ({ cookie, origin: t.url });
  const api = (p: string) => `${t.url}/api/v1/orgs/${orgId}${p}`;
  const ago = (min: number) => new Date(Date.now() - min * 60_000).toISOString();

  before(async () => {
    t = await startApp({ env: { DELIVER: 'off' } });
    const owner = await createUser(t, 'pro');
    cookie = await loginCookie(t, owner);
    orgId = (await send(`${t.url}/api/v1/orgs`, 'POST', s(), { name: 'Impact team' })).body.organisation.id;
    await t.repos.status.replaceComponents(
      'github',
      [
        { id: 'cmp-actions', name: 'Actions', status: 'partial_outage', group: null, position: 1 },
        { id: 'cmp-pages', name: 'Pages', status: 'under_maintenance', group: null, position: 2 },
      ],
      ago(1),
    );
    await t.repos.incidents.upsert(
      incident('github', 'actions', { title: 'Degraded performance for Actions', components: ['Actions'], impact: 'major' }),
      'f1',
    );
    await t.repos.incidents.upsert(incident('github', 'old', { title: 'Pages were down', components: ['Pages'], status: 'resolved' }), 'f2');
    await t.repos.incidents.upsert(
      incident('amazon-web-services', 'use1', {
        title: 'Increased error rates',
        updates: [
          { status: 'investigating', body: 'We are investigating increased error rates for EC2 APIs.', createdAt: '2026-10-20T13:40:00Z' },
          { status: 'identified', body: 'The issue affects the US-EAST-1 Region.', createdAt: '2026-10-20T14:02:00Z' },
        ],
      }),
      'f3',
    );
    await t.repos.incidents.upsert(incident('stripe', 'api', { title: 'Stripe API errors' }), 'f4');
    // Hetzner is not monitored (no status source): an incident left open from a gone source says nothing now.
    await t.repos.incidents.upsert(incident('hetzner', 'left-open', { title: 'Left open by a gone source' }), 'f5');
    await t.repos.maintenances.upsert(
      maintenance('github', 'pages-now', {
        title: 'Pages maintenance',
        status: 'in_progress',
        scheduledFor: ago(30),
        startedAt: ago(30),
        components: ['Pages'],
      }),
      'm1',
    );
    await t.repos.maintenances.upsert(maintenance('github', 'later', { title: 'Future maintenance', components: ['Actions'] }), 'm2');
  });
  after(async () => {
    await t?.close();
  });

  test('no services: nothing hit, nothing read', async () => {
    const r = await send(api('/impact'), 'GET', s());
    assert.equal(r.status, 200);
    assert.deepEqual(r.body, { success: true, openRecords: 0, services: [] });
  });

  test('the services hit now, with confidence, records and reasons', async () => {
    const made = [
      { name: 'ci', criticality: 'critical', dependencies: [{ vendor: 'github', components: ['cmp-actions'] }] },
      { name: 'site', dependencies: [{ vendor: 'github', kind: 'soft', components: ['cmp-pages'] }] },
      { name: 'docs', criticality: 'low', dependencies: [{ vendor: 'github' }] },
      { name: 'api', criticality: 'high', dependencies: [{ vendor: 'amazon-web-services', regions: ['us-east-1'] }] },
      { name: 'eu-api', dependencies: [{ vendor: 'amazon-web-services', regions: ['eu-central-1'] }] },
      { name: 'quiet', dependencies: [{ vendor: 'cloudflare' }] },
      { name: 'hosting', criticality: 'critical', dependencies: [{ vendor: 'hetzner' }] },
    ];
    for (const body of made) assert.equal((await send(api('/services'), 'POST', s(), body)).status, 201);
    const r = await send(api('/impact'), 'GET', s());
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.match(r.headers.get('cache-control') ?? '', /no-store/);
    // github: the Actions incident and the Pages window; AWS: one incident (stripe's is no vendor of ours).
    assert.equal(r.body.openRecords, 3);
    const got = r.body.services.map((x: any) => [x.serviceName, x.confidence, x.records.map((rec: any) => `${rec.id}:${rec.confidence}`).join(',')]);
    assert.deepEqual(got, [
      ['ci', 'high', 'github:actions:high'],
      ['api', 'medium', 'amazon-web-services:use1:medium'],
      ['site', 'medium', 'github:pages-now:medium'],
      ['docs', 'low', 'github:actions:low,github:pages-now:low'],
    ]);
    const ci = r.body.services[0];
    assert.deepEqual(ci.records[0].reasons, ["component 'Actions' listed"]);
    assert.equal(ci.records[0].kind, 'incident');
    assert.equal(ci.records[0].title, 'Degraded performance for Actions');
    assert.deepEqual(r.body.services[1].records[0].reasons, ['us-east-1 named in the 14:02 update']);
    assert.deepEqual(r.body.services[2].records[0].reasons, ["component 'Pages' listed", 'soft dependency']);
    assert.equal(r.body.services[2].records[0].kind, 'maintenance');
  });

  test('a resolved incident no longer hits', async () => {
    await t.repos.incidents.upsert(
      incident('github', 'actions', { title: 'Degraded performance for Actions', components: ['Actions'], status: 'resolved' }),
      'f1b',
    );
    const r = await send(api('/impact'), 'GET', s());
    assert.ok(!r.body.services.some((x: any) => x.serviceName === 'ci'), JSON.stringify(r.body.services.map((x: any) => x.serviceName)));
    assert.equal(r.body.openRecords, 2);
  });

  test('other organisations and anonymous callers read nothing', async () => {
    const other = await createUser(t, 'pro');
    const o = { cookie: await loginCookie(t, other), origin: t.url };
    assert.equal((await send(api('/impact'), 'GET', o)).status, 404);
    assert.equal((await send(api('/impact'), 'GET', {})).status, 401);
    assert.equal((await send(`${t.url}/api/v1/orgs/not%00an-id/impact`, 'GET', s())).status >= 400, true);
  });
});
