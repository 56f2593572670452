import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { newDeliveryId } from '../../../src/domain/deliveries.ts';
import { userWithKey } from '../../helpers/access.ts';
import { startApp, type TestApp } from '../../helpers/app.ts';

// Claiming due deliveries takes at most `limit` rows, and concurrent claimers take
// disjoint rows. On PostgreSQL the claim once took every due row: its
// `IN (SELECT … LIMIT n FOR UPDATE SKIP LOCKED)` was planned as a nested loop that
// re-ran the subquery per candidate row (a fresh table has no statistics, as here).

describe('delivery claims', () => {
  let t: TestApp;
  const DUE = 240;

  before(async () => {
    // No background worker: this test is the only claimer.
    t = await startApp({ env: { DELIVER: 'false' } });
    const { userId: orgId } = await userWithKey(t, 'pro');
    const now = new Date();
    const past = new Date(now.getTime() - 1000).toISOString();
    const payload = JSON.stringify({ id: 'x:1' });
    for (let i = 0; i < DUE; i++) {
      await t.repos.deliveries.insert(
        {
          id: newDeliveryId(),
          eventSeq: i + 1,
          orgId,
          channel: 'webhook',
          eventType: 'incident.created',
          vendor: 'github',
          entityId: 'github:1',
          payloadJson: payload,
          occurredAt: past,
          status: 'pending',
          nextAttemptAt: past,
        },
        now,
      );
    }
  });
  after(async () => {
    await t?.close();
  });

  test('a claim takes at most its limit; concurrent claims take different rows; claimed rows are not due', async () => {
    const repo = t.repos.deliveries;
    const now = new Date();
    const lease = new Date(now.getTime() + 30_000);
    const one = await repo.claim('w_one', 16, now, lease);
    assert.equal(one.length, 16);
    assert.ok(one.every((d) => d.leaseOwner === 'w_one' && d.attempts === 1 && d.nextAttemptAt === lease.toISOString()));

    const parallel = await Promise.all(['w_a', 'w_b', 'w_c'].map((owner) => repo.claim(owner, 16, now, lease)));
    assert.deepEqual(
      parallel.map((rows) => rows.length),
      [16, 16, 16],
    );
    const ids = [...one, ...parallel.flat()].map((d) => d.id);
    assert.equal(new Set(ids).size, 64, 'no row claimed twice');

    // The rest is claimable, and nothing more after that until the leases run out.
    const rest = await repo.claim('w_rest', 1000, now, lease);
    assert.equal(rest.length, DUE - 64);
    assert.deepEqual(await repo.claim('w_late', 16, now, lease), []);
    assert.equal((await repo.claim('w_after', 1000, new Date(lease.getTime() + 1), new Date(lease.getTime() + 30_000))).length, DUE);
  });
});
