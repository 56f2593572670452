import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Writable } from 'node:stream';
import fc from 'fast-check';
import { csrfTokenOf, login, ownerViewer, userWithKey } from '../../helpers/access.ts';
import { TRANSPORT_RESPONSES } from '../../../src/http/schemas/transport.ts';
import { getJson, startApp, type TestApp } from '../../helpers/app.ts';
import { caseArb, type CaseContext, type FuzzCase } from '../../helpers/fuzz-cases.ts';
import { makeChecker, TRANSPORT_STATUSES } from '../../helpers/fuzz-checks.ts';
import { describeRequest, FuzzClient, type FuzzResponse, rawExchange } from '../../helpers/fuzz-http.ts';
import { type ApiDocument, type Operation, readDocument } from '../../helpers/fuzz-openapi.ts';
import { rawCases } from '../../helpers/fuzz-raw.ts';
import type { FuzzPools } from '../../helpers/fuzz-values.ts';
import { seedDashboard } from '../../helpers/seed.ts';

// Property-based fuzzing of every operation of the served OpenAPI document
// against the real app (docs/hardening.md, "Fuzzing"). Each answer must be
// below 500, documented for its operation (or one of the transport-level answers
// in fuzz-checks.ts), a contract error body when it is an error, and free of
// stack traces, SQL and internal paths; the app stays healthy throughout.
//
//   FUZZ_RUNS   generated requests in all (default 2500; `npm run fuzz` runs 50000)
//   FUZZ_SEED   replay a run (the seed is printed on failure and as a diagnostic)
//   FUZZ_OPS    comma-separated operationIds to fuzz (default: all)
//   FUZZ_SHRINK 1 = shrink a failure to a smaller request (slower; off by default)

