import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { createUser, loginCookie, send, type TestUser } from '../../helpers/users.ts';

// A team's own services and their vendor dependencies (docs/services.md): created, read,
// changed and deleted by role; components kept by id across a vendor's rename; regions
// stored as codes; audited; hostile bodies are a 4xx and change nothing; another
// organisation's services and routes are out of reach.

describe('services', () => {
  let t: TestApp;
  let owner: TestUser;
  let cookie: string;
  let orgId: string;
  let routeId: string;
  const s = () => ({ cookie, origin: t.url });
  const services = (p = '') => `${t.url}/api/v1/orgs/${orgId}/services${p}`;
  const create = (body: unknown) => send(services(), 'POST', s(), body);
  const githubComponents = (actionsName: string) => [
    { id: 'cmp-actions', name: actionsName, status: 'operational' as const, group: null, position: 1 },
    { id: 'cmp-pages', name: 'Pages', status: 'operational' as const, group: null, position: 2 },
  ];

  before(async () => {
    t = await startApp({ env: { DELIVER: 'off' } });
    owner = await createUser(t, 'pro');
    cookie = await loginCookie(t, owner);
    orgId = (await send(`${t.url}/api/v1/orgs`, 'POST', s(), { name: 'Platform team' })).body.organisation.id;
    assert.equal((await send(`${t.url}/api/v1/orgs/${orgId}/switch`, 'POST', s())).status, 200);
    const route = await send(`${t.url}/api/v1/orgs/${orgId}/alert-routes`, 'POST', s(), {
      name: 'platform pager',
      destination: { channel: 'pagerduty', routingKey: 'a'.repeat(32) },
    });
    assert.equal(route.status, 201);
    routeId = route.body.route.id;
    await t.repos.status.replaceComponents('github', githubComponents('Actions'), new Date().toISOString());
  });
  after(async () => {
    await t?.close();
  });

  test('create, read, change and delete a service; components by id, regions as codes', async () => {
    const made = await create({
      name: 'checkout-api',
      ownerRouteId: routeId,
      criticality: 'critical',
      tags: ['team:payments', 'tier-1', 'tier-1'],
      dependencies: [
        { vendor: 'github', kind: 'soft', components: ['cmp-actions', 'Pages'] },
        { vendor: 'amazon-web-services', regions: ['US East (N. Virginia)', 'eu-west-1', 'us-east-1', 'Tokyo'] },
      ],
    });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const svc = made.body.service;
    assert.match(svc.id, /^svc_[0-9a-f]{32}$/);
    assert.deepEqual(svc.tags, ['team:payments', 'tier-1']);
    assert.equal(svc.ownerRouteId, routeId);
    assert.deepEqual(svc.dependencies[0], {
      vendor: 'github',
      kind: 'soft',
      components: [
        { id: 'cmp-actions', name: 'Actions' },
        { id: 'cmp-pages', name: 'Pages' },
      ],
      regions: [],
    });
    // The vendor is AWS, so "Tokyo" is read as AWS's Tokyo region.
    assert.deepEqual(
      svc.dependencies[1].regions.map((r: { code: string }) => r.code),
      ['us-east-1', 'eu-west-1', 'ap-northeast-1'],
    );
    assert.equal(svc.dependencies[1].kind, 'hard');

    // The vendor renames a component: the service keeps it and shows the new name.
    await t.repos.status.replaceComponents('github', githubComponents('GitHub Actions'), new Date().toISOString());
    const got = await send(services(`/${svc.id}`), 'GET', s());
    assert.equal(got.status, 200);
    assert.equal(got.body.service.dependencies[0].components[0].name, 'GitHub Actions');

    const changed = await send(services(`/${svc.id}`), 'PUT', s(), { criticality: 'high', dependencies: [{ vendor: 'google-cloud', regions: ['Iowa'] }] });
    assert.equal(changed.status, 200, JSON.stringify(changed.body));
    assert.equal(changed.body.service.criticality, 'high');
    assert.equal(changed.body.service.name, 'checkout-api', 'fields not given are kept');
    assert.deepEqual(
      changed.body.service.dependencies.map((d: { vendor: string }) => d.vendor),
      ['google-cloud'],
    );
    assert.equal(changed.body.service.dependencies[0].regions[0].code, 'us-central1');

    const list = await send(services(), 'GET', s());
    assert.deepEqual(
      list.body.services.map((x: { name: string }) => x.name),
      ['checkout-api'],
    );

    const audit = JSON.stringify((await send(`${t.url}/api/v1/orgs/${orgId}/audit?limit=50`, 'GET', s())).body);
    assert.ok(audit.includes('service.created') && audit.includes('service.updated'), audit.slice(0, 300));

    assert.equal((await send(services(`/${svc.id}`), 'DELETE', s())).status, 200);
    assert.equal((await send(services(`/${svc.id}`), 'GET', s())).status, 404);
    assert.equal((await send(services(`/${svc.id}`), 'DELETE', s())).status, 404);
    assert.ok(JSON.stringify((await send(`${t.url}/api/v1/orgs/${orgId}/audit?limit=50`, 'GET', s())).body).includes('service.deleted'));
  });

  test('deleting the owner route leaves the service without one', async () => {
    const route = await send(`${t.url}/api/v1/orgs/${orgId}/alert-routes`, 'POST', s(), {
      name: 'short-lived',
      destination: { channel: 'pagerduty', routingKey: 'b'.repeat(32) },
    });
    const made = await create({ name: 'billing', ownerRouteId: route.body.route.id });
    assert.equal(made.status, 201);
    assert.equal((await send(`${t.url}/api/v1/orgs/${orgId}/alert-routes/${route.body.route.id}`, 'DELETE', s())).status, 200);
    assert.equal((await send(services(`/${made.body.service.id}`), 'GET', s())).body.service.ownerRouteId, null);
  });

  test('viewers read, editors write', async () => {
    const viewer = await createUser(t, 'pro');
    const editor = await createUser(t, 'pro');
    for (const [u, role] of [
      [viewer, 'viewer'],
      [editor, 'editor'],
    ] as const) {
      const inv = await send(`${t.url}/api/v1/orgs/${orgId}/invitations`, 'POST', s(), { email: u.email, role });
      assert.equal(inv.status, 201, JSON.stringify(inv.body));
      const c = await loginCookie(t, u);
      assert.equal(
        (
          await send(`${t.url}/api/v1/invitations/${new URL(inv.body.invitation.link, t.url).pathname.split('/').pop()}/accept`, 'POST', {
            cookie: c,
            origin: t.url,
          })
        ).status,
        200,
      );
    }
    const v = { cookie: await loginCookie(t, viewer), origin: t.url };
    const e = { cookie: await loginCookie(t, editor), origin: t.url };
    assert.equal((await send(services(), 'GET', v)).status, 200);
    const refused = await send(services(), 'POST', v, { name: 'viewer-made' });
    assert.equal(refused.status, 403);
    assert.equal(refused.body.error, 'role_required');
    const made = await send(services(), 'POST', e, { name: 'editor-made' });
    assert.equal(made.status, 201);
    assert.equal((await send(services(`/${made.body.service.id}`), 'PUT', v, { criticality: 'low' })).status, 403);
    assert.equal((await send(services(`/${made.body.service.id}`), 'DELETE', v)).status, 403);
    assert.equal((await send(services(`/${made.body.service.id}`), 'DELETE', e)).status, 200);
  });

  test('hostile input: 4xx with the error body, nothing written', async () => {
    assert.equal((await create({ name: 'payments' })).status, 201);
    const before = (await send(services(), 'GET', s())).body.services.length;
    const cases: [string, unknown][] = [
      ['unknown vendor', { name: 'x', dependencies: [{ vendor: 'no-such-vendor' }] }],
      ['unknown component', { name: 'x', dependencies: [{ vendor: 'github', components: ['cmp-nope'] }] }],
      ['component of another vendor', { name: 'x', dependencies: [{ vendor: 'cloudflare', components: ['cmp-actions'] }] }],
      ['unknown region', { name: 'x', dependencies: [{ vendor: 'amazon-web-services', regions: ['us-east-10'] }] }],
      ['ambiguous place', { name: 'x', dependencies: [{ vendor: 'github', regions: ['Tokyo'] }] }],
      ['region of another cloud', { name: 'x', dependencies: [{ vendor: 'google-cloud', regions: ['us-east-1'] }] }],
      ['the same vendor twice', { name: 'x', dependencies: [{ vendor: 'github' }, { vendor: 'github', kind: 'soft' }] }],
      ['bad kind', { name: 'x', dependencies: [{ vendor: 'github', kind: 'maybe' }] }],
      ['control characters in the name', { name: 'a\u0000b' }],
      ['control characters in a component', { name: 'x', dependencies: [{ vendor: 'github', components: ['Act\u0007ions'] }] }],
      ['control characters in a region', { name: 'x', dependencies: [{ vendor: 'amazon-web-services', regions: ['us-east-1\u0000'] }] }],
      ['upper-case name', { name: 'Checkout API' }],
      ['name with a trailing dash', { name: 'checkout-' }],
      ['overlong name', { name: 'a'.repeat(65) }],
      ['too many tags', { name: 'x', tags: Array.from({ length: 21 }, (_, i) => `t${i}`) }],
      ['bad tag', { name: 'x', tags: ['Tier 1'] }],
      ['too many dependencies', { name: 'x', dependencies: Array.from({ length: 51 }, (_, i) => ({ vendor: `v${i}` })) }],
      ['too many regions', { name: 'x', dependencies: [{ vendor: 'amazon-web-services', regions: Array.from({ length: 51 }, () => 'us-east-1') }] }],
      ['bad criticality', { name: 'x', criticality: 'urgent' }],
      ['unknown field', { name: 'x', owner: 'me' }],
      ['unknown dependency field', { name: 'x', dependencies: [{ vendor: 'github', region: 'us-east-1' }] }],
      ['wrong types', { name: 42, dependencies: 'github' }],
      ['array body', []],
      ['unknown owner route', { name: 'x', ownerRouteId: 'rte_nonexistent' }],
      ['a duplicate name', { name: 'payments' }],
    ];
    for (const [why, body] of cases) {
      const r = await create(body);
      assert.ok(r.status >= 400 && r.status < 500, `${why}: ${r.status} ${JSON.stringify(r.body)}`);
      assert.equal(r.body.success, false, why);
      assert.equal(typeof r.body.error, 'string', why);
    }
    const huge = await fetch(services(), {
      method: 'POST',
      headers: { ...s(), 'content-type': 'application/json' },
      body: `{"name":"x","tags":["${'a'.repeat(3_000_000)}"]}`,
    });
    assert.equal(huge.status, 413);
    assert.equal((await send(services(), 'GET', s())).body.services.length, before);
    assert.equal((await send(services('/svc_nonexistent'), 'PUT', s(), { criticality: 'low' })).status, 404);
    assert.equal((await send(services('/svc_nonexistent'), 'PUT', s(), {})).status, 400);
    const mine = (await send(services(), 'GET', s())).body.services.find((x: { name: string }) => x.name === 'payments');
    assert.equal((await send(services(`/${mine.id}`), 'PUT', s(), { name: 'billing' })).status, 409, 'renaming onto a taken name');
  });

  test("another organisation's services and routes are out of reach, even by id", async () => {
    const mine = (await send(services(), 'GET', s())).body.services[0];
    const other = await createUser(t, 'pro');
    const o = { cookie: await loginCookie(t, other), origin: t.url };
    const theirs = (await send(`${t.url}/api/v1/orgs`, 'POST', o, { name: 'Other team' })).body.organisation.id;
    for (const [method, body] of [
      ['GET', undefined],
      ['PUT', { criticality: 'low' }],
      ['DELETE', undefined],
    ] as const) {
      assert.equal((await send(`${t.url}/api/v1/orgs/${theirs}/services/${mine.id}`, method, o, body)).status, 404, method);
      assert.equal((await send(`${t.url}/api/v1/orgs/${orgId}/services/${mine.id}`, method, o, body)).status, 404, `${method} in our org`);
    }
    // Their service cannot name our alert route as its owner.
    const r = await send(`${t.url}/api/v1/orgs/${theirs}/services`, 'POST', o, { name: 'theirs', ownerRouteId: routeId });
    assert.equal(r.status, 400);
    assert.equal(r.body.parameter, 'ownerRouteId');
    assert.equal((await send(services(`/${mine.id}`), 'GET', s())).body.service.criticality, mine.criticality);
  });

  test('an organisation holds 1,000 services and more, up to the documented cap', async () => {
    // Filled through the repository for speed; the cap is checked through the API.
    const have = (await send(services(), 'GET', s())).body.services.length;
    const now = new Date();
    for (let i = have; i < 1000; i++) {
      const r = await t.repos.services.create(
        {
          id: `svc_bulk${i}`,
          orgId,
          name: `bulk-${i}`,
          ownerRouteId: null,
          criticality: 'low',
          tags: [],
          dependencies: [{ vendor: 'github', kind: 'hard', components: [], regions: [] }],
          now,
        },
        2000,
      );
      assert.equal(r.status, 'created');
    }
    const list = await send(services(), 'GET', s());
    assert.equal(list.status, 200);
    assert.equal(list.body.services.length, 1000);
    assert.equal((await create({ name: 'one-more' })).status, 201);
    const full = await t.repos.services.create(
      { id: 'svc_over', orgId, name: 'over', ownerRouteId: null, criticality: 'low', tags: [], dependencies: [], now },
      1001,
    );
    assert.equal(full.status, 'full');
  });
});
