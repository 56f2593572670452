import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { csrfTokenOf } from '../../helpers/access.ts';
import { createUser, loginCookie, send, type TestUser } from '../../helpers/users.ts';

// The services page's edit form (docs/web.md "Team", docs/services.md "API"): POST
// /team/services/{id} and GET /team/services?edit={id} act on the session's organisation
// only. Another organisation's service is not found (and unchanged), a viewer is refused,
// the CSRF check applies, and hostile input is a 4xx page, never a 500.

describe('services edit form: scoped to the organisation and the role', () => {
  let t: TestApp;
  let owner: TestUser;
  let ownerCookie = '';
  let viewerCookie = '';
  let outsiderCookie = '';
  let serviceId = '';
  let foreignId = '';
  const s = (cookie: string) => ({ cookie, origin: t.url });

  /** Posts the edit form as a browser does (urlencoded, `_csrf` field, Origin). */
  const post = (cookie: string, id: string, fields: Record<string, string>, o: { csrf?: string } = {}) =>
    fetch(`${t.url}/team/services/${encodeURIComponent(id)}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie, origin: t.url, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ _csrf: o.csrf ?? csrfTokenOf(cookie), ...fields }).toString(),
    }).then(async (r) => ({ status: r.status, location: r.headers.get('location'), body: await r.text() }));
  const stored = async (id: string) => (await t.store.db.selectFrom('services').selectAll().where('id', '=', id).executeTakeFirst())!;
  const FORM = { name: 'renamed', ownerRouteId: '', criticality: 'high', tags: 'x', dependencies: 'github | hard | |' };

  before(async () => {
    t = await startApp({ env: { DELIVER: 'off' } });
    owner = await createUser(t, 'pro');
    ownerCookie = await loginCookie(t, owner);
    const org = await send(`${t.url}/api/v1/orgs`, 'POST', s(ownerCookie), { name: 'Edit team' });
    const orgId = org.body.organisation.id;
    await send(`${t.url}/api/v1/orgs/${orgId}/switch`, 'POST', s(ownerCookie));
    const made = await send(`${t.url}/api/v1/orgs/${orgId}/services`, 'POST', s(ownerCookie), { name: 'ci', dependencies: [{ vendor: 'github' }] });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    serviceId = made.body.service.id;

    const viewer = await createUser(t, 'free');
    viewerCookie = await loginCookie(t, viewer);
    const inv = await send(`${t.url}/api/v1/orgs/${orgId}/invitations`, 'POST', s(ownerCookie), { email: viewer.email, role: 'viewer' });
    const token = inv.body.invitation.link.split('/').pop();
    assert.equal((await send(`${t.url}/api/v1/invitations/${token}/accept`, 'POST', s(viewerCookie))).status, 200);
    assert.equal((await send(`${t.url}/api/v1/orgs/${orgId}/switch`, 'POST', s(viewerCookie))).status, 200);

    const outsider = await createUser(t, 'pro');
    outsiderCookie = await loginCookie(t, outsider);
    const theirs = await send(`${t.url}/api/v1/orgs/${outsider.id}/services`, 'POST', s(outsiderCookie), {
      name: 'theirs',
      dependencies: [{ vendor: 'stripe' }],
    });
    assert.equal(theirs.status, 201, JSON.stringify(theirs.body));
    foreignId = theirs.body.service.id;
  });
  after(() => t?.close());

  test('an editor of the organisation saves; the page redirects', async () => {
    const r = await post(ownerCookie, serviceId, FORM);
    assert.equal(r.status, 303, r.body.slice(0, 300));
    assert.equal(r.location, '/team/services?done=updated');
    const row = await stored(serviceId);
    assert.equal(row.name, 'renamed');
    assert.equal(row.criticality, 'high');
  });

  test("another organisation's service is not found, shown nowhere and left unchanged", async () => {
    const before = await stored(foreignId);
    const r = await post(ownerCookie, foreignId, { ...FORM, name: 'stolen' });
    assert.equal(r.status, 404);
    assert.match(r.body, /No such service/);
    assert.deepEqual(await stored(foreignId), before);

    const page = await fetch(`${t.url}/team/services?edit=${foreignId}`, { headers: { cookie: ownerCookie } });
    const body = await page.text();
    assert.equal(page.status, 404);
    assert.ok(!body.includes('theirs') && !body.includes('data-edit-service'), 'nothing of the other service is shown');

    // The outsider cannot reach the team's service either.
    const back = await post(outsiderCookie, serviceId, { ...FORM, name: 'hijacked' });
    assert.equal(back.status, 404);
    assert.equal((await stored(serviceId)).name, 'renamed');
  });

  test('a viewer is refused (403) and sees no edit form', async () => {
    const r = await post(viewerCookie, serviceId, { ...FORM, name: 'by-viewer' });
    assert.equal(r.status, 403);
    assert.equal((await stored(serviceId)).name, 'renamed');
    const page = await (await fetch(`${t.url}/team/services?edit=${serviceId}`, { headers: { cookie: viewerCookie } })).text();
    assert.ok(!page.includes('data-edit-service'));
  });

  test('without the CSRF token or signed out: refused, nothing changed', async () => {
    const r = await post(ownerCookie, serviceId, { ...FORM, name: 'no-token' }, { csrf: 'x' });
    assert.equal(r.status, 403);
    const anon = await fetch(`${t.url}/team/services/${serviceId}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { origin: t.url, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'name=anon',
    });
    assert.ok([303, 403].includes(anon.status), `signed out: ${anon.status}`);
    assert.equal((await stored(serviceId)).name, 'renamed');
  });

  test('hostile input is a 4xx page with the reason, never a 500', async () => {
    const cases: [Record<string, string>, number, RegExp][] = [
      [{ ...FORM, name: 'Bad Name' }, 400, /name/i],
      [{ ...FORM, name: 'a'.repeat(5000) }, 400, /name/i],
      [{ ...FORM, name: 'ok\u0000x' }, 400, /name/i],
      [{ ...FORM, ownerRouteId: 'rte_of_nobody' }, 400, /ownerRouteId/],
      [{ ...FORM, criticality: '<script>' }, 303, /^$/], // unknown criticality reads as medium
      [{ ...FORM, dependencies: 'nope-vendor | hard | |' }, 404, /nope-vendor/],
      [{ ...FORM, dependencies: 'github | hard | <img src=x onerror=alert(1)> |' }, 400, /not a component/],
      [{ ...FORM, dependencies: `github | hard | | ${'us-east-1,'.repeat(60)}` }, 400, /regions/],
    ];
    for (const [fields, status, reason] of cases) {
      const r = await post(ownerCookie, serviceId, fields);
      assert.equal(r.status, status, `${JSON.stringify(fields).slice(0, 120)}: ${r.body.slice(0, 200)}`);
      if (status >= 400) {
        assert.match(r.body, reason);
        assert.ok(!r.body.includes('<img src=x'), 'posted text is escaped when shown again');
      }
    }
    for (const id of ['x'.repeat(65), '..%2F..%2Fetc', "' or 1=1 --"]) {
      const r = await post(ownerCookie, id, FORM);
      assert.ok(r.status >= 400 && r.status < 500, `id ${id}: ${r.status}`);
    }
    const page = await fetch(`${t.url}/team/services?edit=${'%00'.repeat(10)}`, { headers: { cookie: ownerCookie } });
    assert.equal(page.status, 404);
  });
});
