// Entry of the ingestion worker thread: worker.ts when running from source (Node's own
// type stripping loads it, as in the main thread), worker.js in the build
// (docs/deployment.md, "Runtime").
import { workerData } from 'node:worker_threads';

await import(workerData.entry);
