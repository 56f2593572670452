// Entry of the ingestion worker thread. From source (tests run through tsx) the worker
// thread does not inherit the main thread's TypeScript loader, so it is registered here
// before the TypeScript entry is imported. The build (dist/) imports plain JavaScript
// and never loads tsx (docs/deployment.md, "Runtime").
import { workerData } from 'node:worker_threads';

if (workerData.entry.endsWith('.ts')) {
  const { register } = await import('tsx/esm/api');
  register();
}
await import(workerData.entry);
