import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { checkService, MAX_DEPENDENCIES, nameProblem } from '../../../src/domain/team-services.ts';

// A service's fields as given (docs/services.md "Model"): slug-like names and tags, one
// dependency per vendor, regions in their normal form, caps.

describe('service rules', () => {
  test('names are slug-like, at most 64 characters', () => {
    for (const ok of ['checkout-api', 'payments.worker', 'a', 'api2', 'a'.repeat(64)]) assert.equal(nameProblem(ok), null, ok);
    for (const bad of ['', 'Checkout', 'checkout-', '-checkout', 'a--b', 'a..b', 'a b', 'a_b', 'a'.repeat(65), 'ä', 'a\u0000', 'a\nb']) {
      assert.notEqual(nameProblem(bad), null, JSON.stringify(bad));
    }
  });

  test('dependencies: regions normalised (in the vendor cloud), duplicates folded, problems named by field', () => {
    const r = checkService({
      dependencies: [
        { vendor: 'amazon-web-services', kind: 'hard', components: ['a', 'a'], regions: ['US East (N. Virginia)', 'us-east-1', 'Tokyo'] },
        { vendor: 'google-cloud', kind: 'soft', components: [], regions: ['Tokyo', 'Iowa'] },
      ],
    });
    assert.deepEqual(r.problems, []);
    assert.deepEqual(r.dependencies, [
      { vendor: 'amazon-web-services', kind: 'hard', components: ['a'], regions: ['us-east-1', 'ap-northeast-1'] },
      { vendor: 'google-cloud', kind: 'soft', components: [], regions: ['asia-northeast1', 'us-central1'] },
    ]);
    const bad = checkService({
      tags: ['Tier 1', 'ok'],
      dependencies: [
        { vendor: 'github', kind: 'hard', components: ['x\u0007'], regions: ['Tokyo'] },
        { vendor: 'github', kind: 'maybe' as 'hard', components: [], regions: ['us-east-10'] },
      ],
    });
    assert.deepEqual(
      bad.problems.map((p) => p.field),
      ['tags', 'dependencies[0].components', 'dependencies[0].regions', 'dependencies[1].vendor', 'dependencies[1].kind', 'dependencies[1].regions'],
    );
    const many = checkService({
      dependencies: Array.from({ length: MAX_DEPENDENCIES + 1 }, (_, i) => ({ vendor: `v${i}`, kind: 'hard' as const, components: [], regions: [] })),
    });
    assert.deepEqual(
      many.problems.map((p) => p.field),
      ['dependencies'],
    );
  });
});
