// Every reference to a file of the repository (`src/…`, `test/…`, `docs/…`, `bench/…`,
// `scripts/…`) and to a section of a doc (`docs/x.md, "Section"`) in code comments, docs and
// the README must resolve: a renamed file or heading fails here instead of leaving a reader at a
// dead end (docs/testing.md, "References"). A path of another repository is written with its
// name in front (`heroku/cli:src/commands/status.ts`) and is not checked.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { findDanglingReferences } from './doc-references.ts';

const root = path.resolve(import.meta.dirname, '../..');

test('every file and section reference in code, docs and the README resolves', () => {
  const dangling = findDanglingReferences(root);
  assert.deepEqual(dangling, [], `dangling references:\n${dangling.join('\n')}`);
});

test('the check finds a dangling path and a dangling section', () => {
  const dir = fs.mkdtempSync(path.join(fs.realpathSync(process.env.TMPDIR ?? '/tmp'), 'vis-refs-'));
  try {
    fs.mkdirSync(path.join(dir, 'docs'));
    fs.mkdirSync(path.join(dir, 'src'));
    fs.writeFileSync(path.join(dir, 'docs', 'a.md'), '# A\n\n## Kept\n\nSee src/kept.ts and src/{kept,gone}.ts.\n');
    fs.writeFileSync(path.join(dir, 'src', 'kept.ts'), '// docs/a.md, "Kept"; docs/a.md "Gone\n// away"; other/repo:src/x.ts\n');
    fs.writeFileSync(path.join(dir, 'README.md'), 'Start at docs/a.md and docs/missing.md.\n');
    assert.deepEqual(findDanglingReferences(dir), ['README.md: docs/missing.md', 'docs/a.md: src/gone.ts', 'src/kept.ts: docs/a.md "Gone away"']);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
