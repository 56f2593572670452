#!/usr/bin/env node
// Checks the Node.js that runs it (docs/deployment.md, "Runtime"), as CI does through
// `npm exec`, where npm puts the Node.js that `npm ci` installed first on PATH:
//   exit 1: older than the supported major; exit 2: better-sqlite3 does not load in it.
import { createRequire } from 'node:module';

const MIN_MAJOR = 24;
const major = Number(process.versions.node.split('.')[0]);
console.log(`node ${process.version} (${process.execPath})`);
if (major < MIN_MAJOR) {
  console.error(`Node.js ${MIN_MAJOR} or later is needed; npm scripts here run ${process.version}`);
  process.exit(1);
}
try {
  const Database = createRequire(import.meta.url)('better-sqlite3');
  new Database(':memory:').close();
} catch (err) {
  console.error(`better-sqlite3 does not load in ${process.version}: ${err.message}`);
  process.exit(2);
}
console.log('better-sqlite3 loads');
