import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// `npm run bench [-- <name> [args]]`: runs one benchmark, or every one in turn.
// A benchmark is either bench/<name>.bench.ts (run in its own process) or one of
// the in-process benches listed below. Benchmarks print figures; they are not tests.

const inProcess: Record<string, () => Promise<(args: string[]) => Promise<void>>> = {
  access: async () => (await import('./access.ts')).accessBench,
  'per-user': async () => (await import('./per-user.ts')).perUserBench,
  mcp: async () => (await import('./mcp.ts')).mcpBench,
};

if (process.argv[2] === '--in-process') {
  const [, , , bench, ...rest] = process.argv;
  await (await inProcess[bench]())(rest);
  process.exit(0);
}

const dir = path.dirname(fileURLToPath(import.meta.url));
const files = fs.readdirSync(dir).filter((f) => f.endsWith('.bench.ts')).sort();
const all = [...Object.keys(inProcess), ...files.map((f) => f.replace('.bench.ts', ''))];
const [name, ...args] = process.argv.slice(2);
const chosen = name ? all.filter((n) => n === name) : all;
if (name && !chosen.length) {
  console.error(`No benchmark '${name}'. Available: ${all.join(', ')}`);
  process.exit(2);
}
let failed = false;
for (const bench of chosen) {
  console.log(`\n=== ${bench} ===`);
  const load = Object.hasOwn(inProcess, bench);
  // In-process benches run in a child too, so one bench's state never skews the next.
  const r = load
    ? spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--in-process', bench, ...args], { stdio: 'inherit' })
    : spawnSync(process.execPath, ['--import', 'tsx', path.join(dir, `${bench}.bench.ts`), ...args], { stdio: 'inherit' });
  if (r.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
