// The import rules of src/ (docs/architecture.md, "What each folder may import"),
// checked by test/system/architecture.test.ts inside `npm test`. There is no list of
// exceptions: an edge that breaks a rule is fixed in the code, not allowed here.

/** The adapters: each owns its folder and reaches another only through that one's index.ts. */
const EDGES = '(http|mcp|web|cli|ingest|alerts|events|probes)';

module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      severity: 'error',
      comment: 'No import cycles anywhere in src/, type-only imports included.',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'domain-imports-nothing-of-ours',
      severity: 'error',
      comment: 'src/domain holds pure rules and types: it imports only itself (and packages).',
      from: { path: '^src/domain/' },
      to: { path: '^src/', pathNot: '^src/domain/' },
    },
    {
      name: 'store-imports-only-domain',
      severity: 'error',
      comment: 'Repositories and migrations know the domain types and SQL, nothing else of ours.',
      from: { path: '^src/store/' },
      to: { path: '^src/', pathNot: '^src/(store|domain)/' },
    },
    {
      name: 'services-import-only-domain-store-infra',
      severity: 'error',
      comment: 'Use cases never import an adapter; what they need of one comes in through an interface.',
      from: { path: '^src/services/' },
      to: { path: '^src/', pathNot: '^src/(services|domain|store|infra)/' },
    },
    {
      name: 'infra-imports-only-domain',
      severity: 'error',
      comment: 'Infrastructure implements interfaces for the layers above; it never imports them.',
      from: { path: '^src/infra/' },
      to: { path: '^src/', pathNot: '^src/(infra|domain)/' },
    },
    {
      name: 'parsers-import-only-domain',
      severity: 'error',
      comment:
        'src/ingest/adapters turns upstream formats into our records and nothing else: it imports only itself and the domain. ' +
        'What renders fake vendor pages lives with the simulator (src/ingest/simulator/render).',
      from: { path: '^src/ingest/adapters/' },
      to: { path: '^src/', pathNot: '^src/(ingest/adapters|domain)/' },
    },
    {
      name: 'edges-keep-to-themselves',
      severity: 'error',
      comment: "An adapter never imports another adapter's internals: only its public index.ts.",
      from: { path: `^src/${EDGES}/` },
      to: { path: `^src/${EDGES}/`, pathNot: [`^src/$1/`, `^src/${EDGES}/index\\.ts$`] },
    },
    {
      name: 'adapters-reach-the-store-through-services',
      severity: 'error',
      comment:
        'Routes, MCP, web pages, CLI commands and the upstream parsers and simulator of ingestion never import src/store, ' +
        'not even a type: they get use cases and the types those export. The ingest and alert workers and the stream hub ' +
        'run over repositories (the polling thread opens its own store), so they may (docs/architecture.md).',
      from: { path: '^src/(http|mcp|web|cli|ingest/adapters|ingest/simulator)/' },
      to: { path: '^src/store/' },
    },
    {
      name: 'only-entries-compose',
      severity: 'error',
      comment: 'The composition root (app.ts, server.ts and their helpers at the top of src/) is imported by nothing in a folder.',
      from: { path: '^src/[^/]+/' },
      to: { path: '^src/(app|server|banner|probe-listener|cli-args)\\.ts$' },
    },
  ],
  options: {
    // TypeScript 7 has no compiler API for the cruiser; swc reads the sources (type-only imports included).
    parser: 'swc',
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^src/web/assets/' },
  },
};
