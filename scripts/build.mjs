#!/usr/bin/env node
// The production build behind `npm run build` (docs/deployment.md, "Runtime"):
// src/ compiled by tsc (tsconfig.build.json) to dist/, the files tsc does not emit
// (web assets, the worker bootstrap) copied beside it.
//
//   node scripts/build.mjs [--if-needed]
//
// --if-needed (`npm start`, `npm run demo`, `npm run cli`): build only when a file under
// src/, a tsconfig or the lockfile is newer than the last build. The new build is written
// to a directory of its own and swapped in at the end, so an interrupted or concurrent
// build never leaves a half-written dist/ behind.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const src = path.join(root, 'src');
const dist = path.join(root, 'dist');
const STAMP = '.build-stamp';
const INPUTS = ['tsconfig.json', 'tsconfig.build.json', 'package-lock.json'].map((f) => path.join(root, f));

function newestInput() {
  let newest = 0;
  for (const f of INPUTS) newest = Math.max(newest, fs.statSync(f).mtimeMs);
  for (const e of fs.readdirSync(src, { recursive: true, withFileTypes: true })) {
    newest = Math.max(newest, fs.statSync(path.join(e.parentPath, e.name)).mtimeMs);
  }
  return newest;
}

function builtAt() {
  try {
    return fs.statSync(path.join(dist, STAMP)).mtimeMs;
  } catch {
    return -1;
  }
}

const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');
if (process.argv.includes('--if-needed')) {
  if (builtAt() >= newestInput()) process.exit(0);
  // A production install (`npm ci --omit=dev` after the build) has no compiler: it runs
  // the dist/ it was given.
  if (!fs.existsSync(tsc) && builtAt() >= 0) process.exit(0);
}
if (!fs.existsSync(tsc)) {
  console.error(
    'dist/ is missing and TypeScript is not installed: build in a full install (`npm ci && npm run build`), then prune (docs/deployment.md, "Runtime").',
  );
  process.exit(1);
}

const started = Date.now();
const out = path.join(root, `dist.building-${process.pid}`);
fs.rmSync(out, { recursive: true, force: true });
const r = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json', '--outDir', out], { cwd: root, stdio: 'inherit' });
if (r.status !== 0) {
  fs.rmSync(out, { recursive: true, force: true });
  console.error('build failed');
  process.exit(1);
}
for (const e of fs.readdirSync(src, { recursive: true, withFileTypes: true })) {
  if (!e.isFile() || e.name.endsWith('.ts')) continue;
  const from = path.join(e.parentPath, e.name);
  const to = path.join(out, path.relative(src, from));
  fs.mkdirSync(path.dirname(to), { recursive: true });
  fs.copyFileSync(from, to);
}
fs.writeFileSync(path.join(out, STAMP), `${new Date().toISOString()} node ${process.version}\n`);
const old = path.join(root, `dist.old-${process.pid}`);
if (fs.existsSync(dist)) fs.renameSync(dist, old);
fs.renameSync(out, dist);
fs.rmSync(old, { recursive: true, force: true });
console.error(`built dist/ in ${((Date.now() - started) / 1000).toFixed(1)} s`);
