import assert from 'node:assert/strict';
import { test } from 'node:test';
import { privateReaders } from '../../src/services/access/private-readers.ts';

// Whose cached answers are their own (src/services/access/private-readers.ts, docs/access.md
// "Response cache", "Who shares").

const clockAt = (ms: number) => ({
  t: ms,
  now() {
    return new Date(this.t);
  },
});

test('an account owning private pages is its own; others and anonymous read as the public', async () => {
  const owners = new Set(['u1']);
  const r = privateReaders({ ownsPrivateVendors: async (id) => owners.has(id), clock: clockAt(0) });
  assert.equal(await r.orgOf('u1'), 'u1');
  assert.equal(await r.orgOf('u2'), null);
  assert.equal(await r.orgOf(null), null);
});

test('the answer is remembered for the TTL; a change in this process is seen at once', async () => {
  const owners = new Set<string>();
  let probes = 0;
  const clock = clockAt(0);
  const r = privateReaders({ ownsPrivateVendors: async (id) => (probes++, owners.has(id)), clock, ttlMs: 10_000 });
  assert.equal(await r.orgOf('u1'), null);
  owners.add('u1');
  assert.equal(await r.orgOf('u1'), null, 'remembered: a page added elsewhere shows after the TTL');
  assert.equal(probes, 1);
  clock.t = 10_001;
  assert.equal(await r.orgOf('u1'), 'u1');
  owners.delete('u1');
  r.changed('u1');
  assert.equal(await r.orgOf('u1'), null, 'a removal here is seen at once');
});

test('a lookup that started before a change does not store its (older) answer', async () => {
  let release!: () => void;
  const gate = new Promise<void>((res) => (release = res));
  let owns = false;
  const r = privateReaders({
    ownsPrivateVendors: async () => {
      const answer = owns;
      await gate;
      return answer;
    },
    clock: clockAt(0),
  });
  const early = r.orgOf('u1');
  owns = true;
  r.changed('u1');
  release();
  assert.equal(await early, null);
  assert.equal(await r.orgOf('u1'), 'u1', 'asked again, not the answer read before the change');
});

test('an organisation with services is its own, keyed with the version of its services', async () => {
  const versions = new Map<string, string>([['o1', '3@2026-11-29T10:00:00.000Z']]);
  const r = privateReaders({ ownsPrivateVendors: async () => false, servicesVersion: async (id) => versions.get(id) ?? null, clock: clockAt(0) });
  const first = await r.orgOf('o1');
  assert.ok(first?.startsWith('o1'), String(first));
  assert.equal(await r.orgOf('o2'), null, 'no services, no private pages: the public');
  versions.set('o1', '3@2026-11-29T10:05:00.000Z');
  r.changed('o1');
  const second = await r.orgOf('o1');
  assert.ok(second?.startsWith('o1'));
  assert.notEqual(second, first, 'a change to the services makes a new owner key');
  versions.delete('o1');
  r.changed('o1');
  assert.equal(await r.orgOf('o1'), null, 'the last service deleted: the public again');
});
