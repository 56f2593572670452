import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// `npm run bench [-- <name> [args]]`. Benchmarks print figures; they are not tests.
// A name is either a bench module listed below (run in this process) or a
// bench/<name>.bench.ts file (run in its own process). Without a name, every
// *.bench.ts runs in turn.

const named: Record<string, () => Promise<(args: string[]) => Promise<void>>> = {
  access: async () => (await import('./access.ts')).accessBench,
  web: async () => (await import('./web.ts')).webBench,
  'per-user': async () => (await import('./per-user.ts')).perUserBench,
  mcp: async () => (await import('./mcp.ts')).mcpBench,
};

const dir = path.dirname(fileURLToPath(import.meta.url));
const files = fs
  .readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .sort();
const [name, ...args] = process.argv.slice(2);

if (name && named[name]) {
  await (await named[name]())(args);
  process.exit(0);
}
const chosen = name ? files.filter((f) => f === `${name}.bench.ts`) : files;
if (name && !chosen.length) {
  const all = [...Object.keys(named), ...files.map((f) => f.replace('.bench.ts', ''))];
  console.error(`No benchmark '${name}'. Available: ${all.join(', ')}`);
  process.exit(2);
}
let failed = false;
for (const file of chosen) {
  console.log(`\n=== ${file.replace('.bench.ts', '')} ===`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(dir, file), ...args], { stdio: 'inherit' });
  if (r.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
