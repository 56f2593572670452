// @store-independent: reads the sources only, with the dependency-cruiser CLI in a child process
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

// The import rules of src/ (docs/architecture.md, "Layers and what each folder may import"),
// checked with dependency-cruiser and the repository's .dependency-cruiser.cjs. The
// second test runs the same configuration on a small tree that breaks every rule once,
// so a rule that stops matching (a typo in a pattern, type-only imports not read) fails here.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CONFIG = path.join(root, '.dependency-cruiser.cjs');
const CLI = path.join(root, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');
const run = promisify(execFile);

interface Violation {
  from: string;
  to: string;
  rule: { name: string };
  cycle?: { name: string }[];
}

async function cruise(cwd: string): Promise<Violation[]> {
  // Exit code 0 or the number of errors; the JSON report is on stdout either way.
  const out = await run(process.execPath, [CLI, '--config', CONFIG, '--output-type', 'json', 'src'], { cwd, maxBuffer: 64 << 20 }).catch(
    (err: { stdout?: string; code?: number }) => {
      if (typeof err.stdout !== 'string' || !err.stdout.startsWith('{')) throw err;
      return { stdout: err.stdout };
    },
  );
  const report = JSON.parse(out.stdout) as { summary: { violations: Violation[]; totalCruised: number } };
  assert.ok(report.summary.totalCruised > 0, 'the cruiser read no module');
  return report.summary.violations;
}

const describe = (v: Violation[]) => v.map((x) => `${x.rule.name}: ${x.from} -> ${x.to}`).sort();

test('src/ keeps every import rule, without exceptions', async () => {
  const violations = await cruise(root);
  assert.deepEqual(describe(violations), []);
});

const fixture = fs.mkdtempSync(path.join(os.tmpdir(), 'vis-architecture-'));
after(() => fs.rmSync(fixture, { recursive: true, force: true }));

function write(file: string, text: string) {
  fs.mkdirSync(path.dirname(path.join(fixture, file)), { recursive: true });
  fs.writeFileSync(path.join(fixture, file), text);
}

test('a tree that breaks each rule once fails the check, edge by edge', async () => {
  // A type-only import is enough to break a rule: types couple folders too.
  write('src/domain/rule.ts', "import type { UseCase } from '../services/use-case.ts';\nexport type Rule = UseCase | number;\n");
  write(
    'src/services/use-case.ts',
    "import type { Rule } from '../domain/rule.ts';\nimport { send } from '../alerts/worker.ts';\nexport type UseCase = { rule: Rule; send: typeof send };\n",
  );
  write(
    'src/alerts/worker.ts',
    "import { poll } from '../ingest/scheduler.ts';\nimport { entry } from '../ingest/index.ts';\nexport const send = () => [poll, entry];\n",
  );
  // A worker runs over repositories: it may import the store (docs/architecture.md).
  write('src/ingest/scheduler.ts', "import type { Row } from '../store/rows.ts';\nexport const poll: Row = 1;\n");
  write('src/store/rows.ts', 'export type Row = number;\n');
  write('src/web/page.ts', "import type { Row } from '../store/rows.ts';\nexport const page: Row = 2;\n");
  write('src/ingest/index.ts', "export const entry = 'public';\n");
  // The parsers import only themselves and the domain, not the simulator that renders pages.
  write('src/ingest/adapters/parse.ts', "import { render } from '../simulator/render.ts';\nexport const parse = render;\n");
  write('src/ingest/simulator/render.ts', 'export const render = 1;\n');
  write('src/store/repo.ts', "import { box } from '../infra/box.ts';\nexport const repo = box;\n");
  write('src/infra/box.ts', "import type { UseCase } from '../services/use-case.ts';\nexport const box = {} as UseCase | null;\n");
  write('src/http/route.ts', "import { app } from '../app.ts';\nexport const route = app;\n");
  write('src/app.ts', "import { route } from './http/route.ts';\nexport const app = () => route;\n");

  const found = describe(await cruise(fixture));
  assert.deepEqual(
    found.filter((v) => !v.startsWith('no-cycles:')),
    [
      'adapters-reach-the-store-through-services: src/web/page.ts -> src/store/rows.ts',
      'domain-imports-nothing-of-ours: src/domain/rule.ts -> src/services/use-case.ts',
      'edges-keep-to-themselves: src/alerts/worker.ts -> src/ingest/scheduler.ts',
      'infra-imports-only-domain: src/infra/box.ts -> src/services/use-case.ts',
      'only-entries-compose: src/http/route.ts -> src/app.ts',
      'parsers-import-only-domain: src/ingest/adapters/parse.ts -> src/ingest/simulator/render.ts',
      'services-import-only-domain-store-infra: src/services/use-case.ts -> src/alerts/worker.ts',
      'store-imports-only-domain: src/store/repo.ts -> src/infra/box.ts',
    ],
  );
  // Both circles are reported: domain <-> services, and the app <-> route one.
  assert.deepEqual(
    found.filter((v) => v.startsWith('no-cycles:')),
    ['no-cycles: src/app.ts -> src/http/route.ts', 'no-cycles: src/domain/rule.ts -> src/services/use-case.ts'],
  );
  // The public entry of another adapter is allowed.
  assert.ok(!found.some((v) => v.includes('src/ingest/index.ts')), found.join('\n'));
  // So is the store for a worker.
  assert.ok(!found.some((v) => v.startsWith('adapters-reach-the-store-through-services: src/ingest/')), found.join('\n'));
});
