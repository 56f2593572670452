import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startApp, TestClock, type TestApp } from '../../helpers/app.ts';
import { emit, incident, webhookUser } from '../../helpers/alerts.ts';
import { type HttpReceiver, startReceiver } from '../../helpers/receivers.ts';
import { maintenance } from '../../helpers/records.ts';
import { createUser, loginCookie, send } from '../../helpers/users.ts';

// Alerts name the services they hit (docs/alert-routes.md "Affected services in alerts"),
// for the organisation that has them and never for another one; routes can ask for a hit
// on their services and owner routes get their services' incidents whatever their vendors
// (docs/alert-routes.md "Routing by service").

describe('alerts and the services they hit', () => {
  const clock = new TestClock(new Date('2026-11-29T12:00:00Z'));
  let t: TestApp;
  let hook: HttpReceiver;
  let cookie: string;
  let orgId: string;
  let flaky = 0;
  const s = () => ({ cookie, origin: t.url });
  const org = (p: string) => `${t.url}/api/v1/orgs/${orgId}${p}`;
  const at = (path: string) => hook.requests.filter((r) => r.path === path).map((r) => JSON.parse(r.body));

  before(async () => {
    hook = await startReceiver((req) => (req.path === '/flaky' && flaky++ === 0 ? { status: 503 } : { status: 204 }));
    t = await startApp({ clock, env: { DELIVER: 'off', OUTBOUND_ALLOW_PRIVATE: '127.0.0.1' } });
    const owner = await createUser(t, 'pro');
    cookie = await loginCookie(t, owner);
    orgId = (await send(`${t.url}/api/v1/orgs`, 'POST', s(), { name: 'Checkout team' })).body.organisation.id;
    assert.equal((await send(`${t.url}/api/v1/orgs/${orgId}/switch`, 'POST', s())).status, 200);
    assert.equal((await send(`${t.api}/watchlist`, 'PUT', s(), { vendors: ['github', 'stripe'] })).status, 200);
    await t.repos.status.replaceComponents(
      'github',
      [
        { id: 'cmp-actions', name: 'Actions', status: 'operational', group: null, position: 1 },
        { id: 'cmp-pages', name: 'Pages', status: 'operational', group: null, position: 2 },
      ],
      clock.now().toISOString(),
    );
    const route = async (body: Record<string, unknown>) => {
      const r = await send(org('/alert-routes'), 'POST', s(), body);
      assert.equal(r.status, 201, JSON.stringify(r.body));
      return r.body.route.id as string;
    };
    await route({ name: 'all', destination: { channel: 'webhook', url: `${hook.url}/all` } });
    await route({ name: 'slack text', destination: { channel: 'webhook', url: `${hook.url}/slack`, format: 'slack' } });
    await route({ name: 'only ours', destination: { channel: 'webhook', url: `${hook.url}/ours` }, filters: { onlyAffectingServices: true } });
    await route({ name: 'docs only', destination: { channel: 'webhook', url: `${hook.url}/docs` }, filters: { services: ['docs'] } });
    await route({ name: 'flaky', destination: { channel: 'webhook', url: `${hook.url}/flaky` }, filters: { vendors: ['github'] } });
    const ownerRoute = await route({
      name: 'checkout on-call',
      destination: { channel: 'webhook', url: `${hook.url}/owner` },
      filters: { vendors: ['cloudflare'] },
    });
    const made = [
      { name: 'checkout-api', criticality: 'critical', ownerRouteId: ownerRoute, dependencies: [{ vendor: 'github', components: ['Actions'] }] },
      { name: 'docs', criticality: 'low', dependencies: [{ vendor: 'stripe' }] },
    ];
    for (const m of made) assert.equal((await send(org('/services'), 'POST', s(), m)).status, 201);
    // Another organisation, without services, watching the same vendor.
    await webhookUser(t, ['github', 'stripe'], `${hook.url}/other`);
  });
  after(async () => {
    await t?.close();
    await hook?.close();
  });

  test('an incident on a component a service depends on names it, in the body and the text; never for another organisation', async () => {
    hook.requests.length = 0;
    await emit(t, 'incident.created', incident('github', { components: ['Actions'], title: 'Actions degraded' }));
    await t.app.alerts.runOnce();
    const [all] = at('/all');
    assert.ok(all, 'the route without filters got it');
    assert.equal(all.affectedServices.length, 1);
    assert.deepEqual(
      { ...all.affectedServices[0], serviceId: undefined },
      {
        serviceId: undefined,
        serviceName: 'checkout-api',
        criticality: 'critical',
        confidence: 'high',
        reasons: ["component 'Actions' listed"],
        via: 'github: Actions',
      },
    );
    assert.equal(all.affects, 'affects checkout-api (critical) via github: Actions');
    assert.equal(all.data.affectedServices, undefined, 'the record stays the record');
    const [slack] = at('/slack');
    assert.ok(JSON.stringify(slack.blocks).includes('affects checkout-api (critical) via github: Actions'));
    // The service filters and the owner route.
    assert.equal(at('/ours').length, 1);
    assert.equal(at('/docs').length, 0, 'docs is not hit');
    assert.equal(at('/owner').length, 1, "the owner route gets its service's incident though it is scoped to cloudflare");
    // Another organisation with no services: no field, no text.
    const [other] = at('/other');
    assert.ok(other);
    assert.ok(!('affectedServices' in other) && !('affects' in other));
    assert.ok(!JSON.stringify(other).includes('checkout-api'));
  });

  test('an incident that hits none of the services: an empty list, and the service filters hold it back', async () => {
    hook.requests.length = 0;
    await emit(t, 'incident.created', incident('github', { components: ['Pages'] }));
    await t.app.alerts.runOnce();
    const [all] = at('/all');
    assert.deepEqual(all.affectedServices, []);
    assert.equal(all.affects, null);
    assert.equal(at('/ours').length, 0);
    assert.equal(at('/owner').length, 0);
    assert.equal(at('/docs').length, 0);
  });

  test('a route for named services takes what hits them', async () => {
    hook.requests.length = 0;
    await emit(t, 'incident.created', incident('stripe', { title: 'Stripe API errors' }));
    await t.app.alerts.runOnce();
    const [docs] = at('/docs');
    assert.ok(docs);
    assert.equal(docs.affectedServices[0].serviceName, 'docs');
    assert.match(docs.affects, /^affects docs \(low\) via stripe$/);
    assert.equal(at('/ours').length, 1);
    assert.equal(at('/owner').length, 0, 'not its service, not its vendor');
  });

  test('a retry sends what the first attempt sent, though the services changed since', async () => {
    hook.requests.length = 0;
    flaky = 0;
    const record = incident('github', { components: ['Actions'] });
    await emit(t, 'incident.created', record);
    await t.app.alerts.runOnce();
    const ofRecord = () => hook.requests.filter((r) => r.path === '/flaky' && JSON.parse(r.body).data.id === record.id).map((r) => r.body);
    assert.equal(ofRecord().length, 1, 'first attempt failed');
    const list = (await send(org('/services'), 'GET', s())).body.services as { id: string; name: string }[];
    const checkout = list.find((x) => x.name === 'checkout-api')!;
    assert.equal((await send(org(`/services/${checkout.id}`), 'PUT', s(), { name: 'checkout-renamed' })).status, 200);
    clock.advance(10 * 60_000);
    await t.app.alerts.runOnce();
    const bodies = ofRecord();
    assert.equal(bodies.length, 2, 'retried');
    assert.equal(bodies[0], bodies[1], 'the same bytes');
    assert.ok(bodies[1]!.includes('checkout-api') && !bodies[1]!.includes('checkout-renamed'));
  });

  test('maintenance on what a critical service depends on reminds its owner route, without any setting', async () => {
    hook.requests.length = 0;
    clock.advance(60_000);
    const soon = new Date(clock.now().getTime() + 30 * 60_000).toISOString();
    await t.repos.maintenances.upsert(
      maintenance('github', 'actions-upgrade', { title: 'Actions upgrade', scheduledFor: soon, components: ['Actions'] }),
      'mw1',
    );
    await t.repos.maintenances.upsert(maintenance('github', 'pages-upgrade', { title: 'Pages upgrade', scheduledFor: soon, components: ['Pages'] }), 'mw2');
    await t.app.alerts.runOnce();
    const owner = hook.requests.filter((r) => r.path === '/owner').map((r) => JSON.parse(r.body));
    assert.equal(owner.length, 1, 'one reminder: the window that hits checkout-api');
    assert.equal(owner[0].type, 'maintenance.reminder');
    assert.equal(owner[0].data.title, 'Actions upgrade');
    assert.equal(owner[0].data.reminder.leadTime, '1h');
    assert.match(owner[0].affects, /^affects checkout-renamed \(critical\) via GitHub: Actions$/);
    assert.equal(
      hook.requests.filter((r) => r.path !== '/owner' && JSON.parse(r.body).type === 'maintenance.reminder').length,
      0,
      'other routes set nothing and get nothing',
    );
    // Once only, however often the scan runs.
    clock.advance(60_000);
    await t.app.alerts.runOnce();
    assert.equal(hook.requests.filter((r) => r.path === '/owner').length, 1);
  });
});
