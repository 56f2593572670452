import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { CompiledQuery, KyselyPlugin } from 'kysely';
import { createRepositories } from '../../src/services/index.ts';
import { catalogService } from '../../src/services/vendors/catalog-service.ts';
import { sourceHealthService } from '../../src/services/vendors/source-health-service.ts';
import { trendsService } from '../../src/services/records/trends-service.ts';
import { searchService } from '../../src/services/records/search-service.ts';
import { systemClock } from '../../src/domain/clock.ts';
import { startApp, type TestApp } from '../helpers/app.ts';
import { incident } from '../helpers/records.ts';

// The trend charts read only the columns they need (docs/statistics.md, "Trends"),
// in a fixed number of queries; search binds its text as parameters.

// One suite per file: its hooks belong to it when files share a process (docs/testing.md, "Batches").
describe('trend and search queries', () => {
  let t: TestApp;
  before(async () => {
    t = await startApp();
  });
  after(() => t.close());

  function recording() {
    const sql: { text: string; params: readonly unknown[] }[] = [];
    const plugin: KyselyPlugin = {
      transformQuery: (args) => args.node,
      transformResult: async (args) => args.result,
    };
    // Compiled SQL is captured through the executor's compile step.
    const db = t.store.db.withPlugin(plugin);
    const orig = db.getExecutor().compileQuery.bind(db.getExecutor());
    const executor = db.getExecutor() as unknown as { compileQuery: (n: any, id: any) => CompiledQuery };
    executor.compileQuery = (node: any, id: any) => {
      const c = orig(node, id);
      sql.push({ text: c.sql, params: c.parameters });
      return c;
    };
    return { db, sql };
  }

  test('vendor trends: three narrow queries, no titles or update histories', async () => {
    const base = createRepositories(t.store);
    await base.incidents.upsert(incident('github', 't1', { components: ['API'], status: 'resolved' }), 'f');
    const { db, sql } = recording();
    const repos = createRepositories({ ...t.store, db });
    const catalog = catalogService(base.vendors, async () => []);
    const health = sourceHealthService({ sources: repos.sources, clock: systemClock, defaultIntervalSeconds: 60 });
    const trends = trendsService({ catalog, incidentTimings: repos.incidentTimings, status: repos.status, health, clock: systemClock });
    const out = await trends.vendorTrends('github', { plan: 'pro', userId: null, authKind: 'anonymous', keyId: null } as any);
    assert.equal(out.weeks.length, 12);
    const incidentQueries = sql.filter((q) => /from "incidents"/.test(q.text));
    assert.equal(incidentQueries.length, 1, sql.map((q) => q.text).join('\n'));
    const select = incidentQueries[0]!.text;
    assert.doesNotMatch(select, /"updates"|"title"|\*/);
    assert.match(select, /"started_at"/);
    assert.ok(sql.length <= 3, `${sql.length} queries`);
  });

  test('search binds the text as a parameter, LIKE-escaped, and bounds the results', async () => {
    const { db, sql } = recording();
    const repos = createRepositories({ ...t.store, db });
    const catalog = catalogService(repos.vendors, async () => []);
    const search = searchService({ catalog, search: repos.search, vendors: repos.vendors, clock: systemClock });
    await search.search({ text: "50%_off' or 1=1 --" }, { plan: 'pro', userId: null, authKind: 'anonymous', keyId: null } as any);
    const found = sql.filter((q) => /like/i.test(q.text));
    assert.ok(found.length >= 2);
    for (const q of found) assert.doesNotMatch(q.text, /50%|1=1/, 'the text never enters the SQL');
    // Vendors and incident rows are bounded; the count is the only unbounded read.
    for (const q of found.filter((q) => !/count\(/i.test(q.text))) assert.match(q.text, /limit/i);
    assert.ok(
      found.some((q) => q.params.includes("%50\\%\\_off' or 1=1 --%")),
      JSON.stringify(found.map((q) => q.params)),
    );
  });
});
