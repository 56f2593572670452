#!/usr/bin/env node
// The test runner behind `npm test` and `npm run test:<tier>` (docs/testing.md, "Tiers" and "Batches").
//
//   node scripts/test.mjs [--list] [--record] [unit|integration|system ...] [-- node test-runner flags]
//
// Test files run in batches: a batch is one process that runs its files one after the other
// (node:test `--test-isolation=none`), several batches at a time. A process loads the app's
// modules and compiles its schemas once for all its files, which was most of what a small
// file cost. TEST_ISOLATION=file runs every file in a process of its own instead (slower; for
// a file suspected of leaking state into the next).
// No tier named = all tiers plus the typecheck, which runs beside the tests instead of before them.
// TEST_STORE selects by store dependence: `all` (default), `dependent` (integration tier and the
// system files without the `@store-independent` tag: what a second CI leg on another store
// needs; no typecheck), `independent` (the rest).
// TEST_CONCURRENCY overrides the number of processes run at once (default: twice the core
// count, at least 2; most files wait on sockets, databases and child processes, not on the CPU).
// `--record` writes each file's measured duration to test/durations.json (with DATABASE_URL:
// test/durations-postgres.json), which the next runs use to make batches of equal length.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TIERS = ['unit', 'integration', 'system'];
const TAG = /^\/\/ @store-independent\b/m;

// Arguments after `--` go to node's test runner (e.g. `-- --test-reporter=spec`).
const argv = process.argv.slice(2);
const dash = argv.indexOf('--');
const own = dash < 0 ? argv : argv.slice(0, dash);
// `--list`: print the files that would run, run nothing.
const listOnly = own.includes('--list');
const record = own.includes('--record');
const named = own.filter((a) => a !== '--list' && a !== '--record');
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
const entries = [...tiers]
  .sort((a, b) => ORDER.indexOf(a) - ORDER.indexOf(b))
  .flatMap((tier) =>
    list(path.join(root, 'test', tier))
      .sort()
      .map((file) => ({ tier, file })),
  )
  .filter(({ tier, file }) => store === 'all' || (store === 'independent') === storeIndependent(tier, file));
const files = entries.map(({ file }) => file);

if (listOnly) {
  for (const f of files) console.log(f);
  process.exit(0);
}

const concurrency = Number(process.env.TEST_CONCURRENCY) || Math.max(2, 2 * os.availableParallelism());
const isolation = process.env.TEST_ISOLATION || 'batch';
if (!['batch', 'file'].includes(isolation)) {
  console.error(`TEST_ISOLATION must be batch or file, not '${isolation}'`);
  process.exit(2);
}
const typecheck = named.length === 0 && store !== 'dependent';

function run(cmd, args, stdio = 'inherit') {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, stdio });
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
// A process writes what it compiled into the cache when it exits. On a cold cache (a fresh
// `npm ci`) every batch and every server or CLI they spawn would compile the app anew until
// the first batch ends, so the server's and the CLI's `--help` (which load every module of
// each and exit) fill the cache before the batches start (docs/testing.md, "Speed").
const coldCache = !fs.existsSync(process.env.NODE_COMPILE_CACHE);
const warmUp = async () => {
  if (!coldCache) return;
  await run(process.execPath, ['src/server.ts', '--help'], 'ignore');
  await run(process.execPath, ['src/cli/index.ts', '--help'], 'ignore');
};

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

// Batches: each file weighs its duration of an earlier run (test/durations.json), or its
// tier's typical duration when it has none; files go to the lightest of 2 × concurrency
// batches, heaviest first, and the batches run heaviest first, `concurrency` at a time: a
// batch that turns out longer than its weight leaves the others to the remaining processes.
// A file takes different times on the two stores (PostgreSQL round trips, Redis), so each store
// keeps its own record; a file the PostgreSQL record lacks weighs its SQLite duration.
const SQLITE_DURATIONS = path.join(root, 'test', 'durations.json');
const DURATIONS_FILE = process.env.DATABASE_URL ? path.join(root, 'test', 'durations-postgres.json') : SQLITE_DURATIONS;
const TIER_MS = { unit: 50, integration: 2_000, system: 6_000 };
const readDurations = (file) => (fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : {});
const recorded = readDurations(DURATIONS_FILE);
const known = { ...readDurations(SQLITE_DURATIONS), ...recorded };

function makeBatches() {
  if (isolation === 'file') return [files];
  const count = Math.min(files.length, 2 * concurrency);
  const bins = Array.from({ length: count }, () => ({ weight: 0, files: [] }));
  const weighed = entries.map(({ tier, file }) => ({ file, weight: known[file] ?? TIER_MS[tier] }));
  for (const f of weighed.sort((a, b) => b.weight - a.weight)) {
    const bin = bins.reduce((min, b) => (b.weight < min.weight ? b : min));
    bin.weight += f.weight;
    bin.files.push(f.file);
  }
  return bins
    .filter((b) => b.files.length)
    .sort((a, b) => b.weight - a.weight)
    .map((b) => b.files);
}

