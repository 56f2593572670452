import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import type { Writable } from 'node:stream';
import { test } from 'node:test';
import type { StoredEvent } from '../../../src/domain/events.ts';
import { StreamConnection } from '../../../src/events/stream-connection.ts';
import { StreamHub } from '../../../src/events/stream-hub.ts';
import { memoryEventBus } from '../../../src/infra/event-bus.ts';
import type { EventAnnotator } from '../../../src/services/impact/record-annotations.ts';
import { waitFor } from '../../helpers/wait.ts';

// The hub's affected services (docs/stream.md "Affected services"): each organisation's
// streams get that organisation's frame, other streams the shared one; an organisation
// whose services cannot be read gets the event without the field, never no event.

class FakeResponse extends EventEmitter {
  writableLength = 0;
  writes: string[] = [];
  write(buf: Buffer) {
    this.writes.push(buf.toString());
    return true;
  }
  destroy() {
    this.emit('close');
  }
  end() {
    this.emit('close');
  }
}

const event = (seq: number): StoredEvent => ({
  seq,
  type: 'incident.created',
  vendor: 'github',
  entityKind: 'incident',
  entityId: `github:i${seq}`,
  occurredAt: new Date().toISOString(),
  payload: { id: `github:i${seq}`, vendor: 'github', status: 'investigating' } as never,
});

function setup(annotate: EventAnnotator) {
  const warnings: string[] = [];
  const bus = memoryEventBus();
  const log = { info() {}, debug() {}, warn: (_o: object, msg: string) => void warnings.push(msg) };
  const hub = new StreamHub({ bus, events: { after: async () => [], latestSeq: async () => 0 }, log, pingMs: 60_000, annotate });
  const open = async (servicesOf: string | null) => {
    const res = new FakeResponse();
    const conn = new StreamConnection(
      { out: res as unknown as Writable, chunked: false, route: null },
      { vendors: null, status: null, readerId: servicesOf, servicesOf },
      256 * 1024,
      hub,
      () => {},
      'r',
    );
    await hub.attach(conn);
    conn.goLive(0);
    return res;
  };
  const incident = (res: FakeResponse) => {
    const line = res.writes.find((w) => w.includes('incident.created'));
    return line ? JSON.parse(line.split('data: ')[1]!).incident : undefined;
  };
  return { bus, hub, open, incident, warnings };
}

test('each organisation its own services, anonymous streams none; one annotation per organisation', async () => {
  const asked: string[] = [];
  const { bus, hub, open, incident } = setup(async (orgId, events) => {
    asked.push(orgId);
    return orgId === 'org-none'
      ? null
      : new Map(events.map((e) => [e.seq, [{ serviceId: `s-${orgId}`, serviceName: orgId, confidence: 'low' as const, reasons: [] }]]));
  });
  const [a1, a2, b, none, anon] = await Promise.all([open('org-a'), open('org-a'), open('org-b'), open('org-none'), open(null)]);
  bus.publish([event(1)]);
  await waitFor(() => anon.writes.length > 0 && a1.writes.length > 0, { message: 'the event', timeoutMs: 2_000, intervalMs: 10 });
  assert.deepEqual(
    incident(a1).affectedServices.map((s: { serviceName: string }) => s.serviceName),
    ['org-a'],
  );
  assert.deepEqual(
    incident(a2).affectedServices.map((s: { serviceName: string }) => s.serviceName),
    ['org-a'],
  );
  assert.deepEqual(
    incident(b).affectedServices.map((s: { serviceName: string }) => s.serviceName),
    ['org-b'],
  );
  assert.ok(!('affectedServices' in incident(none)), 'an organisation without services: no field');
  assert.ok(!('affectedServices' in incident(anon)));
  assert.deepEqual(asked.sort(), ['org-a', 'org-b', 'org-none'], 'once per organisation, not per stream');
  await hub.close();
});

test('services that cannot be read: the event still goes out, without the field, and a warning is logged', async () => {
  const { bus, hub, open, incident, warnings } = setup(async () => {
    throw new Error('store down');
  });
  const res = await open('org-a');
  bus.publish([event(1)]);
  await waitFor(() => res.writes.length > 0, { message: 'the event', timeoutMs: 2_000, intervalMs: 10 });
  assert.equal(incident(res).id, 'github:i1');
  assert.ok(!('affectedServices' in incident(res)));
  assert.equal(warnings.length, 1);
  await hub.close();
});