// One suite per file: its hooks belong to it when files share a process (docs/testing.md, "Batches").
describe('fuzzing', () => {
  const RUNS = Number(process.env.FUZZ_RUNS ?? 2500);
  const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : (Date.now() ^ (Math.random() * 0x7fffffff)) | 0;
  const ONLY = process.env.FUZZ_OPS ? new Set(process.env.FUZZ_OPS.split(',')) : null;
  const SHRINK = process.env.FUZZ_SHRINK === '1';

  /** Error-level log lines of the app (an unhandled error logs one even when answered). */
  const errorLogs: string[] = [];
  const logStream = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n')) {
        if (!line) continue;
        try {
          const entry = JSON.parse(line);
          if (entry.level >= 50) errorLogs.push(`${entry.msg}: ${entry.err?.message ?? ''}`);
        } catch {
          /* not a log line */
        }
      }
      done();
    },
  });

  let t: TestApp;
  let doc: ApiDocument;
  let ctx: CaseContext;
  let client: FuzzClient;
  let check: ReturnType<typeof makeChecker>;

  before(async () => {
    // Printed first, so that even a run that dies midway can be replayed.
    console.log(`fuzz seed ${SEED} (FUZZ_SEED=${SEED} to replay)`);
    t = await startApp({
      env: {
        LOG_LEVEL: 'error',
        API_KEY_MIN_PLAN: 'free',
        // Test alerts must not leave the machine: webhook URLs the fuzzer sets point
        // at `.invalid` hosts, PagerDuty at a closed local port.
        PAGERDUTY_EVENTS_URL: 'http://127.0.0.1:9/v2/enqueue',
        DELIVERY_TIMEOUT_MS: '3000',
        // The SCIM operations get their share of the run with one token.
        SCIM_REQUESTS_PER_MINUTE: '1000000',
      },
      logStream,
    });
    await seedDashboard(t.store);
    const u = await userWithKey(t, 'pro', 'fuzz');
    const cookie = await login(t, u.email, u.password);
    const logoutCookie = await login(t, u.email, u.password);
    // Keys the fuzzer may revoke (never the one it authenticates with).
    const spare = await Promise.all([1, 2, 3].map((i) => t.app.services.keys.create(ownerViewer(u.userId, 'pro'), `spare ${i}`)));
    // A personal feed and an in-app notification, so that their lookups hit rows.
    const prefs = await getJson(`${t.api}/notification-preferences`, {
      method: 'PUT',
      headers: { 'x-api-key': u.secret, 'content-type': 'application/json' },
      body: JSON.stringify({ rss: { enabled: true } }),
    });
    assert.equal(prefs.status, 200);
    const feed = String(prefs.body.preferences.rss.feed_url).split('/').pop()!;
    const note = await getJson(`${t.api}/notification-preferences/test`, {
      method: 'POST',
      headers: { 'x-api-key': u.secret, 'content-type': 'application/json' },
      body: JSON.stringify({ channel: 'in_app' }),
    });
    assert.equal(note.status, 200);
    // A team of the user with a SCIM token: the SCIM endpoints take only that (docs/teams.md, "SCIM").
    const team = await getJson(`${t.url}/api/v1/orgs`, {
      method: 'POST',
      headers: { cookie, origin: t.url, 'x-csrf-token': csrfTokenOf(cookie), 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Fuzz team' }),
    });
    assert.equal(team.status, 201);
    const scimToken = await getJson(`${t.url}/api/v1/orgs/${team.body.organisation.id}/scim/tokens`, {
      method: 'POST',
      headers: { cookie, origin: t.url, 'x-csrf-token': csrfTokenOf(cookie), 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'fuzz' }),
    });
    assert.equal(scimToken.status, 201);
    const vendors = (await getJson(`${t.api}/vendor-list`)).body.vendors.map((v: { id: string }) => v.id);
    const pools: FuzzPools = {
      vendors: ['github', 'cloudflare', 'stripe', ...vendors.slice(0, 20)],
      notificationIds: [note.body.deliveryId],
      keyIds: spare.map((s) => s.key.id),
      connectionIds: [],
      feedFiles: [feed, feed.replace(/\.rss$/, '.atom')],
    };
    const raw = await getJson(`${t.url}/openapi.json`);
    assert.equal(raw.status, 200);
    doc = readDocument(raw.body);
    check = makeChecker(doc);
    ctx = {
      pools,
      resolve: doc.resolve,
      creds: {
        key: u.secret,
        cookie,
        csrf: csrfTokenOf(cookie),
        origin: t.url,
        logoutCookie,
        logoutCsrf: csrfTokenOf(logoutCookie),
        scimToken: scimToken.body.secret,
      },
    };
    client = new FuzzClient(t.url);
  });

  after(async () => {
    await client?.close();
    await t?.close();
  });

  /**
   * Earlier operations may have spent the rows a lookup aims at (rotated the feed
   * token, revoked the spare keys): renew them before the operation that looks them up.
   */
  async function refreshPools(op: Operation) {
    const { pools, creds } = ctx;
    if (op.path.startsWith('/api/v1/feeds/')) {
      // The feed may have been switched off by the fuzzed preference updates.
      await getJson(`${t.api}/notification-preferences`, {
        method: 'PUT',
        headers: { 'x-api-key': creds.key, 'content-type': 'application/json' },
        body: JSON.stringify({ rss: { enabled: true }, muted_vendors: [] }),
      });
      const r = await getJson(`${t.api}/notification-preferences/rss/rotate-token`, { method: 'POST', headers: { 'x-api-key': creds.key } });
      if (r.status === 200) {
        const feed = String(r.body.preferences.rss.feed_url).split('/').pop()!;
        pools.feedFiles.splice(0, pools.feedFiles.length, feed, feed.replace(/\.rss$/, '.atom'));
      }
    }
    if (op.path.startsWith('/api/v1/account/keys/')) {
      const mine = await getJson(`${t.url}/api/v1/account/keys`, { headers: { 'x-api-key': creds.key } });
      const spare = (mine.body.keys as { id: string; prefix: string }[]).filter((k) => !creds.key.startsWith(k.prefix)).map((k) => k.id);
      pools.keyIds.splice(0, pools.keyIds.length, ...spare.slice(0, 5));
    }
  }

  async function assertHealthy(when: string) {
    const h = await getJson(`${t.url}/healthz`);
    assert.equal(h.status, 200, `/healthz after ${when}`);
    assert.deepEqual(h.body, { success: true, status: 'ok' }, `/healthz after ${when}`);
    // Reported once: the next batch starts clean.
    const logged = errorLogs.splice(0);
    assert.deepEqual(logged, [], `error-level log lines after ${when}`);
  }

  function report(c: FuzzCase, res: FuzzResponse | null, problems: string[], err?: unknown): string {
    return [
      `${problems.join('\n')}${err ? `request failed: ${String(err)}` : ''}`,
      describeRequest(c.req),
      res ? `=> ${res.status} ${JSON.stringify(res.headers['content-type'] ?? '')} ${res.body.slice(0, 800)}` : '=> no answer',
      `replay: FUZZ_SEED=${SEED} FUZZ_OPS=${c.req.opId} FUZZ_RUNS=${RUNS}`,
    ].join('\n');
  }

  describe('fuzzing the OpenAPI operations', () => {
    test('the document lists the transport-level answers on the operations they can happen to', () => {
      assert.ok(doc.operations.length >= 40, `${doc.operations.length} operations`);
      for (const op of doc.operations) {
        const where = `${op.method} ${op.path}`;
        assert.ok(op.statuses.has(400), `${where}: 400 (malformed URL or body)`);
        assert.ok(op.statuses.has(431), `${where}: 431 (headers too large)`);
        if (op.path.includes('{')) assert.ok(op.statuses.has(414), `${where}: 414 (path parameter too long)`);
        if (op.method !== 'GET') {
          assert.ok(op.statuses.has(413), `${where}: 413 (body over 1 MB)`);
          assert.ok(op.statuses.has(415), `${where}: 415 (unsupported content type)`);
        }
      }
      // The test's allow-list and the documented table are the same list (404 and 405 aside: they have no operation).
      assert.deepEqual(
        Object.keys(TRANSPORT_RESPONSES).map(Number),
        TRANSPORT_STATUSES.filter((s) => s !== 404 && s !== 405),
      );
    });

    test('every operation answers generated requests within its documented statuses', async (tc) => {
      const ops = doc.operations.filter((o) => !ONLY || ONLY.has(o.id));
      assert.ok(ops.length, `no operation matches FUZZ_OPS=${process.env.FUZZ_OPS}`);
      // Operations with more inputs get more requests: parameters, a body, credentials to get past.
      const weight = (o: Operation) => 2 + o.params.length + (o.body ? 6 : 0) + (o.perUser ? 2 : 0);
      const total = doc.operations.reduce((n, o) => n + weight(o), 0);
      const runsOf = (o: Operation) => Math.max(10, Math.round((RUNS * weight(o)) / total));
      tc.diagnostic(`seed ${SEED}, ${ops.reduce((n, o) => n + runsOf(o), 0)} generated requests over ${ops.length} operations`);
      let sent = 0;
      /** Statuses seen per operation (requests that reached it with its own method). */
      const seen = new Map<Operation, Map<number, number>>(ops.map((o) => [o, new Map()]));
      for (const op of ops) {
        // Each operation has its own stream of cases derived from the one seed (by its
        // place in the document, so FUZZ_OPS replays the same requests).
        const i = doc.operations.indexOf(op);
        await tc.test(`${op.method} ${op.path}`, async () => {
          await refreshPools(op);
          await fc.assert(
            fc.asyncProperty(caseArb(op, ctx, doc.operations), async (c) => {
              let res: FuzzResponse | null = null;
              try {
                res = await client.send(c.req);
              } catch (err) {
                await client.reset();
                throw new Error(report(c, null, [], err));
              }
              sent++;
              if (c.op === op && c.req.method === op.method) {
                const counts = seen.get(op)!;
                counts.set(res.status, (counts.get(res.status) ?? 0) + 1);
              }
              let problems = check({ doc, op: c.op }, c.req, res);
              if (c.req.method === 'HEAD') {
                // A HEAD answer has no body to check: its GET twin must have the same status and pass.
                const get = { ...c.req, method: 'GET' };
                const twin = await client.send(get);
                problems = check({ doc, op: c.op }, get, twin);
                if (twin.status !== res.status && !twin.streaming) problems.push(`HEAD answered ${res.status}, GET ${twin.status}`);
              }
              if (problems.length) throw new Error(report(c, res, problems));
            }),
            { numRuns: runsOf(op), seed: SEED + i, endOnFailure: !SHRINK, includeErrorInReport: true },
          );
          await assertHealthy(`${op.method} ${op.path}`);
        });
      }
      tc.diagnostic(`${sent} generated requests`);
      for (const [op, counts] of seen) {
        tc.diagnostic(
          `${op.id}: ${[...counts]
            .sort(([a], [b]) => a - b)
            .map(([s, n]) => `${s}×${n}`)
            .join(' ')}`,
        );
      }
      // Credentials were good often enough to get past authentication on every per-user route.
      for (const [op, counts] of seen) {
        if (!op.perUser) continue;
        const beyond = [...counts].filter(([s]) => s !== 401).reduce((n, [, c]) => n + c, 0);
        assert.ok(beyond > 0, `${op.method} ${op.path}: every generated request stopped at 401`);
      }
    });

    test('every body-taking operation: over 1 MB, empty JSON, broken JSON, foreign content types', async () => {
      const bodies: [string, string | undefined, string][] = [
        ['over-1MB', 'application/json', `{"vendors":["${'a'.repeat(1_100_000)}"]}`],
        ['over-1MB form', 'application/x-www-form-urlencoded', `name=${'a'.repeat(1_100_000)}`],
        ['empty JSON', 'application/json', ''],
        ['broken JSON', 'application/json', '{"vendors":'],
        ['prototype poisoning', 'application/json', '{"__proto__":{"polluted":true},"vendors":[]}'],
        ['xml', 'application/xml', '<vendors/>'],
        ['multipart', 'multipart/form-data; boundary=x', '--x\r\ncontent-disposition: form-data; name="a"\r\n\r\n1\r\n--x--'],
        ['no content type', undefined, '{}'],
      ];
      const bodyOps = doc.operations.filter((o) => o.method !== 'GET');
      assert.ok(bodyOps.length >= 15);
      // Path parameters well-formed (the answers come from the body handling) and naming no row.
      const fill = (path: string) =>
        path.replace('{vendor}', 'github').replace('{id}', path.includes('/notifications/') ? `dlv_${'0'.repeat(32)}` : '00000000-0000-0000-0000-000000000000');
      for (const op of bodyOps) {
        for (const [note, ctype, body] of bodies) {
          const headers: Record<string, string> = op.path.endsWith('/auth/logout')
            ? {}
            : op.sessionOnly
              ? { cookie: ctx.creds.cookie, origin: ctx.creds.origin, 'x-csrf-token': ctx.creds.csrf }
              : op.scim
                ? { authorization: `Bearer ${ctx.creds.scimToken}` }
                : { 'x-api-key': ctx.creds.key };
          if (ctype) headers['content-type'] = ctype;
          const c: FuzzCase = { op, req: { opId: op.id, method: op.method, path: fill(op.path), headers, body, note, echoes: [body.slice(0, 100)] } };
          const res = await client.send(c.req);
          const problems = check({ doc, op }, c.req, res);
          if (note.startsWith('over-1MB') && res.status !== 413) problems.push(`expected 413, got ${res.status}`);
          if (note === 'empty JSON' && res.status !== 400) problems.push(`expected 400, got ${res.status}`);
          assert.deepEqual(problems, [], report(c, res, problems));
        }
      }
      await assertHealthy('body cases');
    });

    test('raw socket requests: broken framing, raw bytes, oversized headers, smuggling attempts', async () => {
      const cases = rawCases(ctx, doc.operations, Math.max(40, Math.round(RUNS / 25)), SEED);
      for (const rc of cases) {
        let res: FuzzResponse;
        try {
          // An incomplete request may be held open by the server: waiting a little is enough.
          res = await rawExchange(t.url, rc.bytes, { expectResponse: rc.expectResponse, timeoutMs: rc.expectResponse ? 15_000 : 1_500 });
        } catch (err) {
          assert.fail(`${rc.note}: ${String(err)}\n${JSON.stringify(rc.bytes.toString('latin1').slice(0, 600))}`);
        }
        if (res.status === 0) continue; // dropped without an answer: allowed for incomplete requests only
        const problems = check({ doc, op: rc.op, bareParserRefusal: rc.bareParserRefusal }, rc.req, res);
        if (rc.expectStatus && !rc.expectStatus.includes(res.status)) problems.push(`expected ${rc.expectStatus.join('/')}, got ${res.status}`);
        assert.deepEqual(
          problems,
          [],
          `${problems.join('\n')}\n${rc.note}\n${JSON.stringify(rc.bytes.toString('latin1').slice(0, 600))}\n=> ${res.status} ${res.body.slice(0, 600)}\nreplay: FUZZ_SEED=${SEED}`,
        );
      }
      await assertHealthy('raw requests');
    });

    test('the app is healthy and ready after the run, and still answers its users', async () => {
      await assertHealthy('the run');
      const ready = await getJson(`${t.url}/readyz`);
      assert.equal(ready.status, 200);
      assert.equal(ready.body.success, true);
      const list = await getJson(`${t.api}/vendor-list`);
      assert.equal(list.status, 200);
      const mine = await getJson(`${t.url}/api/v1/account`, { headers: { 'x-api-key': ctx.creds.key } });
      assert.equal(mine.status, 200, 'the fuzzing user can still authenticate');
    });
  });
});
