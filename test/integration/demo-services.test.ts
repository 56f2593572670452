import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startApp, type TestApp } from '../helpers/app.ts';
import { incident } from '../helpers/records.ts';
import { createUser, loginCookie, send } from '../helpers/users.ts';
import { ensureDemoServices } from '../../src/services/demo-login.ts';

// The demo's example services (docs/operations.md "Demo"): made once in the demo account's
// organisation, on vendors of the catalog, so impact shows as soon as the fleet has an incident.

describe('demo services', () => {
  let t: TestApp;
  before(async () => {
    t = await startApp({ env: { DELIVER: 'off' } });
  });
  after(async () => {
    await t?.close();
  });

  test("made once, in the account's organisation, and hit by the fleet's incidents", async () => {
    const user = await createUser(t, 'pro');
    const cookie = await loginCookie(t, user);
    assert.equal(await ensureDemoServices(t.app.services, user.email), 4);
    assert.equal(await ensureDemoServices(t.app.services, user.email), 0, 'not again');
    const me = await send(`${t.url}/api/v1/orgs`, 'GET', { cookie, origin: t.url });
    const orgId = (me.body.organisations as { id: string; personal: boolean }[]).find((o) => o.personal)!.id;
    const list = await send(`${t.url}/api/v1/orgs/${orgId}/services`, 'GET', { cookie, origin: t.url });
    assert.deepEqual((list.body.services as { name: string }[]).map((x) => x.name).sort(), ['checkout-api', 'ci-pipeline', 'notifications', 'website']);
    await t.repos.incidents.upsert(incident('github', 'demo', { title: 'Actions degraded' }), 'f1');
    const impact = await send(`${t.url}/api/v1/orgs/${orgId}/impact`, 'GET', { cookie, origin: t.url });
    assert.equal(impact.status, 200);
    assert.deepEqual(
      (impact.body.services as { serviceName: string }[]).map((x) => x.serviceName),
      ['ci-pipeline'],
    );
    assert.equal(await ensureDemoServices(t.app.services, 'nobody@example.com'), 0);
  });
});
