import assert from 'node:assert/strict';
import { test } from 'node:test';
import { latestUpdate } from '../../../src/domain/record-views.ts';

// The latest update of a record is chosen by time, whatever order the upstream listed them in.

const u = (body: string, createdAt: string) => ({ status: 'investigating', body, createdAt });

test('latest update by time: newest-first, oldest-first and mixed lists', () => {
  const a = u('first', '2026-08-01T10:00:00Z');
  const b = u('second', '2026-08-01T11:00:00Z');
  const c = u('third', '2026-08-01T12:00:00.000Z');
  assert.equal(latestUpdate([c, b, a]), c);
  assert.equal(latestUpdate([a, b, c]), c);
  assert.equal(latestUpdate([b, c, a]), c);
  assert.equal(latestUpdate([]), null);
});

test('equal times keep the first listed; an unreadable time never wins over a readable one', () => {
  const x = u('x', '2026-08-01T10:00:00Z');
  const y = u('y', '2026-08-01T10:00:00Z');
  const bad = u('bad', 'not a time');
  assert.equal(latestUpdate([x, y]), x);
  assert.equal(latestUpdate([bad, x]), x);
  assert.equal(latestUpdate([bad]), bad);
});
