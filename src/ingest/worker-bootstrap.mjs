// Entry of the ingestion worker thread. Worker threads do not inherit the main
// thread's TypeScript loader (Node 20), so it is registered here before the
// TypeScript entry is imported.
import { workerData } from 'node:worker_threads';

if (workerData.entry.endsWith('.ts')) {
  const { register } = await import('tsx/esm/api');
  register();
}
await import(workerData.entry);
