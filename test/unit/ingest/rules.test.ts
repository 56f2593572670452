import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { backoffCapMs, failureDelayMs, successDelayMs } from '../../../src/ingest/backoff.ts';
import { decideIncident, decideMaintenance, resolvedByAbsence } from '../../../src/domain/changes.ts';
import { fingerprint } from '../../../src/domain/fingerprint.ts';
import { KeyedLimiter } from '../../../src/infra/keyed-limiter.ts';
import { incident, maintenance } from '../../helpers/records.ts';

// The pure rules behind ingestion: change decisions, fingerprints, backoff, limits.

const T0 = '2026-03-02T10:00:00.000Z';
const T1 = '2026-03-02T10:05:00.000Z';
const T2 = '2026-03-02T10:10:00.000Z';
const stored = <T extends object>(record: T) => ({ record, fingerprint: fingerprint(record) });

describe('incident decisions', () => {
  const open = incident('v', 'a', { startedAt: T0, updatedAt: T0 });

  test('same content: nothing to write', () => {
    assert.deepEqual(decideIncident(stored(open), { ...open }, fingerprint(open), T0), { write: false });
  });

  test('updatedAt alone is not a change', () => {
    const bumped = { ...open, updatedAt: T2 };
    assert.equal(fingerprint(bumped), fingerprint(open));
  });

  test('new open → created; new and already over → resolved only if it ended since the last poll', () => {
    assert.deepEqual(decideIncident(undefined, open, fingerprint(open), null), { write: true, event: 'incident.created' });
    const done = { ...open, status: 'resolved' as const, resolvedAt: T1 };
    assert.deepEqual(decideIncident(undefined, done, fingerprint(done), T0), { write: true, event: 'incident.resolved' });
    assert.deepEqual(decideIncident(undefined, done, fingerprint(done), T2), { write: true, event: null }, 'history');
    assert.deepEqual(decideIncident(undefined, done, fingerprint(done), null), { write: true, event: null }, 'first poll = backfill');
  });

  test('open → changed open = updated; open → resolved = resolved', () => {
    const next = { ...open, sourceStatus: 'identified', updatedAt: T1 };
    assert.deepEqual(decideIncident(stored(open), next, fingerprint(next), T0), { write: true, event: 'incident.updated' });
    const done = { ...open, status: 'resolved' as const, resolvedAt: T1 };
    assert.deepEqual(decideIncident(stored(open), done, fingerprint(done), T0), { write: true, event: 'incident.resolved' });
  });

  test('resolved stays resolved: refreshed quietly (postmortem, upstream resolution time)', () => {
    const ours = resolvedByAbsence(open, T1);
    const theirs = { ...open, status: 'resolved' as const, sourceStatus: 'postmortem', resolvedAt: T0, updatedAt: T2 };
    assert.deepEqual(decideIncident(stored(ours), theirs, fingerprint(theirs), T1), { write: true, event: null });
  });

  test('resolved → open only with news newer than the resolution', () => {
    const ours = resolvedByAbsence(open, T1);
    const stale = { ...open, updatedAt: T0 };
    assert.deepEqual(decideIncident(stored(ours), stale, fingerprint(stale), T1), { write: false });
    const reopened = { ...open, updatedAt: T2, sourceStatus: 'investigating' };
    assert.deepEqual(decideIncident(stored(ours), reopened, fingerprint(reopened), T1), { write: true, event: 'incident.updated' });
  });

  test('resolution by absence keeps the upstream word and stamps the poll time', () => {
    const r = resolvedByAbsence({ ...open, sourceStatus: 'monitoring', status: 'monitoring' }, T2);
    assert.equal(r.status, 'resolved');
    assert.equal(r.sourceStatus, 'monitoring');
    assert.equal(r.resolvedAt, T2);
  });
});

