import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { parseSource } from '../../../src/ingest/adapters/index.ts';
import { createRepositories } from '../../../src/services/index.ts';
import { getJson, startApp, TestClock, type TestApp } from '../../helpers/app.ts';
import { fixture } from '../../unit/ingest/adapters/helpers.ts';

// Cloud depth through the store (docs/mappings.md "Cloud depth"): the recorded AWS events give
// AWS's component list per service and region; a later poll that names none of them keeps them,
// operational, and the vendor's answer shows it. Both stores.

const MIN = 60_000;
const OWNER = 'cloud-depth-test';
const VENDOR = 'amazon-web-services';
const URL_ = 'https://health.aws.amazon.com/public/currentevents';

describe('cloud depth through the store', () => {
  let t: TestApp;
  let clock: TestClock;
  let repos: ReturnType<typeof createRepositories>;

  before(async () => {
    clock = new TestClock(new Date('2026-08-01T16:00:00Z'));
    t = await startApp({ clock, env: { INGEST: 'live', ROLES: 'api,deliver', DELIVER: 'off' } });
    repos = createRepositories(t.store);
  });
  after(async () => t.close());

  async function poll(body: Buffer) {
    const src = (await repos.sources.list(VENDOR)).find((s) => s.url === URL_);
    assert.ok(src, 'the catalog lists AWS currentevents');
    const row = await repos.sources.claimOne(src.id, { owner: OWNER, now: clock.now(), leaseMs: MIN, force: true });
    assert.ok(row);
    const at = clock.now();
    const snapshot = parseSource('aws-currentevents', { vendor: VENDOR, url: URL_, body, now: at });
    await t.app.services.ingest.applySnapshot(
      { id: row.id, vendor: VENDOR, type: row.type, lastSuccessAt: row.lastSuccessAt, etag: null, lastModified: null },
      snapshot,
      { owner: OWNER, polledAt: at, durationMs: 5, nextPollAt: new Date(at.getTime() + MIN) },
    );
    clock.advance(MIN);
  }

  const components = async () => {
    const res = await getJson(`${t.api}/vendor-status/${VENDOR}?skipCache=true`);
    assert.equal(res.status, 200);
    return new Map<string, { status: string; group: string | null }>(
      res.body.items[0].components.map((c: { name: string; status: string; group: string | null }) => [c.name, c]),
    );
  };

  test('recorded events list each service in its region; a later empty list keeps them, operational', async (tc) => {
    const body = fixture(tc, 'aws/currentevents-2026-08-01.json');
    if (!body) return;
    await poll(body);
    const first = await components();
    assert.equal(first.size, 284);
    assert.deepEqual(first.get('Amazon Elastic Compute Cloud (me-central-1)'), {
      name: 'Amazon Elastic Compute Cloud (me-central-1)',
      status: 'major_outage',
      group: 'Amazon Elastic Compute Cloud',
    });
    assert.equal(first.get('Amazon Route 53')!.status, 'operational');

    await poll(Buffer.from('[]'));
    const second = await components();
    assert.equal(second.size, 284, 'nothing is forgotten');
    assert.deepEqual(new Set([...second.values()].map((c) => c.status)), new Set(['operational']));
    const stored = await repos.status.componentNames([VENDOR]);
    assert.equal(stored.get(VENDOR)!.get('ec2-me-central-1'), 'Amazon Elastic Compute Cloud (me-central-1)', 'the id a dependency stores');
  });
});
