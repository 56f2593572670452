// The machine-readable end of a benchmark: one line `BENCH_RESULT {json}` with its
// figures by key, printed last, for bench/all.ts to put in one table (the human
// readable lines above it stay as they were). Keys are stable; units are in the
// key's suffix (Ms, S, Kb, Mb, Rps) or the figure is a plain count or ratio.

export const RESULT_PREFIX = 'BENCH_RESULT ';

export function reportFigures(bench: string, figures: Record<string, number>, notes: Record<string, string | number> = {}) {
  console.log(`${RESULT_PREFIX}${JSON.stringify({ bench, figures, notes })}`);
}

/** The `p` quantile (0..1) of a list of samples, nearest rank. */
export const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;
