import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { parse, stringify } from 'yaml';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { createUser, loginCookie, send } from '../../helpers/users.ts';

// Config as code (docs/services.md "Config as code"): a file of services, named watchlists
// and alert routes, applied as a plan in one transaction, idempotent; export writes the
// same format without secrets, and export then apply changes nothing; a file with any
// problem is refused whole with every problem's path and line; hostile files are 400s.

describe('config as code', () => {
  let t: TestApp;
  let cookie: string;
  let orgId: string;
  let otherCookie: string;
  let otherRouteId: string;
  const s = () => ({ cookie, origin: t.url });
  const org = (p: string) => `${t.url}/api/v1/orgs/${orgId}${p}`;
  const apply = (yaml: string, o: { dryRun?: boolean; prune?: boolean } = {}) => send(org('/config/apply'), 'POST', s(), { yaml, ...o });
  const exported = async () => {
    const r = await send(org('/config/export'), 'GET', s());
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body.yaml as string;
  };
  const names = async (p: string, key: string) => ((await send(org(p), 'GET', s())).body[key] as { name: string }[]).map((x) => x.name).sort();

  const FILE = `version: 1
watchlists:
  - name: payments
    vendors: [stripe]
routes:
  - name: payments pager
    destination: { channel: pagerduty, routingKey: ${'k'.repeat(32)} }
    filters: { watchlist: payments, onlyAffectingServices: true }
services:
  - name: checkout-api
    criticality: critical
    owner: payments pager
    tags: [team:payments]
    dependencies:
      - vendor: stripe
      - vendor: github
        components: [Actions]
      - vendor: amazon-web-services
        kind: soft
        regions: [N. Virginia]
  - name: docs
    dependencies: [{ vendor: github }]
`;

  before(async () => {
    t = await startApp({ env: { DELIVER: 'off' } });
    const owner = await createUser(t, 'pro');
    cookie = await loginCookie(t, owner);
    orgId = (await send(`${t.url}/api/v1/orgs`, 'POST', s(), { name: 'Config team' })).body.organisation.id;
    await t.repos.status.replaceComponents(
      'github',
      [{ id: 'cmp-actions', name: 'Actions', status: 'operational', group: null, position: 1 }],
      new Date().toISOString(),
    );
    const other = await createUser(t, 'pro');
    otherCookie = await loginCookie(t, other);
    const otherOrg = (await send(`${t.url}/api/v1/orgs`, 'POST', { cookie: otherCookie, origin: t.url }, { name: 'Other team' })).body.organisation.id;
    const r = await send(
      `${t.url}/api/v1/orgs/${otherOrg}/alert-routes`,
      'POST',
      { cookie: otherCookie, origin: t.url },
      { name: 'theirs', destination: { channel: 'pagerduty', routingKey: 'z'.repeat(32) } },
    );
    assert.equal(r.status, 201);
    otherRouteId = r.body.route.id;
  });
  after(async () => {
    await t?.close();
  });

  test('a dry run answers the plan and writes nothing', async () => {
    const r = await apply(FILE, { dryRun: true });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.applied, false);
    assert.deepEqual(r.body.summary, { create: 4, update: 0, delete: 0, unchanged: 0 });
    assert.deepEqual(await names('/services', 'services'), []);
  });

  test('apply writes it all; a second apply has nothing to change', async () => {
    const r = await apply(FILE);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.applied, true);
    assert.deepEqual(r.body.summary, { create: 4, update: 0, delete: 0, unchanged: 0 });
    const services = (await send(org('/services'), 'GET', s())).body.services as any[];
    const checkout = services.find((x) => x.name === 'checkout-api');
    const routes = (await send(org('/alert-routes'), 'GET', s())).body.routes as any[];
    assert.equal(checkout.ownerRouteId, routes[0].id, 'the owner named by route name');
    assert.deepEqual(checkout.dependencies[1].components, [{ id: 'cmp-actions', name: 'Actions' }]);
    assert.deepEqual(
      checkout.dependencies[2].regions.map((x: any) => x.code),
      ['us-east-1'],
    );
    const lists = (await send(org('/watchlists'), 'GET', s())).body.watchlists as any[];
    assert.equal(routes[0].filters.watchlistId, lists[0].id);
    assert.equal(routes[0].filters.onlyAffectingServices, true);
    const again = await apply(FILE);
    assert.equal(again.body.applied, false);
    assert.deepEqual(again.body.summary, { create: 0, update: 0, delete: 0, unchanged: 4 });
    const audit = JSON.stringify((await send(org('/audit?limit=50'), 'GET', s())).body);
    assert.ok(audit.includes('config.applied'));
    assert.ok(!audit.includes('k'.repeat(32)), 'no secret in the audit log');
  });

  test('export writes no secret; export then apply changes nothing', async () => {
    const hook = await send(org('/alert-routes'), 'POST', s(), {
      name: 'hook',
      destination: { channel: 'webhook', url: 'https://hooks.example.com/secret-path' },
    });
    assert.equal(hook.status, 201);
    const yaml = await exported();
    assert.ok(!yaml.includes('k'.repeat(32)) && !yaml.includes('secret-path') && !yaml.includes('whsec_'), yaml);
    assert.match(yaml, /ref: rte_/);
    assert.match(yaml, /components:\n\s+- Actions/);
    const r = await apply(yaml);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.applied, false);
    assert.equal(r.body.summary.unchanged, 5);
    assert.equal(r.body.summary.create + r.body.summary.update + r.body.summary.delete, 0);
    // The kept destination still sends where it did: the secret stayed.
    const stored = await t.repos.alertRoutes.get(orgId, hook.body.route.id);
    assert.equal((stored!.destination as { url: string }).url, 'https://hooks.example.com/secret-path');
  });

  test('a change is an update naming its fields; prune deletes only what the dry run shows', async () => {
    const file = parse(await exported());
    file.services.find((x: any) => x.name === 'docs').criticality = 'low';
    file.routes = file.routes.filter((x: any) => x.name !== 'hook');
    const yaml = stringify(file);
    const dry = await apply(yaml, { dryRun: true, prune: true });
    assert.equal(dry.status, 200, JSON.stringify(dry.body));
    const changes = dry.body.items.filter((i: any) => i.action !== 'unchanged');
    assert.deepEqual(changes, [
      { kind: 'route', name: 'hook', action: 'delete' },
      { kind: 'service', name: 'docs', action: 'update', fields: ['criticality'] },
    ]);
    const noPrune = await apply(yaml, { dryRun: true });
    assert.ok(!noPrune.body.items.some((i: any) => i.action === 'delete'), 'nothing deleted without prune');
    const done = await apply(yaml, { prune: true });
    assert.deepEqual(
      done.body.items.filter((i: any) => i.action !== 'unchanged'),
      changes,
    );
    assert.deepEqual(await names('/alert-routes', 'routes'), ['payments pager']);
    assert.deepEqual(await names('/services', 'services'), ['checkout-api', 'docs']);
  });

  test('a file with problems is refused whole, each problem with its path and line', async () => {
    const before = await exported();
    const bad = `version: 1
watchlists:
  - name: infra
    vendors: [github, no-such-vendor]
services:
  - name: new-one
    dependencies: [{ vendor: github }]
  - name: api
    colour: blue
    dependencies:
      - vendor: github
        components: [Nope]
      - vendor: amazon-web-services
        regions: [atlantis-1]
  - name: new-one
routes:
  - name: stolen
    destination: { ref: ${otherRouteId} }
`;
    const r = await apply(bad);
    assert.equal(r.status, 400, JSON.stringify(r.body));
    assert.equal(r.body.error, 'invalid_parameter');
    const got = (r.body.problems as { path: string; line: number }[]).map((p) => `${p.line} ${p.path}`);
    // The schema refuses the unknown field first; nothing else is judged until it is fixed.
    assert.deepEqual(got, ['9 services[1].colour']);
    const r2 = await apply(bad.replace('    colour: blue\n', ''));
    assert.equal(r2.status, 400);
    const got2 = (r2.body.problems as { path: string; line: number; message: string }[]).map((p) => `${p.line} ${p.path}`).sort();
    assert.deepEqual(
      got2,
      [
        '11 services[1].dependencies[0].components[0]',
        '13 services[1].dependencies[1].regions',
        '14 services[2].name',
        '17 routes[0].destination.ref',
        '4 watchlists[0].vendors[1]',
      ].sort(),
    );
    assert.equal(await exported(), before, 'nothing applied');
  });

  test('hostile files: bombs, huge, control characters, not YAML, wrong shapes', async () => {
    const before = await exported();
    const bomb = [
      'version: 1',
      'a: &a [x, x, x, x, x, x, x, x, x, x]',
      ...Array.from(
        { length: 8 },
        (_, i) =>
          `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [${Array(10)
            .fill(`*${String.fromCharCode(97 + i)}`)
            .join(', ')}]`,
      ),
    ].join('\n');
    const cases: [string, unknown][] = [
      ['alias bomb', { yaml: bomb }],
      ['huge', { yaml: `version: 1\n# ${'x'.repeat(500_001)}` }],
      ['control character', { yaml: 'version: 1\nservices:\n  - name: a\u0007b\n' }],
      ['not YAML', { yaml: 'version: 1\nservices: [unclosed' }],
      ['a list', { yaml: '- version: 1' }],
      ['duplicate keys', { yaml: 'version: 1\nversion: 1' }],
      ['wrong version', { yaml: 'version: 2' }],
      ['wrong types', { yaml: 'version: 1\nservices: {name: x}' }],
      ['empty', { yaml: '' }],
      ['unknown body field', { yaml: 'version: 1', force: true }],
      ['wrong body type', { yaml: 42 }],
      ['no body', undefined],
    ];
    for (const [what, body] of cases) {
      const r = await send(org('/config/apply'), 'POST', s(), body);
      assert.ok(r.status === 400 || r.status === 413, `${what}: ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
      assert.equal(r.body.success, false, what);
    }
    const ctl = await apply('version: 1\nservices:\n  - name: a\u0007b\n');
    assert.equal(ctl.body.problems[0].line, 3);
    assert.equal(await exported(), before, 'nothing applied');
  });

  test("another organisation's ids and members: 404, never its data", async () => {
    const theirs = { cookie: otherCookie, origin: t.url };
    assert.equal((await send(org('/config/export'), 'GET', theirs)).status, 404);
    assert.equal((await send(org('/config/apply'), 'POST', theirs, { yaml: 'version: 1', prune: true })).status, 404);
    assert.deepEqual(await names('/services', 'services'), ['checkout-api', 'docs']);
  });

  test('all or nothing: a cap reached while writing undoes the whole apply', async () => {
    const routes = Array.from({ length: 49 }, (_, i) => `  - name: r${i}\n    destination: { channel: pagerduty, routingKey: ${'p'.repeat(32)} }`).join('\n');
    const base = (await exported()).replace(/^routes:\n/m, `routes:\n${routes}\n`);
    const r = await apply(`${base.trimEnd()}\n`);
    assert.equal(r.status, 200, JSON.stringify(r.body).slice(0, 500));
    assert.equal((await names('/alert-routes', 'routes')).length, 50);
    // The cap is counted where it holds, in the transaction: a new watchlist, then one route too many.
    const over = `version: 1\nwatchlists:\n  - name: new-list\n    vendors: [github]\nroutes:\n  - name: one-too-many\n    destination: { channel: pagerduty, routingKey: ${'q'.repeat(32)} }\n`;
    const refusedApply = await apply(over);
    assert.equal(refusedApply.status, 409, JSON.stringify(refusedApply.body));
    assert.deepEqual(await names('/watchlists', 'watchlists'), ['payments'], 'the watchlist written before the cap was undone');
  });

  test("a watchlist over the plan's cap of vendors is a problem of the file", async () => {
    const vendors = [
      'amazon-web-services',
      'google-cloud',
      'microsoft-azure',
      'cloudflare',
      'github',
      'gitlab',
      'atlassian',
      'bitbucket',
      'confluence',
      'jira-service-management',
      'datadog',
    ];
    const yaml = `version: 1\nwatchlists:\n  - name: big\n    vendors: [${vendors.join(', ')}]\n`;
    await t.repos.organisations.setPlan(orgId, 'pro', new Date());
    t.app.access.auth.forgetOrg(orgId);
    assert.equal((await apply(yaml, { dryRun: true })).status, 200, 'Pro has no cap');
    await t.repos.organisations.setPlan(orgId, 'free', new Date());
    t.app.access.auth.forgetOrg(orgId);
    const r = await apply(yaml, { dryRun: true });
    assert.equal(r.status, 400, JSON.stringify(r.body));
    assert.deepEqual(
      r.body.problems.map((p: any) => `${p.line} ${p.path}`),
      ['4 watchlists[0].vendors'],
    );
  });
});
