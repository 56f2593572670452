// What a spawned server or CLI inherits besides the environment its test gives it: PATH, and
// the run's shared V8 compile cache, which makes loading the app in a child about half as
// costly (docs/testing.md, "Speed"). Neither changes what the child does.
export function runtimeEnv(): Record<string, string> {
  const env: Record<string, string> = { PATH: process.env.PATH ?? '' };
  if (process.env.NODE_COMPILE_CACHE) env.NODE_COMPILE_CACHE = process.env.NODE_COMPILE_CACHE;
  return env;
}
