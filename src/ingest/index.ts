// What ingestion offers the CLI: the runtime that polls, the catalog preparation, the
// per-poll outcome, and the adapters' parser (docs/ingestion.md). Other folders import
// these from here only.
export { createIngestRuntime, prepareCatalog } from './runtime.ts';
export type { PollOutcome } from './scheduler.ts';
export { parseSource } from './adapters/index.ts';