describe('maintenance decisions', () => {
  const planned = maintenance('v', 'm', { scheduledFor: T1, scheduledUntil: T2, updates: [{ status: 'scheduled', body: 'x', createdAt: T0 }] });
  const inProgress = { ...planned, status: 'in_progress' as const, startedAt: T1 };
  const verifying = { ...inProgress, status: 'verifying' as const };
  const done = { ...verifying, status: 'completed' as const, completedAt: T2 };

  test('each state change has its event', () => {
    assert.deepEqual(decideMaintenance(undefined, planned, fingerprint(planned), null), { write: true, event: 'maintenance.scheduled' });
    assert.deepEqual(decideMaintenance(undefined, inProgress, fingerprint(inProgress), null), { write: true, event: 'maintenance.started' });
    assert.deepEqual(decideMaintenance(stored(planned), inProgress, fingerprint(inProgress), T0), { write: true, event: 'maintenance.started' });
    assert.deepEqual(decideMaintenance(stored(planned), verifying, fingerprint(verifying), T0), { write: true, event: 'maintenance.started' });
    assert.deepEqual(decideMaintenance(stored(inProgress), verifying, fingerprint(verifying), T0), { write: true, event: 'maintenance.updated' });
    assert.deepEqual(decideMaintenance(stored(verifying), done, fingerprint(done), T0), { write: true, event: 'maintenance.completed' });
    const moved = { ...planned, scheduledFor: T2 };
    assert.deepEqual(decideMaintenance(stored(planned), moved, fingerprint(moved), T0), { write: true, event: 'maintenance.updated' });
  });

  test('completed history is backfilled quietly; a completed window is not reopened by an older copy', () => {
    assert.deepEqual(decideMaintenance(undefined, done, fingerprint(done), null), { write: true, event: null });
    assert.deepEqual(decideMaintenance(stored(done), inProgress, fingerprint(inProgress), T2), { write: false });
  });
});

describe('backoff', () => {
  const fixed = (v: number) => () => v;

  test('success waits the interval ±10 %', () => {
    assert.equal(successDelayMs(60, fixed(0)), 54_000);
    assert.equal(successDelayMs(60, fixed(1)), 66_000);
  });

  test('failures double the wait, with jitter in the upper half, up to an hour', () => {
    assert.equal(failureDelayMs(60, 1, fixed(0)), 60_000);
    assert.equal(failureDelayMs(60, 1, fixed(1)), 120_000);
    assert.equal(failureDelayMs(60, 3, fixed(1)), 480_000);
    assert.equal(failureDelayMs(60, 20, fixed(1)), 3_600_000);
    assert.equal(failureDelayMs(60, 20, fixed(0)), 1_800_000);
    assert.equal(backoffCapMs(7200), 7_200_000, 'a long interval is its own cap');
  });

  test('Retry-After is a floor, capped too', () => {
    assert.equal(failureDelayMs(60, 1, fixed(0), 600), 600_000);
    assert.equal(failureDelayMs(60, 1, fixed(0), 86_400), 3_600_000);
  });
});

describe('keyed limiter', () => {
  test('never exceeds the global and per-key caps, and a full key does not block others', async () => {
    const limiter = new KeyedLimiter(3, 1);
    const started: string[] = [];
    const gates = new Map<string, () => void>();
    const tick = () => new Promise((r) => setImmediate(r));
    const task = (name: string) =>
      limiter.run(name[0]!, async () => {
        started.push(name);
        await new Promise<void>((r) => gates.set(name, r));
      });
    const all = Promise.all(['a1', 'a2', 'a3', 'b', 'c', 'd'].map(task));
    await tick();
    assert.deepEqual(started, ['a1', 'b', 'c'], 'three at once, one per host');
    gates.get('b')!();
    await tick();
    assert.deepEqual(started, ['a1', 'b', 'c', 'd'], 'host a is full, so d goes ahead of a2');
    gates.get('c')!();
    gates.get('d')!();
    await tick();
    assert.equal(started.length, 4, 'a2 waits for a1 even with free slots');
    gates.get('a1')!();
    await tick();
    assert.deepEqual(started.slice(4), ['a2']);
    gates.get('a2')!();
    await tick();
    gates.get('a3')!();
    await all;
    assert.deepEqual(started, ['a1', 'b', 'c', 'd', 'a2', 'a3']);
  });
});
