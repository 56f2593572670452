import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { distributionOf, rankTransparency, type SignalHistory, transparencyOf } from '../../../src/domain/early-warning-transparency.ts';

// Transparency figures (docs/early-warning.md "Transparency") from recorded transitions:
// lead time to the vendor's post, unposted outages once the confirmation window ended,
// time to resolve from the confirming incident's end; unknown stays null with a reason.

const T0 = Date.parse('2026-11-01T10:00:00Z');
const at = (min: number) => new Date(T0 + min * 60_000).toISOString();
const now = new Date(T0 + 24 * 60 * 60_000);

function signal(
  id: string,
  vendor: string,
  opened: number,
  then: { to: 'confirmed' | 'cleared' | 'dismissed'; at: number }[] = [],
  o: { last?: number; incident?: string } = {},
): SignalHistory {
  const transitions: SignalHistory['transitions'] = [{ from: null, to: 'suspected', at: at(opened) }];
  for (const t of then) transitions.push({ from: transitions[transitions.length - 1]!.to, to: t.to, at: at(t.at) });
  return { id, vendor, lastObservedAt: at(o.last ?? opened), incidentId: o.incident ?? null, transitions };
}

describe('transparency', () => {
  test('no signal: every figure null with its reason, no zeros', () => {
    const t = transparencyOf('github', [signal('a', 'stripe', 0, [{ to: 'confirmed', at: 10 }], { incident: 'i1' })], new Map(), now);
    assert.equal(t.signals, 0);
    assert.equal(t.leadTimeMinutes, null);
    assert.equal(t.unpostedOutages, null);
    assert.equal(t.timeToResolveMinutes, null);
    assert.deepEqual(t.unknown.map((u) => u.figure).sort(), ['leadTimeMinutes', 'timeToResolveMinutes', 'unpostedOutages']);
    assert.match(t.unknown[0]!.reason, /no signal about the vendor in the last 90 days/);
  });

  test('lead time from opening to confirmation; time to resolve from opening to the incident end', () => {
    const h = [
      signal('a', 'github', 0, [{ to: 'confirmed', at: 12 }], { incident: 'i1' }),
      signal('b', 'github', 100, [{ to: 'confirmed', at: 104.5 }], { incident: 'i2' }),
      signal('c', 'github', 200, [{ to: 'confirmed', at: 230 }], { incident: 'i3' }),
    ];
    const resolved = new Map<string, string | null>([
      ['i1', at(60)],
      ['i2', null],
    ]);
    const t = transparencyOf('github', h, resolved, now);
    assert.deepEqual(t.leadTimeMinutes, { count: 3, p50: 12, p90: 30, min: 4.5, max: 30 });
    assert.deepEqual(t.timeToResolveMinutes, { count: 1, p50: 60, p90: 60, min: 60, max: 60 });
    assert.equal(t.unresolved, 2, 'one open incident, one no longer stored');
    assert.equal(t.unpostedOutages, 0, 'signals exist: zero unposted is observed');
    assert.deepEqual(t.outcomes, { suspected: 0, confirmed: 3, cleared: 0, dismissed: 0 });
    assert.deepEqual(t.unknown, []);
  });

  test('unposted: cleared past the confirmation window, not dismissed; within it, awaiting', () => {
    const h = [
      signal('a', 'github', 0, [{ to: 'cleared', at: 40 }], { last: 10 }),
      // Last observed 23 h 30 min after T0: the 2-hour window is still open at `now`.
      signal('b', 'github', 1400, [{ to: 'cleared', at: 1440 }], { last: 1410 }),
      signal('c', 'github', 500, [{ to: 'dismissed', at: 520 }], { last: 510 }),
      signal('d', 'github', 600, [], { last: 610 }),
    ];
    const t = transparencyOf('github', h, new Map(), now);
    assert.equal(t.unpostedOutages, 1);
    assert.equal(t.awaitingConfirmationWindow, 1);
    assert.deepEqual(t.outcomes, { suspected: 1, confirmed: 0, cleared: 2, dismissed: 1 });
    assert.equal(t.leadTimeMinutes, null);
    assert.match(t.unknown.find((u) => u.figure === 'leadTimeMinutes')!.reason, /none of 4 signals/);
  });

  test('a confirmed signal later dismissed counts as a false alarm, not as lead', () => {
    const t = transparencyOf(
      'github',
      [
        signal(
          'a',
          'github',
          0,
          [
            { to: 'confirmed', at: 10 },
            { to: 'dismissed', at: 20 },
          ],
          { incident: 'i1' },
        ),
      ],
      new Map([['i1', at(30)]]),
      now,
    );
    assert.equal(t.leadTimeMinutes, null);
    assert.equal(t.outcomes.dismissed, 1);
  });

  test('distribution: nearest rank, one decimal, nothing for no values', () => {
    assert.equal(distributionOf([]), null);
    const d = distributionOf([1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((m) => m * 60_000));
    assert.deepEqual(d, { count: 10, p50: 5, p90: 9, min: 1, max: 10 });
  });

  test('ranking by median lead, or by unposted outages; vendors without the figure last', () => {
    const none = transparencyOf('aws', [], new Map(), now);
    const slow = transparencyOf('github', [signal('a', 'github', 0, [{ to: 'confirmed', at: 30 }])], new Map(), now);
    const fast = transparencyOf(
      'stripe',
      [signal('b', 'stripe', 0, [{ to: 'confirmed', at: 5 }]), signal('c', 'stripe', 10, [{ to: 'cleared', at: 50 }], { last: 20 })],
      new Map(),
      now,
    );
    assert.deepEqual(
      rankTransparency([none, fast, slow], 'lead').map((t) => t.vendor),
      ['github', 'stripe', 'aws'],
    );
    assert.deepEqual(
      rankTransparency([none, slow, fast], 'unposted').map((t) => t.vendor),
      ['stripe', 'github', 'aws'],
    );
  });
});
