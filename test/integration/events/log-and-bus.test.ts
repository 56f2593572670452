import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { NewEvent } from '../../../src/domain/events.ts';
import { memoryEventBus } from '../../../src/infra/event-bus.ts';
import { eventsRepository } from '../../../src/store/repositories/events-repository.ts';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { incident } from '../../helpers/records.ts';

const event = (vendor: string, id: string, type: NewEvent['type'], occurredAt: string): NewEvent => {
  const rec = incident(vendor, id);
  return {
    type,
    vendor,
    entityKind: 'incident',
    entityId: rec.id,
    occurredAt,
    payload: { ...rec, vendorName: vendor, durationMinutes: null },
  } as NewEvent;
};

describe('event log', () => {
  let t: TestApp;
  before(async () => {
    t = await startApp();
  });
  after(async () => t.close());

  test('appends inside the caller’s transaction, in sequence, and reads back by sequence and filter', async () => {
    const repo = eventsRepository(t.store.db);
    assert.equal(await repo.latestSeq(), 0);
    assert.equal(await repo.oldestSeq(), null);
    const written = await t.store.db
      .transaction()
      .execute(async (trx) => [
        await repo.append(trx, event('github', 'a', 'incident.created', '2026-01-01T00:00:00.000Z')),
        await repo.append(trx, event('cloudflare', 'b', 'incident.created', '2026-01-02T00:00:00.000Z')),
        await repo.append(trx, event('github', 'a', 'incident.resolved', '2026-01-03T00:00:00.000Z')),
      ]);
    assert.ok(written[0]!.seq < written[1]!.seq && written[1]!.seq < written[2]!.seq);
    assert.equal(await repo.latestSeq(), written[2]!.seq);

    const all = await repo.after(0, 10);
    assert.deepEqual(
      all.map((e) => e.type),
      ['incident.created', 'incident.created', 'incident.resolved'],
    );
    assert.equal(all[0]!.payload.id, 'github:a');
    assert.deepEqual(
      (await repo.after(written[0]!.seq, 10)).map((e) => e.seq),
      [written[1]!.seq, written[2]!.seq],
    );
    assert.equal((await repo.after(0, 1)).length, 1);
    assert.deepEqual(
      (await repo.after(0, 10, { vendors: ['github'] })).map((e) => e.type),
      ['incident.created', 'incident.resolved'],
    );
    assert.deepEqual(
      (await repo.after(0, 10, { types: ['incident.resolved'] })).map((e) => e.vendor),
      ['github'],
    );
    assert.equal((await repo.after(0, 10, { entityKind: 'maintenance' })).length, 0);
  });

  test('a rolled-back change leaves no event', async () => {
    const repo = eventsRepository(t.store.db);
    const before = await repo.latestSeq();
    await assert.rejects(
      t.store.db.transaction().execute(async (trx) => {
        await repo.append(trx, event('github', 'x', 'incident.created', '2026-01-04T00:00:00.000Z'));
        throw new Error('the change failed');
      }),
      /the change failed/,
    );
    assert.equal(await repo.latestSeq(), before);
  });

  test('unknown event types are refused', async () => {
    const repo = eventsRepository(t.store.db);
    const bad = { ...event('github', 'y', 'incident.created', '2026-01-01T00:00:00.000Z'), type: 'incident.exploded' } as unknown as NewEvent;
    await assert.rejects(repo.append(t.store.db, bad), /unknown event type/);
  });

  test('prune removes events older than the cut-off only', async () => {
    const repo = eventsRepository(t.store.db);
    const removed = await repo.prune(new Date('2026-01-02T12:00:00.000Z'));
    assert.equal(removed, 2);
    const left = await repo.after(0, 10);
    assert.deepEqual(
      left.map((e) => e.occurredAt),
      ['2026-01-03T00:00:00.000Z'],
    );
    assert.equal(await repo.oldestSeq(), left[0]!.seq);
  });
});

describe('in-memory event bus', () => {
  test('delivers to every subscriber until it unsubscribes; a throwing subscriber hurts no one', () => {
    const errors: unknown[] = [];
    const bus = memoryEventBus((err) => errors.push(err));
    const a: number[] = [];
    const b: number[] = [];
    bus.subscribe(() => {
      throw new Error('bad subscriber');
    });
    const offA = bus.subscribe((events) => a.push(...events.map((e) => e.seq)));
    bus.subscribe((events) => b.push(...events.map((e) => e.seq)));
    const ev = (seq: number) => ({ ...event('github', 'a', 'incident.created', '2026-01-01T00:00:00.000Z'), seq });
    bus.publish([ev(1), ev(2)]);
    offA();
    bus.publish([ev(3)]);
    bus.publish([]);
    assert.deepEqual(a, [1, 2]);
    assert.deepEqual(b, [1, 2, 3]);
    assert.equal(errors.length, 2);
  });
});
