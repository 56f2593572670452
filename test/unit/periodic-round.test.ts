import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { periodicRound } from '../../src/infra/periodic-round.ts';

// The background round shared by the probe runner, the telemetry evaluator and the
// self-healing scan (src/infra/periodic-round.ts): rounds never overlap, a failed round is
// reported and the next one still runs, and stop() waits for the round in flight.

test('rounds never overlap, failures are reported, stop waits for the round in flight', async () => {
  let running = 0;
  let most = 0;
  let rounds = 0;
  let release: (() => void) | null = null;
  const errors: unknown[] = [];
  const round = periodicRound(
    async () => {
      running++;
      most = Math.max(most, running);
      rounds++;
      if (rounds === 2) {
        running--;
        throw new Error('boom');
      }
      // The first round outlives several ticks.
      if (rounds === 1) await new Promise<void>((r) => (release = r));
      running--;
    },
    { everyMs: 5, runAtStart: true, onError: (err) => errors.push(err) },
  );
  round.start();
  round.start(); // a second start is a no-op
  await sleep(40);
  assert.equal(rounds, 1, 'ticks while the first round runs are skipped');
  release!();
  await sleep(40);
  assert.ok(rounds >= 3, `${rounds} rounds: the one after the failure ran too`);
  assert.equal(most, 1);
  assert.equal(errors.length, 1);
  assert.match(String(errors[0]), /boom/);
  let finished = false;
  const stopping = periodicRound(
    async () => {
      await sleep(30);
      finished = true;
    },
    { everyMs: 1_000, runAtStart: true, onError: () => {} },
  );
  stopping.start();
  await sleep(5);
  await stopping.stop();
  assert.equal(finished, true, 'stop() waited for the round in flight');
  await round.stop();
  const after = rounds;
  await sleep(30);
  assert.equal(rounds, after, 'no round after stop()');
});