// Our summary reporter rides beside spec unless the caller chose reporters of their own.
const ownReporters = !passed.some((a) => a.startsWith('--test-reporter'));
const summaryReporter = path.join(root, 'scripts', 'test-summary-reporter.mjs');

// Switches node:test's per-promise async hook off once a batch's tests are registered
// (see the file for why and what it changes).
const batchPreload = pathToFileURL(path.join(root, 'scripts', 'test-batch-preload.mjs')).href;

async function runBatch(batch, index) {
  const args = ['--test'];
  if (isolation === 'file') args.push(`--test-concurrency=${concurrency}`);
  else args.push('--test-isolation=none', '--test-force-exit', '--expose-internals', `--import=${batchPreload}`);
  const out = path.join(os.tmpdir(), `vis-test-${runId}-${index}.json`);
  if (ownReporters) {
    args.push('--test-reporter=spec', '--test-reporter-destination=stdout', `--test-reporter=${summaryReporter}`, `--test-reporter-destination=${out}`);
  }
  const t0 = Date.now();
  const code = await run(process.execPath, [...args, ...passed, ...batch]);
  // When each batch ended shows how well the batches were balanced (the run's tail).
  console.log(
    `# batch ${index + 1}: ${batch.length} files, ${((Date.now() - t0) / 1000).toFixed(1)} s, ended at ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  let summary = null;
  try {
    summary = JSON.parse(fs.readFileSync(out, 'utf8'));
  } catch {
    // A batch that crashed before its reporter finished: its exit code says it failed.
  }
  fs.rmSync(out, { force: true });
  return { code, summary, files: batch };
}

async function runQueue(batches) {
  const results = [];
  let next = 0;
  const worker = async () => {
    while (next < batches.length) {
      const index = next++;
      results[index] = await runBatch(batches[index], index);
    }
  };
  await Promise.all(Array.from({ length: isolation === 'file' ? 1 : concurrency }, worker));
  return results;
}

const started = Date.now();
const batches = makeBatches();
console.log(
  `# ${files.length} test files (${tiers.join(', ')}; store: ${store}), ` +
    (isolation === 'file' ? `a process each, ${concurrency} at a time` : `in ${batches.length} batches, ${concurrency} at a time`) +
    (typecheck ? ', typecheck and lint beside them' : ''),
);
const jobs = [];
if (typecheck) {
  const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  jobs.push(
    run(process.execPath, [tsc, '-p', 'tsconfig.json', '--noEmit']).then((code) => {
      if (code) console.error('# typecheck failed');
      return code;
    }),
  );
  // Biome's lint rules and formatting (biome.json; docs/testing.md, "Lint") beside the typecheck.
  const biome = path.join(root, 'node_modules', '@biomejs', 'biome', 'bin', 'biome');
  jobs.push(
    run(process.execPath, [biome, 'check', '--error-on-warnings']).then((code) => {
      if (code) console.error('# lint failed: run `npm run lint`');
      return code;
    }),
  );
}
let results = [];
if (files.length) {
  jobs.push(
    warmUp()
      .then(() => runQueue(batches))
      .then((r) => {
        results = r;
        return r.some((b) => b.code !== 0) ? 1 : 0;
      }),
  );
}
// Ctrl-C reaches the children too (one process group); the templates go once they have stopped.
process.on('SIGINT', () => {});
const codes = await Promise.all(jobs);
await removeTemplates();

const totals = { tests: 0, passed: 0, failed: 0, cancelled: 0, skipped: 0, todo: 0 };
const durations = {};
for (const r of results) {
  for (const k of Object.keys(totals)) totals[k] += r.summary?.counts?.[k] ?? 0;
  for (const [file, ms] of Object.entries(r.summary?.durations ?? {})) durations[path.relative(root, file)] = Math.round(ms);
  if (r.code !== 0) console.log(`# failed: the batch of ${r.files.join(', ')}`);
}
if (ownReporters && results.length) {
  console.log(
    `# tests ${totals.tests}: ${totals.passed} passed, ${totals.failed} failed, ${totals.cancelled} cancelled, ${totals.skipped} skipped, ${totals.todo} todo`,
  );
}
if (record && Object.keys(durations).length) {
  const merged = { ...recorded, ...durations };
  const sorted = Object.fromEntries(
    Object.keys(merged)
      .filter((f) => fs.existsSync(path.join(root, f)))
      .sort()
      .map((f) => [f, merged[f]]),
  );
  fs.writeFileSync(DURATIONS_FILE, `${JSON.stringify(sorted, null, 2)}\n`);
  console.log(`# durations of ${Object.keys(durations).length} files written to ${path.relative(root, DURATIONS_FILE)}`);
}
console.log(`# wall clock ${((Date.now() - started) / 1000).toFixed(1)} s`);
process.exit(codes.some((c) => c !== 0) ? 1 : 0);
