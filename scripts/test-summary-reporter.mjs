// A node:test reporter that writes one JSON line for scripts/test.mjs: the run's counts and,
// per test file, the summed duration of its top-level tests and suites (docs/testing.md,
// "Batches"). It runs beside the spec reporter, whose output is what people read.
export default async function* summary(source) {
  const durations = {};
  let counts = null;
  for await (const event of source) {
    if ((event.type === 'test:pass' || event.type === 'test:fail') && event.data.nesting === 0 && event.data.file) {
      durations[event.data.file] = (durations[event.data.file] ?? 0) + (event.data.details?.duration_ms ?? 0);
    }
    // The last summary without a file is the whole process's (one per file comes before it).
    if (event.type === 'test:summary' && !event.data.file) counts = event.data.counts;
  }
  yield `${JSON.stringify({ counts, durations })}\n`;
}
