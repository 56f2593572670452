import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import type { Writable } from 'node:stream';
import { test } from 'node:test';
import type { StoredEvent } from '../../../src/domain/events.ts';
import { FANOUT_BATCH, StreamHub } from '../../../src/events/stream-hub.ts';
import { StreamConnection } from '../../../src/events/stream-connection.ts';
import { memoryEventBus } from '../../../src/infra/event-bus.ts';
import { waitFor } from '../../helpers/wait.ts';

// The hub's fan-out at scale (docs/stream.md, "Fan-out" and "What a stream costs"):
// writing one event to thousands of clients gives the event loop turns in between,
// a connection closed before the hub took it is never kept, and a shutdown can cut
// the connections it ended.

const quiet = { info() {}, warn() {}, debug() {} };

/** A response that records its writes; enough of a writable for a StreamConnection. */
class FakeResponse extends EventEmitter {
  writableLength = 0;
  writes: Buffer[] = [];
  /** Whether the event loop had a turn (a setImmediate ran) before this response got the event. */
  afterTurn: boolean | null = null;
  turn = { happened: false };
  write(buf: Buffer) {
    this.writes.push(buf);
    if (this.afterTurn === null && buf.includes('incident.created')) this.afterTurn = this.turn.happened;
    return true;
  }
  destroy() {
    this.emit('close');
  }
  end() {
    this.emit('close');
  }
}

function incidentEvent(seq: number): StoredEvent {
  return {
    seq,
    type: 'incident.created',
    vendor: 'github',
    entityKind: 'incident',
    entityId: `github:i${seq}`,
    occurredAt: new Date().toISOString(),
    payload: { id: `github:i${seq}`, vendor: 'github', status: 'investigating' } as never,
  };
}

function setup() {
  const bus = memoryEventBus();
  const hub = new StreamHub({ bus, events: { after: async () => [], latestSeq: async () => 0 }, log: quiet, pingMs: 60_000 });
  const open = (res: FakeResponse) =>
    new StreamConnection(
      { out: res as unknown as Writable, chunked: false, route: null },
      { vendors: null, status: null, readerId: null },
      256 * 1024,
      hub,
      () => {},
      'r',
    );
  return { bus, hub, open };
}

test('one event to more clients than a batch: every client gets it once, and the event loop has turns in between', async () => {
  const { bus, hub, open } = setup();
  const turn = { happened: false };
  const responses = Array.from({ length: FANOUT_BATCH * 2 + 5 }, () => Object.assign(new FakeResponse(), { turn }));
  for (const res of responses) {
    const conn = open(res);
    await hub.attach(conn);
    conn.goLive(0);
  }
  bus.publish([incidentEvent(1)]);
  setImmediate(() => {
    turn.happened = true;
  });
  await waitFor(() => hub.stats.sent > 0, { message: 'the first write', timeoutMs: 2_000, intervalMs: 20 }).catch(() => {});
  for (const res of responses) assert.equal(res.writes.filter((b) => b.includes('incident.created')).length, 1);
  assert.equal(responses[0]!.afterTurn, false, 'the first batch is written at once');
  assert.equal(responses.at(-1)!.afterTurn, true, 'the last clients are written after the loop had a turn');
  await hub.close();
});

test('a connection whose client left while the hub was starting is not kept, and its slot is given back', async () => {
  const { hub } = setup();
  let released = 0;
  const res = new FakeResponse();
  const conn = new StreamConnection(
    { out: res as unknown as Writable, chunked: false, route: null },
    { vendors: null, status: null, readerId: null },
    1024,
    hub,
    () => released++,
    'r',
  );
  const attaching = hub.attach(conn);
  res.emit('close');
  await attaching;
  assert.equal(hub.size, 0);
  assert.equal(released, 1);
  await hub.close();
});

test('at shutdown, streams get their last event; cut() then destroys those whose client has not taken the end', async () => {
  const { hub, open } = setup();
  // One client takes the end (its connection closes); the other does not read, so its end never completes.
  const reading = new FakeResponse();
  const stuck = Object.assign(new FakeResponse(), { ends: 0, destroyed: 0 });
  stuck.end = () => {
    stuck.ends++;
  };
  stuck.destroy = () => {
    stuck.destroyed++;
    stuck.emit('close');
  };
  await hub.attach(open(reading));
  await hub.attach(open(stuck));
  await hub.close();
  assert.ok(
    stuck.writes.some((b) => b.includes('event: shutdown')),
    'the last event is written',
  );
  assert.equal(stuck.ends, 1);
  assert.equal(stuck.destroyed, 0, 'not cut before the shutdown decides so');
  hub.cut();
  assert.equal(stuck.destroyed, 1, 'the connection that did not end is cut');
  hub.cut();
  assert.equal(stuck.destroyed, 1, 'once');
});
