// What a spawned server or CLI inherits besides the environment its test gives it: PATH, and
// the run's shared V8 compile cache, which makes loading the app in a child about half as
// costly (docs/testing.md, "Speed"); neither changes what the child does. And its ingestion
// worker at the API thread's priority: the suite keeps every core busy, and a lowered worker
// would be starved by the other test processes (docs/ingestion.md "The API thread first").
export function runtimeEnv(): Record<string, string> {
  const env: Record<string, string> = { PATH: process.env.PATH ?? '', INGEST_WORKER_NICE: '0' };
  if (process.env.NODE_COMPILE_CACHE) env.NODE_COMPILE_CACHE = process.env.NODE_COMPILE_CACHE;
  return env;
}
