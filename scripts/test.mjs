#!/usr/bin/env node
// The test runner behind `npm test` and `npm run test:<tier>` (docs/testing.md, "Tiers").
//
//   node scripts/test.mjs [--list] [unit|integration|system ...] [-- node test-runner flags]
//
// Every test file runs in its own process (node:test isolation), several files at a time.
// No tier named = all tiers plus the typecheck, which runs beside the tests instead of before them.
// TEST_STORE selects by store dependence: `all` (default), `dependent` (integration tier and the
// system files without the `@store-independent` tag: what a second CI leg on another store
// needs; no typecheck), `independent` (the rest).
// TEST_CONCURRENCY overrides the number of files run at once (default: twice the core count,
// at least 2; most files wait on sockets, databases and child processes, not on the CPU).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TIERS = ['unit', 'integration', 'system'];
const TAG = /^\/\/ @store-independent\b/m;

// Arguments after `--` go to node's test runner (e.g. `-- --test-reporter=spec`).
const argv = process.argv.slice(2);
const dash = argv.indexOf('--');
const own = dash < 0 ? argv : argv.slice(0, dash);
// `--list`: print the files that would run, run nothing.
const listOnly = own.includes('--list');
const named = own.filter((a) => a !== '--list');
const passed = dash < 0 ? [] : argv.slice(dash + 1);
for (const t of named) {
  if (!TIERS.includes(t)) {
    console.error(`unknown tier '${t}' (expected ${TIERS.join(', ')})`);
    process.exit(2);
  }
}
const tiers = named.length ? named : TIERS;
const store = process.env.TEST_STORE || 'all';
if (!['all', 'dependent', 'independent'].includes(store)) {
  console.error(`TEST_STORE must be all, dependent or independent, not '${store}'`);
  process.exit(2);
}

function list(dir) {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.test.ts'))
    .map((e) => path.relative(root, path.join(e.parentPath ?? e.path, e.name)));
}

/** Unit tests never touch a store; integration tests always do; system files say so by a tag. */
function storeIndependent(tier, file) {
  if (tier === 'unit') return true;
  if (tier === 'integration') return false;
  return TAG.test(fs.readFileSync(path.join(root, file), 'utf8'));
}

// The slowest files first (system, then integration): the many short unit files fill the
// gaps at the end instead of a long system file starting last.
const ORDER = ['system', 'integration', 'unit'];
const files = [...tiers]
  .sort((a, b) => ORDER.indexOf(a) - ORDER.indexOf(b))
  .flatMap((tier) => list(path.join(root, 'test', tier)).sort().map((file) => ({ tier, file })))
  .filter(({ tier, file }) => store === 'all' || (store === 'independent') === storeIndependent(tier, file))
  .map(({ file }) => file);

if (listOnly) {
  for (const f of files) console.log(f);
  process.exit(0);
}

const concurrency = Number(process.env.TEST_CONCURRENCY) || Math.max(2, 2 * os.availableParallelism());
const typecheck = named.length === 0 && store !== 'dependent';

function run(cmd, args) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, stdio: 'inherit' });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
    child.on('error', (err) => {
      console.error(err);
      resolve(1);
    });
  });
}

// TypeScript runs on Node's own type stripping (tsconfig.json: erasableSyntaxOnly), and every
// process of the run (test files, the servers and CLIs they spawn) shares one V8 compile
// cache: most of a test file's start-up is loading the app's modules (docs/testing.md, "Speed").
process.env.NODE_COMPILE_CACHE ??= path.join(root, 'node_modules', '.cache', 'node-compile-cache');

// One migrated store template for the whole run (test/helpers/store-template.ts): its name
// comes from the run id, and it is removed here when the run ends.
const runId = `r${process.pid}_${Date.now().toString(36)}`;
process.env.TEST_RUN_ID = runId;

async function removeTemplates() {
  fs.rmSync(path.join(os.tmpdir(), `vis-template-${runId}`), { recursive: true, force: true });
  if (!process.env.DATABASE_URL) return;
  const { default: pg } = await import('pg');
  const name = `vis_tpl_${runId}`;
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  try {
    await client.connect();
    const found = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount) {
      await client.query(`alter database "${name}" with is_template false`);
      await client.query(`drop database if exists "${name}" with (force)`);
    }
  } catch (err) {
    console.error(`# could not drop the template database ${name}: ${err.message}`);
  } finally {
    await client.end().catch(() => {});
  }
}

const started = Date.now();
console.log(`# ${files.length} test files (${tiers.join(', ')}; store: ${store}), ${concurrency} at a time${typecheck ? ', typecheck beside them' : ''}`);
const jobs = [];
if (typecheck) {
  const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  jobs.push(run(process.execPath, [tsc, '-p', 'tsconfig.json', '--noEmit']).then((code) => {
    if (code) console.error('# typecheck failed');
    return code;
  }));
}
if (files.length) {
  jobs.push(run(process.execPath, ['--test', `--test-concurrency=${concurrency}`, ...passed, ...files]));
}
// Ctrl-C reaches the children too (one process group); the templates go once they have stopped.
process.on('SIGINT', () => {});
const codes = await Promise.all(jobs);
await removeTemplates();
console.log(`# wall clock ${((Date.now() - started) / 1000).toFixed(1)} s`);
process.exit(codes.some((c) => c !== 0) ? 1 : 0);
