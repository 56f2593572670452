import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { planKind } from '../../src/domain/org-config.ts';
import { parseConfig, writeConfig } from '../../src/services/config/config-file.ts';

// Reading the config file (docs/services.md "Config as code"): problems with paths and lines,
// alias bombs refused, and the plan's item rules.

describe('config file', () => {
  test('an alias bomb is refused, not expanded', () => {
    const lines = ['version: 1', 'a: &a [x, x, x, x, x, x, x, x, x, x]'];
    for (let i = 0; i < 8; i++)
      lines.push(
        `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [${Array(10)
          .fill(`*${String.fromCharCode(97 + i)}`)
          .join(', ')}]`,
      );
    const r = parseConfig(lines.join('\n'));
    assert.equal(r.file, null);
    assert.match(r.problems[0]!.message, /alias/i);
  });

  test('schema problems name the path and the line; unknown fields by name', () => {
    const r = parseConfig('version: 1\nservices:\n  - name: ok\n  - name: Not OK\n    extra: 1\n');
    assert.equal(r.file, null);
    const byPath = new Map(r.problems.map((p) => [p.path, p]));
    assert.equal(byPath.get('services[1].name')?.line, 4);
    assert.equal(byPath.get('services[1].extra')?.line, 5);
    assert.match(byPath.get('services[1].extra')!.message, /unknown field 'extra'/);
  });

  test('syntax errors and control characters carry their line', () => {
    assert.equal(parseConfig('version: 1\nservices: [a\n').problems[0]!.path, '(file)');
    assert.equal(parseConfig('version: 1\n\n\u0001').problems[0]!.line, 3);
    assert.match(parseConfig('version: 1\nversion: 1').problems[0]!.message, /unique|duplicate/i);
  });

  test('a written file reads back the same', () => {
    const file = {
      version: 1 as const,
      services: [
        {
          name: 'a',
          criticality: 'high' as const,
          owner: null,
          tags: [],
          dependencies: [{ vendor: 'github', kind: 'hard' as const, components: ['Actions'], regions: [] }],
        },
      ],
      watchlists: [],
      routes: [],
    };
    assert.deepEqual(parseConfig(writeConfig(file)).file, file);
  });

  test('plan: create, update with its fields, unchanged, delete only with prune', () => {
    const stored = [
      { name: 'a', value: { x: 1, y: [1] } },
      { name: 'b', value: { x: 1 } },
      { name: 'gone', value: {} },
    ];
    const desired = [
      { name: 'a', value: { x: 1, y: [2] } },
      { name: 'b', value: { x: 1 } },
      { name: 'new', value: {} },
    ];
    assert.deepEqual(planKind('service', desired, stored, false), [
      { kind: 'service', name: 'a', action: 'update', fields: ['y'] },
      { kind: 'service', name: 'b', action: 'unchanged' },
      { kind: 'service', name: 'new', action: 'create' },
    ]);
    assert.deepEqual(planKind('service', desired, stored, true).at(-1), { kind: 'service', name: 'gone', action: 'delete' });
  });
});
