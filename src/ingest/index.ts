// What ingestion offers the CLI: the catalog preparation, the runtime that polls, the
// per-poll outcome, the adapters' parser and the status-page detector (docs/ingestion.md). Other folders import
// these from here only.
export { prepareCatalog } from './catalog.ts';
export { createIngestRuntime } from './runtime.ts';
export type { PollOutcome } from './scheduler.ts';
export { parseSource } from './adapters/index.ts';
export { httpPageDetector } from './page-detect.ts';
