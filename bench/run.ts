import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// `npm run bench [-- <name> [args]]`: runs bench/<name>.bench.ts, or every
// *.bench.ts in turn. Benchmarks print figures; they are not tests.

const dir = path.dirname(fileURLToPath(import.meta.url));
const all = fs.readdirSync(dir).filter((f) => f.endsWith('.bench.ts')).sort();
const [name, ...args] = process.argv.slice(2);
const chosen = name ? all.filter((f) => f === `${name}.bench.ts`) : all;
if (name && !chosen.length) {
  console.error(`No benchmark '${name}'. Available: ${all.map((f) => f.replace('.bench.ts', '')).join(', ')}`);
  process.exit(2);
}
let failed = false;
for (const file of chosen) {
  console.log(`\n=== ${file.replace('.bench.ts', '')} ===`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(dir, file), ...args], { stdio: 'inherit' });
  if (r.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
