// Benchmarks print figures; they are not tests. `npm run bench -- <name> [options]`.
const benches: Record<string, () => Promise<(args: string[]) => Promise<void>>> = {
  access: async () => (await import('./access.ts')).accessBench,
  web: async () => (await import('./web.ts')).webBench,
  'per-user': async () => (await import('./per-user.ts')).perUserBench,
  mcp: async () => (await import('./mcp.ts')).mcpBench,
};

const [name = 'access', ...args] = process.argv.slice(2);
const load = benches[name];
if (!load) {
  console.error(`unknown bench '${name}' (benches: ${Object.keys(benches).join(', ')})`);
  process.exit(2);
}
await (await load())(args);
process.exit(0);
